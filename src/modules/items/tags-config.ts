import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { type Envelope, type ListSpec, listPage, searchColumns } from "../../core/listing";
import { nowIso } from "../../core/time";
import type { Db } from "../../db/client";
import { emit, insertedRowEvent, newEvent } from "../../events/outbox";
import type {
  CreateItemTagSchema,
  ItemConfigSchema,
  ItemTagSchema,
  UpdateItemConfigSchema,
  UpdateItemTagSchema,
} from "./schemas";
import { itemConfig, itemTags } from "./tables";

type TagRow = typeof itemTags.$inferSelect;
const tagView = (t: TagRow): z.infer<typeof ItemTagSchema> => ({
  id: t.id,
  name_en: t.nameEn,
  name_ar: t.nameAr,
  ordering: t.ordering,
});
const live = (appId: number) => and(eq(itemTags.appId, appId), eq(itemTags.isDeleted, false))!;

export const ITEM_TAG_LIST: ListSpec = {
  fields: {
    id: { column: itemTags.id, kind: "integer" },
    name_en: { column: itemTags.nameEn, kind: "string" },
    name_ar: { column: itemTags.nameAr, kind: "string" },
    ordering: { column: itemTags.ordering, kind: "integer" },
    created_at: { column: itemTags.createdAt, kind: "datetime" },
  },
  search: searchColumns(itemTags.nameEn, itemTags.nameAr),
  defaultOrder: "ordering",
  idColumn: itemTags.id,
};

export async function listItemTags(ctx: ServiceContext, url: URL): Promise<Envelope<z.infer<typeof ItemTagSchema>>> {
  const page = await listPage(ctx.db, url, ITEM_TAG_LIST, { table: itemTags, scope: () => live(ctx.appId) });
  return { ...page, results: page.results.map(tagView) };
}

async function tag(ctx: ServiceContext, id: number): Promise<TagRow> {
  const row = await ctx.db
    .select()
    .from(itemTags)
    .where(and(live(ctx.appId), eq(itemTags.id, id)))
    .get();
  if (!row) throw ApiError.notFound(`Item tag ${id}`);
  return row;
}

export async function createItemTag(ctx: ServiceContext, input: z.infer<typeof CreateItemTagSchema>) {
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(itemTags)
        .values({ appId: ctx.appId, nameEn: input.name_en, nameAr: input.name_ar, ordering: input.ordering ?? 0 })
        .returning(),
    ],
    insertedRowEvent("item_tag.created", itemTags),
  );
  return tagView((results[0] as TagRow[])[0]!);
}

export async function updateItemTag(ctx: ServiceContext, id: number, input: z.infer<typeof UpdateItemTagSchema>) {
  await tag(ctx, id);
  const set = {
    modifiedAt: nowIso(),
    ...(input.name_en !== undefined && { nameEn: input.name_en }),
    ...(input.name_ar !== undefined && { nameAr: input.name_ar }),
    ...(input.ordering !== undefined && { ordering: input.ordering }),
  };
  await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(itemTags).set(set).where(eq(itemTags.id, id))],
    [newEvent(ctx.appId, "item_tag.updated", { id })],
  );
  return tagView(await tag(ctx, id));
}

export async function deleteItemTag(ctx: ServiceContext, id: number): Promise<void> {
  await tag(ctx, id);
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(itemTags).set({ isDeleted: true, deletedAt: at, modifiedAt: at }).where(eq(itemTags.id, id))],
    [newEvent(ctx.appId, "item_tag.deleted", { id })],
  );
}

export const ITEM_CONFIG_DEFAULTS = { reservation_minutes: 15, max_reservation_qty: 1000 };

export async function readItemConfig(db: Db, appId: number): Promise<z.infer<typeof ItemConfigSchema>> {
  const row = await db.select().from(itemConfig).where(eq(itemConfig.appId, appId)).get();
  return row
    ? { reservation_minutes: row.reservationMinutes, max_reservation_qty: row.maxReservationQty }
    : { ...ITEM_CONFIG_DEFAULTS };
}

export async function updateItemConfig(ctx: ServiceContext, input: z.infer<typeof UpdateItemConfigSchema>) {
  const next = { ...(await readItemConfig(ctx.db, ctx.appId)), ...input };
  const values = {
    reservationMinutes: next.reservation_minutes,
    maxReservationQty: next.max_reservation_qty,
    modifiedAt: nowIso(),
  };
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(itemConfig)
        .values({ appId: ctx.appId, ...values })
        .onConflictDoUpdate({ target: itemConfig.appId, set: values }),
    ],
    [newEvent(ctx.appId, "item_config.updated", { app_id: ctx.appId })],
  );
  return next;
}
