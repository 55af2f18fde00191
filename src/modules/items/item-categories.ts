import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { type Envelope, type ListSpec, listPage, searchColumns } from "../../core/listing";
import { nowIso } from "../../core/time";
import { emit, insertedRowEvent, newEvent } from "../../events/outbox";
import type { CreateItemCategorySchema, ItemCategorySchema, UpdateItemCategorySchema } from "./schemas";
import { itemCategories, itemCategoryLinks, items } from "./tables";

type Row = typeof itemCategories.$inferSelect;
export type ItemCategory = z.infer<typeof ItemCategorySchema>;

const view = (c: Row): ItemCategory => ({
  id: c.id,
  name_en: c.nameEn,
  name_ar: c.nameAr,
  ordering: c.ordering,
  created_at: c.createdAt,
});
const live = (appId: number) => and(eq(itemCategories.appId, appId), eq(itemCategories.isDeleted, false))!;

export const ITEM_CATEGORY_LIST: ListSpec = {
  fields: {
    id: { column: itemCategories.id, kind: "integer" },
    name_en: { column: itemCategories.nameEn, kind: "string" },
    name_ar: { column: itemCategories.nameAr, kind: "string" },
    ordering: { column: itemCategories.ordering, kind: "integer" },
    created_at: { column: itemCategories.createdAt, kind: "datetime" },
  },
  search: searchColumns(itemCategories.nameEn, itemCategories.nameAr),
  defaultOrder: "ordering",
  idColumn: itemCategories.id,
};

async function found(ctx: ServiceContext, id: number): Promise<Row> {
  const row = await ctx.db
    .select()
    .from(itemCategories)
    .where(and(live(ctx.appId), eq(itemCategories.id, id)))
    .get();
  if (!row) throw ApiError.notFound(`Item category ${id}`);
  return row;
}

export async function listItemCategories(ctx: ServiceContext, url: URL): Promise<Envelope<ItemCategory>> {
  const page = await listPage(ctx.db, url, ITEM_CATEGORY_LIST, { table: itemCategories, scope: () => live(ctx.appId) });
  return { ...page, results: page.results.map(view) };
}

export async function getItemCategory(ctx: ServiceContext, id: number): Promise<ItemCategory> {
  return view(await found(ctx, id));
}

export async function createItemCategory(
  ctx: ServiceContext,
  input: z.infer<typeof CreateItemCategorySchema>,
): Promise<ItemCategory> {
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(itemCategories)
        .values({ appId: ctx.appId, nameEn: input.name_en, nameAr: input.name_ar, ordering: input.ordering ?? 0 })
        .returning(),
    ],
    insertedRowEvent("item_category.created", itemCategories),
  );
  return view((results[0] as Row[])[0]!);
}

export async function updateItemCategory(
  ctx: ServiceContext,
  id: number,
  input: z.infer<typeof UpdateItemCategorySchema>,
): Promise<ItemCategory> {
  await found(ctx, id);
  const set = {
    modifiedAt: nowIso(),
    ...(input.name_en !== undefined && { nameEn: input.name_en }),
    ...(input.name_ar !== undefined && { nameAr: input.name_ar }),
    ...(input.ordering !== undefined && { ordering: input.ordering }),
  };
  await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(itemCategories).set(set).where(eq(itemCategories.id, id))],
    [newEvent(ctx.appId, "item_category.updated", { id })],
  );
  return getItemCategory(ctx, id);
}

/** Refused with 409 and the item ids while live items are in the category, as for the other categories. */
export async function deleteItemCategory(ctx: ServiceContext, id: number): Promise<void> {
  await found(ctx, id);
  const users = await ctx.db
    .select({ id: items.id })
    .from(itemCategoryLinks)
    .innerJoin(items, eq(items.id, itemCategoryLinks.itemId))
    .where(and(eq(itemCategoryLinks.categoryId, id), eq(items.appId, ctx.appId), eq(items.isDeleted, false)));
  if (users.length) {
    const ids = users.map((u) => u.id);
    throw ApiError.conflict(
      "item_category_in_use",
      `Items ${ids.join(", ")} are in this category; take them out first.`,
      { items: ids },
    );
  }
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(itemCategories)
        .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
        .where(eq(itemCategories.id, id)),
    ],
    [newEvent(ctx.appId, "item_category.deleted", { id })],
  );
}
