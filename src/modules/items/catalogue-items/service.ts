import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { listed, live, softDeleted } from "../../../core/crud/tenant-table";
import { ApiError, type FieldErrors } from "../../../core/errors";
import { emit, eventPayloadSql, newEvent, newEventId } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPageWith, mapPage, type Page, searchColumns } from "../../../core/listing";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { findItem, foundItem, itemRecords, itemRowRead } from "../shared";
import {
  bundleCategories,
  ITEM_TYPES,
  itemBundleCategories,
  itemCategories,
  itemCategoryLinks,
  itemModifierCategories,
  items,
  modifierCategories,
  modifierValues,
  SERVICE_TYPES,
  variantModifierValues,
} from "../tables";
import type { CreateItem, Item, UpdateItem } from "./schemas";
import { assembleItems, itemFamily, itemsJsonOfFamily, itemsReadInBatch, loadLiveItem } from "./views";

type ItemRow = typeof items.$inferSelect;

/** Items as lists show them: parents only, their variants embedded; deleted ones too on `include_deleted=true`. */
const listedParents = (appId: number, q: ListQuery) => and(listed(items, appId, q), isNull(items.parentId))!;

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
  sync: { modifiedAt: items.modifiedAt, softDeleted: true },
};

/** List Items: the count, the page and every nested level in one statement (one round trip). */
export async function listItems(ctx: ServiceContext, q: ListQuery): Promise<Page<Item>> {
  const now = nowIso();
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    {
      table: items,
      scope: () => listedParents(ctx.appId, q),
      with: (rows) => itemFamily(ctx.appId, sql`(SELECT id FROM ${rows})`),
    },
    () => itemsJsonOfFamily(ctx.appId, now),
  );
  const full = assembleItems(
    nested,
    page.results.map((r) => r.id),
    now,
  );
  return mapPage(page, (r) => full.get(r.id)!);
}

/** Item Details: the live item in full, in one round trip; 404 `item_not_found` otherwise. */
export async function getItem(ctx: ServiceContext, id: number): Promise<Item> {
  const item = await loadLiveItem(ctx.db, ctx.appId, id);
  if (!item) throw ApiError.notFound("item_not_found", `Item ${id}`);
  return item;
}

/**
 * The reads that `refuseBadReferences` checks, for one `db.batch` (with the item's own rows, on an
 * update): which ids the input names are the store's own live records, and which SKUs are taken.
 * `selfId` adds the updated item's stored `varies_on` category, which an update that leaves it out keeps.
 */
function referenceReads(ctx: ServiceContext, input: Partial<CreateItem>, selfId?: number) {
  const variantValues = (input.variants ?? []).flatMap((v) => v.modifier_values);
  const skus = [input.sku, ...(input.variants ?? []).map((v) => v.sku)].filter((s): s is string => !!s);
  const modifierIds = inList(modifierCategories.id, [
    ...(input.modifiers ?? []),
    ...(input.varies_on ? [input.varies_on] : []),
  ]);
  const storedVariesOn = sql`${modifierCategories.id} = (SELECT varies_on_id FROM items WHERE id = ${selfId ?? 0})`;
  return [
    ctx.db
      .select({ id: modifierCategories.id })
      .from(modifierCategories)
      .where(
        and(live(modifierCategories, ctx.appId), selfId === undefined ? modifierIds : or(modifierIds, storedVariesOn)),
      ),
    ctx.db
      .select({ id: itemCategories.id })
      .from(itemCategories)
      .where(and(live(itemCategories, ctx.appId), inList(itemCategories.id, input.categories ?? []))),
    ctx.db
      .select({ id: bundleCategories.id })
      .from(bundleCategories)
      .where(and(live(bundleCategories, ctx.appId), inList(bundleCategories.id, input.bundle_categories ?? []))),
    ctx.db
      .select({ id: modifierValues.id, categoryId: modifierValues.categoryId })
      .from(modifierValues)
      .where(and(live(modifierValues, ctx.appId), inList(modifierValues.id, variantValues))),
    ctx.db
      .select({ id: items.id, sku: items.sku })
      .from(items)
      .where(and(eq(items.appId, ctx.appId), inList(items.sku, skus))),
  ] as const;
}

type ReferenceRows = [
  { id: number }[],
  { id: number }[],
  { id: number }[],
  { id: number; categoryId: number }[],
  { id: number; sku: string }[],
];

/**
 * Checks that every id the input names is the store's own live record, and that variants use
 * values of the `varies_on` category; SKUs must be free. Throws 400 naming the fields, 409 for SKUs.
 */
