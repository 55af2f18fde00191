import type { z } from "@hono/zod-openapi";
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../core/context";
import { ApiError, type FieldErrors } from "../../core/errors";
import { type Envelope, type ListSpec, listPage, searchColumns } from "../../core/listing";
import { toMinor } from "../../core/money";
import { inList } from "../../core/sql";
import { nowIso } from "../../core/time";
import { emit, eventPayloadSql, newEvent, newEventId } from "../../events/outbox";
import type { CreateItemSchema, Item, PurchaseItemSchema, ReserveItemSchema, UpdateItemSchema } from "./schemas";
import { loadItems } from "./service";
import {
  bundleCategories,
  ITEM_TYPES,
  itemBundleCategories,
  itemCategories,
  itemCategoryLinks,
  itemModifierCategories,
  itemReservations,
  items,
  modifierCategories,
  modifierValues,
  SERVICE_TYPES,
  variantModifierValues,
} from "./tables";
import { readItemConfig } from "./tags-config";

type CreateItem = z.infer<typeof CreateItemSchema>;
type UpdateItem = z.infer<typeof UpdateItemSchema>;
type ItemRow = typeof items.$inferSelect;

/** Items as lists show them: parents only, their variants embedded. */
const liveParents = (appId: number) => and(eq(items.appId, appId), eq(items.isDeleted, false), isNull(items.parentId))!;

export const ITEM_LIST: ListSpec = {
  fields: {
    id: { column: items.id, kind: "integer" },
    type: { column: items.type, kind: "string", values: ITEM_TYPES },
    service_type: { column: items.serviceType, kind: "string", values: SERVICE_TYPES },
    sku: { column: items.sku, kind: "string" },
    price: { column: items.priceMinor, kind: "money" },
    name_en: { column: items.nameEn, kind: "string" },
    name_ar: { column: items.nameAr, kind: "string" },
    is_plan_only: { column: items.isPlanOnly, kind: "boolean" },
    is_plan_enabled: { column: items.isPlanEnabled, kind: "boolean" },
    served_from_date: { column: items.servedFromDate, kind: "date" },
    served_to_date: { column: items.servedToDate, kind: "date" },
    weight: { column: items.weight, kind: "number" },
    ordering: { column: items.ordering, kind: "integer" },
    created_at: { column: items.createdAt, kind: "datetime" },
    modified_at: { column: items.modifiedAt, kind: "datetime" },
  },
  search: searchColumns(items.nameEn, items.nameAr, items.sku, items.descriptionEn, items.descriptionAr),
  searchDescription: "Matches item names, descriptions and SKU (substring); may repeat, all terms must match.",
  defaultOrder: "ordering",
  idColumn: items.id,
};

async function found(ctx: ServiceContext, id: number, opts: { variantsToo?: boolean } = {}): Promise<ItemRow> {
  const row = await ctx.db
    .select()
    .from(items)
    .where(and(eq(items.appId, ctx.appId), eq(items.isDeleted, false), eq(items.id, id)))
    .get();
  if (!row || (row.parentId !== null && !opts.variantsToo)) throw ApiError.notFound(`Item ${id}`);
  return row;
}

async function fullItem(ctx: ServiceContext, id: number): Promise<Item> {
  return (await loadItems(ctx.db, ctx.appId, [id])).get(id)!;
}

/** List Items: two statements for the page, one batch for the full objects, whatever the sizes. */
export async function listItems(ctx: ServiceContext, url: URL): Promise<Envelope<Item>> {
  const page = await listPage(ctx.db, url, ITEM_LIST, { table: items, scope: () => liveParents(ctx.appId) });
  const full = await loadItems(
    ctx.db,
    ctx.appId,
    page.results.map((r) => r.id),
  );
  return { ...page, results: page.results.map((r) => full.get(r.id)!) };
}

export async function getItem(ctx: ServiceContext, id: number): Promise<Item> {
  await found(ctx, id);
  return fullItem(ctx, id);
}

/**
 * Checks that every id the input names is the store's own live record, and that variants use
 * values of the `varies_on` category; SKUs must be free. Throws 400 naming the fields, 409 for SKUs.
 */
async function checkReferences(ctx: ServiceContext, input: Partial<CreateItem>, self?: { id: number; skus: string[] }) {
  const variantValues = (input.variants ?? []).flatMap((v) => v.modifier_values);
  const skus = [input.sku, ...(input.variants ?? []).map((v) => v.sku)].filter((s): s is string => !!s);
  const [mods, cats, bundles, values, taken] = await ctx.db.batch([
    ctx.db
      .select({ id: modifierCategories.id })
      .from(modifierCategories)
      .where(
        and(
          eq(modifierCategories.appId, ctx.appId),
          eq(modifierCategories.isDeleted, false),
          inList(modifierCategories.id, [...(input.modifiers ?? []), ...(input.varies_on ? [input.varies_on] : [])]),
        ),
      ),
    ctx.db
      .select({ id: itemCategories.id })
      .from(itemCategories)
      .where(
        and(
          eq(itemCategories.appId, ctx.appId),
          eq(itemCategories.isDeleted, false),
          inList(itemCategories.id, input.categories ?? []),
        ),
      ),
    ctx.db
      .select({ id: bundleCategories.id })
      .from(bundleCategories)
      .where(
        and(
          eq(bundleCategories.appId, ctx.appId),
          eq(bundleCategories.isDeleted, false),
          inList(bundleCategories.id, input.bundle_categories ?? []),
        ),
      ),
    ctx.db
      .select({ id: modifierValues.id, categoryId: modifierValues.categoryId })
      .from(modifierValues)
      .where(
        and(
          eq(modifierValues.appId, ctx.appId),
          eq(modifierValues.isDeleted, false),
          inList(modifierValues.id, variantValues),
        ),
      ),
    ctx.db
      .select({ id: items.id, sku: items.sku })
      .from(items)
      .where(and(eq(items.appId, ctx.appId), inList(items.sku, skus))),
  ]);
  const errors: FieldErrors = Object.create(null);
  const missing = (field: string, given: number[] | undefined, rows: { id: number }[]) => {
    const known = new Set(rows.map((r) => r.id));
    const unknown = (given ?? []).filter((id) => !known.has(id));
    if (unknown.length) errors[field] = [`Not in this store: ${unknown.join(", ")}.`];
  };
  missing("modifiers", input.modifiers, mods);
  missing("categories", input.categories, cats);
  missing("bundle_categories", input.bundle_categories, bundles);
  if (input.varies_on && !mods.some((m) => m.id === input.varies_on))
    errors.varies_on = [`Not in this store: ${input.varies_on}.`];
  const valueCategory = new Map(values.map((v) => [v.id, v.categoryId]));
  (input.variants ?? []).forEach((v, i) => {
    const wrong = v.modifier_values.filter((id) => valueCategory.get(id) !== input.varies_on);
    if (wrong.length)
      errors[`variants.${i}.modifier_values`] = [`Not values of the varies_on category: ${wrong.join(", ")}.`];
  });
  if (new Set(skus).size !== skus.length) errors.sku = ["The item and its variants need distinct SKUs."];
  if (Object.keys(errors).length)
    throw ApiError.validation(errors, "The item names records it cannot use; see `errors`.");
  const clash = taken.filter((t) => !self?.skus.includes(t.sku));
  if (clash.length)
    throw ApiError.conflict(
      "sku_taken",
      `SKU ${clash.map((c) => c.sku).join(", ")} is already used in this store (SKUs are never reused).`,
      { skus: clash.map((c) => c.sku) },
    );
}

const idBySku = (appId: number, sku: string): SQL =>
  sql`(SELECT id FROM items WHERE app_id = ${appId} AND sku = ${sku})`;