function refuseBadReferences(input: Partial<CreateItem>, rows: ReferenceRows, ownSkus: string[] = []) {
  const [mods, cats, bundles, values, taken] = rows;
  const skus = [input.sku, ...(input.variants ?? []).map((v) => v.sku)].filter((s): s is string => !!s);
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
  const clash = taken.filter((t) => !ownSkus.includes(t.sku));
  if (clash.length)
    throw ApiError.conflict(
      "sku_taken",
      `SKU ${clash.map((c) => c.sku).join(", ")} is already used in this store (SKUs are never reused).`,
      { skus: clash.map((c) => c.sku) },
    );
}

const idBySku = (appId: number, sku: string): SQL =>
  sql`(SELECT id FROM items WHERE app_id = ${appId} AND sku = ${sku})`;

export function itemColumns(input: Partial<CreateItem>) {
  return {
    ...(input.type !== undefined && { type: input.type }),
    ...(input.service_type !== undefined && { serviceType: input.service_type }),
    ...(input.sku !== undefined && { sku: input.sku }),
    ...(input.price !== undefined && { priceMinor: input.price }),
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
        .set(softDeleted(at))
        .where(
          and(
            live(items, appId),
            sql`${items.parentId} = ${parentId}`,
            sql`${items.id} NOT IN (SELECT value FROM json_each(${JSON.stringify(variantIdsKept)}))`,
          ),
        ),
    );
    for (const v of input.variants) {
      const fields = {
        sku: v.sku,
        priceMinor: v.price,
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

/**
 * Create Item: the item, its links and its variants in one batch, with `item.created`, and the item
 * in full read at the batch's end: two round trips (the references, then the batch).
 */
export async function createItem(ctx: ServiceContext, input: CreateItem): Promise<Item> {
  refuseBadReferences(input, (await ctx.db.batch(referenceReads(ctx, input))) as ReferenceRows);
  const row = {
    appId: ctx.appId,
    ...itemColumns(input),
    type: input.type,
    serviceType: input.service_type,
    sku: input.sku,
    priceMinor: input.price,
    nameEn: input.name_en,
    nameAr: input.name_ar,
  };
  const eventId = newEventId();
  const created = idBySku(ctx.appId, input.sku);
  const shown = itemsReadInBatch(ctx.db, ctx.appId, created, { id: created });
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [ctx.db.insert(items).values(row), ...linkStatements(ctx, input.sku, row, input)],
    sql`SELECT ${eventId} AS id, app_id, 'item.created' AS type,
          ${eventPayloadSql("item.created", sql`${eventId}`, sql`app_id`, sql`json_object('id', id)`)} AS payload
        FROM items WHERE id = ${created}`,
    { after: [shown.statement] },
  );
  const answer = shown.answer(results.at(-1));
  const id = Number(answer.extra.id);
  return answer.items([id]).get(id)!;
}

/**
 * Update Item: any fields; `modifiers`, `categories`, `bundle_categories` and `variants` replace the
 * lists. Two round trips: the item, its variants and the references together, then the batch, which
 * reads the item in full at its end.
 */
export async function updateItem(ctx: ServiceContext, id: number, input: UpdateItem): Promise<Item> {
  const [rows, variants, ...references] = await ctx.db.batch([
    itemRowRead(ctx, id),
    ctx.db
      .select({ id: items.id, sku: items.sku })
      .from(items)
      .where(and(live(items, ctx.appId), eq(items.parentId, id))),
    ...referenceReads(ctx, { ...input, variants: input.variants }, id),
  ]);
  const current = foundItem(rows, id);
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
  refuseBadReferences(
    { ...merged, variants: input.variants, modifiers: input.modifiers },
    references as unknown as ReferenceRows,
    [current.sku, ...variants.map((v) => v.sku)],
  );
  const sku = input.sku ?? current.sku;
  const changes = [
    itemRecords.update(ctx, id, { ...itemColumns(input), modifiedAt: nowIso() }),
    ...linkStatements(
      ctx,
      sku,
      current,
      input,
      (input.variants ?? []).flatMap((v) => (v.id ? [v.id] : [])),
    ),
  ];
  const shown = itemsReadInBatch(ctx.db, ctx.appId, [id]);
  const { results } = await emit(ctx.db, ctx.events, changes, [newEvent(ctx.appId, "item.updated", { id })], {
    after: [shown.statement],
  });
  return shown.answer(results.at(-1)).items([id]).get(id)!;
}

/** Delete Item (soft): gone from lists and details; tickets and orders that point at it still show it. */
export async function deleteItem(ctx: ServiceContext, id: number): Promise<void> {
  await findItem(ctx, id);
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(items)
        .set(softDeleted())
        .where(and(eq(items.appId, ctx.appId), sql`(${items.id} = ${id} OR ${items.parentId} = ${id})`)),
    ],
    [newEvent(ctx.appId, "item.deleted", { id })],
  );
}