function columnsOf(input: Partial<CreateItem>) {
  return {
    ...(input.type !== undefined && { type: input.type }),
    ...(input.service_type !== undefined && { serviceType: input.service_type }),
    ...(input.sku !== undefined && { sku: input.sku }),
    ...(input.price !== undefined && { priceMinor: toMinor(input.price)! }),
    ...(input.name_en !== undefined && { nameEn: input.name_en }),
    ...(input.name_ar !== undefined && { nameAr: input.name_ar }),
    ...(input.description_en !== undefined && { descriptionEn: input.description_en }),
    ...(input.description_ar !== undefined && { descriptionAr: input.description_ar }),
    ...(input.custom_fields !== undefined && { customFields: input.custom_fields }),
    ...(input.is_plan_only !== undefined && { isPlanOnly: input.is_plan_only }),
    ...(input.is_plan_enabled !== undefined && { isPlanEnabled: input.is_plan_enabled }),
    ...(input.plan_config !== undefined && { planConfig: input.plan_config }),
    ...(input.off_days !== undefined && { offDays: input.off_days }),
    ...(input.off_dates !== undefined && { offDates: input.off_dates }),
    ...(input.served_from_date !== undefined && { servedFromDate: input.served_from_date }),
    ...(input.served_to_date !== undefined && { servedToDate: input.served_to_date }),
    ...(input.served_from_time !== undefined && { servedFromTime: input.served_from_time }),
    ...(input.served_to_time !== undefined && { servedToTime: input.served_to_time }),
    ...(input.weight !== undefined && { weight: input.weight }),
    ...(input.stock_qty !== undefined && { stockQty: input.stock_qty }),
    ...(input.ordering !== undefined && { ordering: input.ordering }),
    ...(input.varies_on !== undefined && { variesOnId: input.varies_on }),
  };
}

/** The statements that (re)write an item's links and its variants, all addressed by SKU. */
function linkStatements(
  ctx: ServiceContext,
  parentSku: string,
  parent: Pick<ItemRow, "type" | "serviceType">,
  input: Partial<CreateItem>,
  variantIdsKept: number[] = [],
) {
  const { db, appId } = ctx;
  const parentId = idBySku(appId, parentSku);
  const out: BatchItem<"sqlite">[] = [];
  // Link tables are (app_id, item_id, other id), in that column order.
  const links = (itemId: SQL, ids: number[]) =>
    sql`SELECT ${appId}, ${itemId}, value FROM json_each(${JSON.stringify(ids)})`;
  const relink = (
    table: typeof itemModifierCategories | typeof itemCategoryLinks | typeof itemBundleCategories,
    ids: number[] | undefined,
  ) => {
    if (ids === undefined) return;
    out.push(db.delete(table).where(sql`${table.itemId} = ${parentId}`));
    if (ids.length) out.push(db.insert(table).select(links(parentId, ids)));
  };
  relink(itemModifierCategories, input.modifiers);
  relink(itemCategoryLinks, input.categories);
  relink(itemBundleCategories, input.bundle_categories);
  if (input.variants !== undefined) {
    const at = nowIso();
    // Variants left out of the list are deleted (soft: tickets and orders may point at them).
    out.push(
      db
        .update(items)
        .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
        .where(
          and(
            sql`${items.parentId} = ${parentId}`,
            eq(items.isDeleted, false),
            sql`${items.id} NOT IN (SELECT value FROM json_each(${JSON.stringify(variantIdsKept)}))`,
          ),
        ),
    );
    for (const v of input.variants) {
      const fields = {
        sku: v.sku,
        priceMinor: toMinor(v.price)!,
        variantTitleEn: v.variant_title_en,
        variantTitleAr: v.variant_title_ar,
        nameEn: sql`(SELECT name_en || ' — ' || ${v.variant_title_en} FROM items WHERE id = ${parentId})`,
        nameAr: sql`(SELECT name_ar || ' — ' || ${v.variant_title_ar} FROM items WHERE id = ${parentId})`,
        ...(v.stock_qty !== undefined && { stockQty: v.stock_qty }),
        modifiedAt: at,
      };
      out.push(
        v.id
          ? db
              .update(items)
              .set(fields)
              .where(and(eq(items.id, v.id), sql`${items.parentId} = ${parentId}`))
          : db.insert(items).values({
              ...fields,
              appId,
              parentId,
              type: parent.type,
              serviceType: parent.serviceType,
              nameEn: fields.nameEn,
              nameAr: fields.nameAr,
            }),
      );
      const variantId = idBySku(appId, v.sku);
      out.push(db.delete(variantModifierValues).where(sql`${variantModifierValues.itemId} = ${variantId}`));
      out.push(db.insert(variantModifierValues).select(links(variantId, v.modifier_values)));
    }
  }
  return out;
}

/** Create Item: the item, its links and its variants in one batch, with `item.created`. */
export async function createItem(ctx: ServiceContext, input: CreateItem): Promise<Item> {
  await checkReferences(ctx, input);
  const row = {
    appId: ctx.appId,
    ...columnsOf(input),
    type: input.type,
    serviceType: input.service_type,
    sku: input.sku,
    priceMinor: toMinor(input.price)!,
    nameEn: input.name_en,
    nameAr: input.name_ar,
  };
  const eventId = newEventId();
  await emit(
    ctx.db,
    ctx.events,
    [ctx.db.insert(items).values(row), ...linkStatements(ctx, input.sku, row, input)],
    sql`SELECT ${eventId} AS id, app_id, 'item.created' AS type,
          ${eventPayloadSql("item.created", sql`${eventId}`, sql`app_id`, sql`json_object('id', id)`)} AS payload
        FROM items WHERE id = ${idBySku(ctx.appId, input.sku)}`,
  );
  const created = await ctx.db
    .select({ id: items.id })
    .from(items)
    .where(and(eq(items.appId, ctx.appId), eq(items.sku, input.sku)))
    .get();
  return fullItem(ctx, created!.id);
}

/** Update Item: any fields; `modifiers`, `categories`, `bundle_categories` and `variants` replace the lists. */
export async function updateItem(ctx: ServiceContext, id: number, input: UpdateItem): Promise<Item> {
  const current = await found(ctx, id);
  const variants = await ctx.db
    .select({ id: items.id, sku: items.sku })
    .from(items)
    .where(and(eq(items.parentId, id), eq(items.isDeleted, false)));
  const merged = { ...input, varies_on: input.varies_on !== undefined ? input.varies_on : current.variesOnId };
  if (input.variants?.length && merged.varies_on === null)
    throw ApiError.validation({ varies_on: ["Variants need `varies_on`."] });
  const unknown = (input.variants ?? []).filter((v) => v.id && !variants.some((x) => x.id === v.id));
  if (unknown.length)
    throw ApiError.validation(
      Object.fromEntries(
        unknown.map((v) => [`variants.${input.variants!.indexOf(v)}.id`, [`Not a variant of item ${id}.`]]),
      ),
    );
  await checkReferences(
    ctx,
    { ...merged, variants: input.variants, modifiers: input.modifiers },
    { id, skus: [current.sku, ...variants.map((v) => v.sku)] },
  );
  const sku = input.sku ?? current.sku;
  const changes = [
    ctx.db
      .update(items)
      .set({ ...columnsOf(input), modifiedAt: nowIso() })
      .where(eq(items.id, id)),
    ...linkStatements(
      ctx,
      sku,
      current,
      input,
      (input.variants ?? []).flatMap((v) => (v.id ? [v.id] : [])),
    ),
  ];
  await emit(ctx.db, ctx.events, changes, [newEvent(ctx.appId, "item.updated", { id })]);
  return fullItem(ctx, id);
}

/** Delete Item (soft): gone from lists and details; tickets and orders that point at it still show it. */
export async function deleteItem(ctx: ServiceContext, id: number): Promise<void> {
  await found(ctx, id);
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(items)
        .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
        .where(and(eq(items.appId, ctx.appId), sql`(${items.id} = ${id} OR ${items.parentId} = ${id})`)),
    ],
    [newEvent(ctx.appId, "item.deleted", { id })],
  );
}

const heldSql = (itemId: number, at: string, except?: number) =>
  sql`coalesce((SELECT sum(qty) FROM item_reservations WHERE item_id = ${itemId} AND consumed_at IS NULL AND expires_at > ${at}${except ? sql` AND id <> ${except}` : sql``}), 0)`;

/**
 * Reserve an Item: holds units for a few minutes. One guarded INSERT decides: of two requests
 * racing for the last unit, one gets it and the other a 409.
 */
export async function reserveItem(ctx: ServiceContext, id: number, input: z.infer<typeof ReserveItemSchema>) {
  const item = await found(ctx, id, { variantsToo: true });
  const config = await readItemConfig(ctx.db, ctx.appId);
  if (input.qty > config.max_reservation_qty) {
    throw ApiError.validation({
      qty: [`At most ${config.max_reservation_qty} units a reservation in this store (Item Config).`],
    });
  }
  const at = nowIso();
  const expiresAt = new Date(Date.now() + (input.minutes ?? config.reservation_minutes) * 60_000).toISOString();
  const enough = sql`(SELECT stock_qty FROM items WHERE id = ${item.id} AND is_deleted = 0) - ${heldSql(item.id, at)} >= ${input.qty}`;
  // The hold changes the Item's `stock.qty`: `item.updated` goes with it, under the same guard.
  const { results, applied } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(itemReservations)
        .select(sql`SELECT NULL, ${ctx.appId}, ${item.id}, ${input.qty}, ${expiresAt}, NULL, ${at} WHERE ${enough}`)
        .returning({ id: itemReservations.id }),
    ],
    [newEvent(ctx.appId, "item.updated", { id: item.id, reserved: input.qty })],
    { guard: enough },
  );
  const rows = results[0] as { id: number }[];
  if (!applied || !rows.length) throw await insufficient(ctx, item.id);
  return { id: rows[0]!.id, item: item.id, qty: input.qty, expires_at: expiresAt };
}

async function insufficient(ctx: ServiceContext, itemId: number) {
  const stock = (await loadItems(ctx.db, ctx.appId, [itemId])).get(itemId)?.stock.qty ?? 0;
  return ApiError.conflict("insufficient_stock", `Only ${stock} unit(s) are available.`, { available: stock });
}

/**
 * Record Item Purchase: takes units out of stock, never below zero, consuming a reservation when
 * one is given. Guarded statements in one batch: the stock and the reservation change together.
 */
export async function purchaseItem(
  ctx: ServiceContext,
  id: number,
  input: z.infer<typeof PurchaseItemSchema>,
): Promise<Item> {
  const item = await found(ctx, id, { variantsToo: true });
  const at = nowIso();
  // `enough`: the condition, over the item's row before the purchase, under which it applies. The
  // stock UPDATE and the event's guard both use it, so they land together or not at all.
  let enough: SQL;
  let qty: number;
  const consume: BatchItem<"sqlite">[] = [];
  if (input.reservation_id !== undefined) {
    const r = await ctx.db
      .select()
      .from(itemReservations)
      .where(
        and(
          eq(itemReservations.id, input.reservation_id),
          eq(itemReservations.itemId, item.id),
          eq(itemReservations.appId, ctx.appId),
        ),
      )
      .get();
    if (!r)
      throw ApiError.validation({ reservation_id: [`No reservation ${input.reservation_id} of item ${item.id}.`] });
    if (r.consumedAt) throw ApiError.conflict("reservation_used", "This reservation was already used by a purchase.");
    if (input.qty !== undefined && input.qty !== r.qty)
      throw ApiError.validation({ qty: [`The reservation holds ${r.qty} unit(s); buy exactly those.`] });
    qty = r.qty;
    // The reservation's units were already counted out of what can be sold: only on-hand stock matters.
    enough = sql`${items.stockQty} >= ${qty} AND EXISTS (SELECT 1 FROM item_reservations WHERE id = ${r.id} AND consumed_at IS NULL AND expires_at > ${at})`;
    consume.push(
      ctx.db
        .update(itemReservations)
        .set({ consumedAt: at })
        .where(
          and(
            eq(itemReservations.id, r.id),
            isNull(itemReservations.consumedAt),
            sql`${itemReservations.expiresAt} > ${at}`,
          ),
        ),
    );
  } else {
    qty = input.qty!;
    enough = sql`${items.isDeleted} = 0 AND ${items.stockQty} - ${heldSql(item.id, at)} >= ${qty}`;
  }
  const changes = [
    ctx.db
      .update(items)
      .set({ stockQty: sql`${items.stockQty} - ${qty}`, modifiedAt: at })
      .where(and(eq(items.id, item.id), enough)),
    ...consume,
  ];
  const guard = sql`EXISTS (SELECT 1 FROM items WHERE ${eq(items.id, item.id)} AND ${enough})`;
  const { applied } = await emit(
    ctx.db,
    ctx.events,
    changes,
    [newEvent(ctx.appId, "item.updated", { id: item.id, purchased: qty })],
    { guard },
  );
  if (!applied) {
    if (input.reservation_id !== undefined)
      throw ApiError.conflict(
        "reservation_expired",
        "The reservation expired or the stock no longer covers it; reserve again.",
      );
    throw await insufficient(ctx, item.id);
  }
  return fullItem(ctx, item.id);
}

type BulkEntry = { id: number } & Partial<CreateItem>;

/**
 * Bulk updates: all or nothing. Every id must be a live item or variant of the store (404 naming
 * the others) and every entry valid against what is stored (400 per entry); the updates and their
 * `item.updated` events go in one batch, guarded so that an item deleted meanwhile cancels it all.
 */
export async function bulkUpdateItems(
  ctx: ServiceContext,
  entries: BulkEntry[],
): Promise<{ count: number; results: Item[] }> {
  const ids = entries.map((e) => e.id);
  const scope = and(eq(items.appId, ctx.appId), eq(items.isDeleted, false), inList(items.id, ids))!;
  const current = new Map((await ctx.db.select().from(items).where(scope)).map((r) => [r.id, r]));
  const missing = ids.filter((id) => !current.has(id));
  if (missing.length) {
    throw new ApiError(
      404,
      "items_not_found",
      `No item with id ${missing.join(", ")} in this store; nothing was changed.`,
      {
        errors: Object.fromEntries(missing.map((id) => [String(id), ["Not found."]])),
      },
    );
  }
  const errors: FieldErrors = Object.create(null);
  entries.forEach((e, i) => {
    const row = current.get(e.id)!;
    if ((e.served_from_date ?? row.servedFromDate) > (e.served_to_date ?? row.servedToDate))
      errors[`items.${i}.served_from_date`] = ["Must not be after served_to_date."];
    if ((e.served_from_time ?? row.servedFromTime) > (e.served_to_time ?? row.servedToTime))
      errors[`items.${i}.served_from_time`] = ["Must not be after served_to_time."];
  });
  if (Object.keys(errors).length)
    throw ApiError.validation(errors, "Some entries do not fit what is stored; nothing was changed.");
  const at = nowIso();
  const guard = sql`(SELECT count(*) FROM items WHERE ${scope}) = ${ids.length}`;
  const { applied } = await emit(
    ctx.db,
    ctx.events,
    entries.map(({ id, ...fields }) =>
      ctx.db
        .update(items)
        .set({ ...columnsOf(fields), modifiedAt: at })
        .where(and(eq(items.id, id), guard)),
    ),
    entries.map((e) => newEvent(ctx.appId, "item.updated", { id: e.id })),
    { guard },
  );
  if (!applied)
    throw ApiError.conflict(
      "concurrent_update",
      "Some items were deleted while updating them; nothing was changed. Retry.",
    );
  const full = await loadItems(ctx.db, ctx.appId, ids);
  return { count: ids.length, results: ids.map((id) => full.get(id)!) };
}
