import { and, asc, type Column, type SQL, sql } from "drizzle-orm";
import { batchStatement, selectColumns } from "../../../core/batch-plan";
import { live, liveRow, liveRowOffIndex } from "../../../core/crud/tenant-table";
import { decodeRows, intLiteral, rowsJson } from "../../../core/json-rows";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { bundleCategoryView } from "../bundle-categories/service";
import { imageView } from "../images/service";
import { modifierValueView } from "../modifiers/service";
import {
  bundleCategories,
  itemBundleCategories,
  itemCategoryLinks,
  itemDiscounts,
  itemImages,
  itemModifierCategories,
  items,
  modifierCategories,
  modifierValues,
  variantModifierValues,
} from "../tables";
import type { Item, Variant } from "./schemas";

type ItemRow = typeof items.$inferSelect;
type DiscountRow = typeof itemDiscounts.$inferSelect;

function reduce(priceMinor: number, kind: "percentage" | "fixed", value: number): number {
  const off = kind === "percentage" ? Math.round((priceMinor * value) / 10_000) : value;
  return Math.max(0, priceMinor - off);
}

/** The spec's discount object, computed from the discount in force now (never stored). */
export function discountOf(priceMinor: number, d: DiscountRow | undefined, at = nowIso()) {
  const active = !!d && !d.isDeleted && (!d.startsAt || d.startsAt <= at) && (!d.endsAt || at < d.endsAt);
  if (!active || !d) {
    return {
      is_applied: false,
      is_trial_applied: false,
      is_usage_price: false,
      price_after_discount_no_trial: toMajor(priceMinor),
      price_after_discount: toMajor(priceMinor),
    };
  }
  const noTrial = reduce(priceMinor, d.kind, d.value);
  const trial = d.trialKind && d.trialValue !== null ? reduce(priceMinor, d.trialKind, d.trialValue) : null;
  return {
    is_applied: true,
    is_trial_applied: trial !== null,
    is_usage_price: d.isUsagePrice,
    price_after_discount_no_trial: toMajor(noTrial),
    price_after_discount: toMajor(trial ?? noTrial),
  };
}

/** Units on hand less those held by live reservations: what can still be sold. */
export function stockOf(onHand: number, held: number) {
  const qty = Math.max(0, onHand - held);
  return { in_stock: qty > 0, qty };
}

const group = <T, K>(rows: T[], key: (r: T) => K) => {
  const m = new Map<K, T[]>();
  for (const r of rows) {
    const list = m.get(key(r));
    if (list) list.push(r);
    else m.set(key(r), [r]);
  }
  return m;
};

/** The nested levels of full Items: each a JSON array built by SQLite (core/json-rows). */
type ItemParts = Record<(typeof ITEM_PARTS)[number], unknown>;
const ITEM_PARTS = [
  "items",
  "modLinks",
  "modCategories",
  "modValues",
  "variantValues",
  "categoryLinks",
  "images",
  "discounts",
  "bundleLinks",
  "holds",
  "bundles",
] as const;

/**
 * The ids of the items `ids` selects and of their live variants: two index lookups (an OR of the
 * two would scan the store's items). The store's columns are kept off their index (`+`): SQLite
 * would otherwise walk all the store's items by `items_app_idx`.
 */
function familyOf(appId: number, ids: SQL): SQL {
  const app = intLiteral(appId);
  return sql`SELECT id FROM items WHERE id IN ${ids} AND +app_id = ${app}
      UNION ALL SELECT id FROM items WHERE parent_id IN ${ids} AND ${liveRowOffIndex(app)}`;
}

/** The name of the set `itemFamily` defines, which `itemsJsonOfFamily` reads. */
const ITEM_FAMILY = "item_family";

/**
 * The items of `ids` and their live variants as a named set of the caller's statement (a list's
 * `with`, see `listPageWith`), for `itemsJsonOfFamily`: every part then reads the set, compiled
 * once, instead of repeating it as a subquery of its own.
 */
export function itemFamily(appId: number, ids: SQL): Record<string, SQL> {
  return { [ITEM_FAMILY]: familyOf(appId, ids) };
}

/**
 * Full Items (variants, modifiers, images, discount, stock, categories, bundle categories) of the
 * ids that `ids` selects (a subquery), as scalar subqueries of ONE statement: the caller puts them
 * in its own statement (a list's page, see `listPageWith`), then gives the row to `assembleItems`.
 */
export function itemsJson(appId: number, ids: SQL, now: string): Record<keyof ItemParts, SQL> {
  return itemParts(appId, sql`(${familyOf(appId, ids)})`, now);
}

/** `itemsJson` of the items in the statement's `itemFamily` set. */
export function itemsJsonOfFamily(appId: number, now: string): Record<keyof ItemParts, SQL> {
  return itemParts(appId, sql`(SELECT id FROM ${sql.identifier(ITEM_FAMILY)})`, now);
}

/** The parts of `itemsJson` for the items `family` selects (ids, a subquery). */
function itemParts(appId: number, family: SQL, now: string): Record<keyof ItemParts, SQL> {
  const ofFamily = (c: Column) => sql`${c} IN ${family}`;
  const modCategoryIds = sql`(SELECT category_id FROM item_modifier_categories WHERE item_id IN ${family})`;
  return {
    items: rowsJson(items, ofFamily(items.id), [asc(items.ordering), asc(items.id)]),
    modLinks: rowsJson(itemModifierCategories, ofFamily(itemModifierCategories.itemId)),
    modCategories: rowsJson(
      modifierCategories,
      and(live(modifierCategories, appId), sql`${modifierCategories.id} IN ${modCategoryIds}`)!,
    ),
    modValues: rowsJson(
      modifierValues,
      and(live(modifierValues, appId), sql`${modifierValues.categoryId} IN ${modCategoryIds}`)!,
      [asc(modifierValues.ordering), asc(modifierValues.id)],
    ),
    variantValues: rowsJson(variantModifierValues, ofFamily(variantModifierValues.itemId)),
    categoryLinks: rowsJson(itemCategoryLinks, ofFamily(itemCategoryLinks.itemId)),
    images: rowsJson(itemImages, and(live(itemImages, appId), ofFamily(itemImages.itemId))!, [
      asc(itemImages.ordering),
      asc(itemImages.id),
    ]),
    discounts: rowsJson(itemDiscounts, ofFamily(itemDiscounts.itemId)),
    bundleLinks: rowsJson(itemBundleCategories, ofFamily(itemBundleCategories.itemId)),
    holds: sql`(SELECT json_group_array(json_array(item_id, held)) FROM (SELECT item_id, sum(qty) AS held
        FROM item_reservations WHERE item_id IN ${family} AND consumed_at IS NULL AND expires_at > ${now}
        GROUP BY item_id))`,
    bundles: rowsJson(
      bundleCategories,
      and(
        live(bundleCategories, appId),
        sql`${bundleCategories.id} IN (SELECT bundle_category_id FROM item_bundle_categories
            WHERE item_id IN ${family})`,
      )!,
    ),
  };
}

/** The statement of `itemsJson` alone, for `ids` (a list, or a subquery), with `extra` scalar columns. */
function itemPartsQuery(appId: number, ids: readonly number[] | SQL, now: string, extra: Record<string, SQL>): SQL {
  const parts = itemsJson(
    appId,
    Array.isArray(ids) ? sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))` : (ids as SQL),
    now,
  );
  return sql`SELECT ${sql.join(
    [
      ...ITEM_PARTS.map((k) => sql`${parts[k]} AS ${sql.identifier(k)}`),
      ...Object.entries(extra).map(([k, v]) => sql`${v} AS ${sql.identifier(`x_${k}`)}`),
    ],
    sql`, `,
  )}`;
}

/** The parsed columns of `itemPartsQuery`'s row. */
function partsOfRow(
  row: Record<string, unknown> | undefined,
  extra: readonly string[],
): ItemParts & { extra: Record<string, unknown> } {
  const out = { extra: {} } as ItemParts & { extra: Record<string, unknown> };
  for (const k of ITEM_PARTS) out[k] = row?.[k] ? JSON.parse(String(row[k])) : [];
  for (const k of extra) out.extra[k] = row?.[`x_${k}`] ?? null;
  return out;
}

/**
 * The statement of `itemsJson` alone, for `ids` (a list, or a subquery: the items of a cart read in
 * the same round trip as the cart), and `extra` scalar columns, and its parsed columns.
 */
export async function fetchItemParts(
  db: Db,
  appId: number,
  ids: readonly number[] | SQL,
  now: string,
  extra: Record<string, SQL> = {},
): Promise<ItemParts & { extra: Record<string, unknown> }> {
  const row = await db.get<Record<string, string | number | null>>(itemPartsQuery(appId, ids, now, extra));
  return partsOfRow(row, Object.keys(extra));
}

/**
 * Full Items read inside a write's own batch, after its changes (`BatchPlan.read`, or `emit`'s
 * `after`), so that the write answers them without a round trip of its own: `statement` goes in
 * the batch, `items` reads its rows. Soft-deleted items are included, as in `loadItems`.
 */
export function itemsReadInBatch(db: Db, appId: number, ids: readonly number[] | SQL, extra: Record<string, SQL> = {}) {
  const now = nowIso();
  const names = [...ITEM_PARTS, ...Object.keys(extra).map((k) => `x_${k}`)];
  return {
    statement: batchStatement(db, itemPartsQuery(appId, ids, now, extra), selectColumns(names)),
    /** What the statement's rows answer: its `extra` columns, and the Items of `wanted`. */
    answer(rows: unknown) {
      const parts = partsOfRow((rows as Record<string, unknown>[])[0], Object.keys(extra));
      return { extra: parts.extra, items: (wanted: readonly number[]) => assembleItems(parts, wanted, now) };
    },
  };
}

/**
 * Item Details in one round trip: the live parent item `id` of the store, in full, or undefined
 * when there is none (a variant, another store's, deleted).
 */
export async function loadLiveItem(db: Db, appId: number, id: number): Promise<Item | undefined> {
  const now = nowIso();
  const parts = await fetchItemParts(db, appId, [id], now, {
    live: sql`(SELECT 1 FROM items WHERE id = ${id} AND ${liveRow(appId)} AND parent_id IS NULL)`,
  });
  return parts.extra.live === 1 ? assembleItems(parts, [id], now).get(id) : undefined;
}

/**
 * Loads full Item objects (variants, modifiers, images, discount, stock, categories, bundle
 * categories) for `ids` in ONE D1 statement, whatever the number of ids. Soft-deleted items are
 * included: tickets and orders that point at them still show them.
 */
export async function loadItems(db: Db, appId: number, ids: readonly number[]): Promise<Map<number, Item>> {
  if (ids.length === 0) return new Map();
  const wanted = [...new Set(ids)];
  const now = nowIso();
  return assembleItems(await fetchItemParts(db, appId, wanted, now), wanted, now);
}

/** The Items of `wanted` from the parts `itemsJson` fetched (parsed JSON), by id. */
export function assembleItems(parts: ItemParts, wanted: readonly number[], now: string): Map<number, Item> {
  const out = new Map<number, Item>();
  const itemRows = decodeRows(items, parts.items);
  const modLinks = decodeRows(itemModifierCategories, parts.modLinks);
  const categoryRows = decodeRows(modifierCategories, parts.modCategories);
  const valueRows = decodeRows(modifierValues, parts.modValues);
  const variantValues = decodeRows(variantModifierValues, parts.variantValues);
  const categoryLinks = decodeRows(itemCategoryLinks, parts.categoryLinks);
  const images = decodeRows(itemImages, parts.images);
  const discounts = decodeRows(itemDiscounts, parts.discounts);
  const bundleLinks = decodeRows(itemBundleCategories, parts.bundleLinks);
  const holds = ((parts.holds ?? []) as [number, number][]).map(([itemId, held]) => ({ itemId, held: Number(held) }));
  const bundleRows = decodeRows(bundleCategories, parts.bundles);

  const valuesByCategory = group(valueRows, (v) => v.categoryId);
  const categoriesById = new Map(categoryRows.map((c) => [c.id, c]));
  const modLinksByItem = group(modLinks, (l) => l.itemId);
  const variantValuesByItem = group(variantValues, (v) => v.itemId);
  const categoryLinksByItem = group(categoryLinks, (l) => l.itemId);
  const imagesByItem = group(images, (i) => i.itemId);
  const discountByItem = new Map(discounts.map((d) => [d.itemId, d]));
  const bundlesByItem = group(bundleLinks, (b) => b.itemId);
  const bundlesById = new Map(bundleRows.map((b) => [b.id, b]));
  const heldByItem = new Map(holds.map((h) => [h.itemId, h.held]));

  const base = (row: ItemRow, variesOn: number | null) => ({
    id: row.id,
    custom_fields: row.customFields ?? null,
    images: (imagesByItem.get(row.id) ?? []).map(imageView),
    discount: discountOf(row.priceMinor, discountByItem.get(row.id), now),
    stock: stockOf(row.stockQty, heldByItem.get(row.id) ?? 0),
    modifiers: (modLinksByItem.get(row.id) ?? [])
      .map((l) => categoriesById.get(l.categoryId))
      .filter((c) => c !== undefined)
      .sort((a, b) => a.ordering - b.ordering || a.id - b.id)
      .map((c) => ({
        id: c.id,
        ordering: c.ordering,
        name_en: c.nameEn,
        name_ar: c.nameAr,
        values: (valuesByCategory.get(c.id) ?? []).map(modifierValueView),
      })),
    varies_on: variesOn === null ? "" : String(variesOn),
    bundle_categories: (bundlesByItem.get(row.id) ?? [])
      .map((l) => bundlesById.get(l.bundleCategoryId))
      .filter((b) => b !== undefined)
      .sort((a, b) => a.ordering - b.ordering || a.id - b.id)
      .map(bundleCategoryView),
    plan_config: row.planConfig ?? null,
    off_days: row.offDays,
    off_dates: row.offDates,
    app_id: row.appId,
    ordering: row.ordering,
    type: row.type,
    service_type: row.serviceType,
    sku: row.sku,
    price: toMajor(row.priceMinor),
    name_en: row.nameEn,
    name_ar: row.nameAr,
    description_en: row.descriptionEn,
    description_ar: row.descriptionAr,
    is_plan_only: row.isPlanOnly,
    is_plan_enabled: row.isPlanEnabled,
    served_from_date: row.servedFromDate,
    served_to_date: row.servedToDate,
    served_from_time: row.servedFromTime,
    served_to_time: row.servedToTime,
    weight: row.weight,
  });

  const variantsByParent = group(
    itemRows.filter((r) => r.parentId !== null && !r.isDeleted),
    (r) => r.parentId,
  );
  const byId = new Map(itemRows.map((r) => [r.id, r]));
  for (const id of wanted) {
    const row = byId.get(id);
    if (!row) continue;
    const variants: Variant[] = (variantsByParent.get(row.id) ?? []).map((v) => ({
      ...base(v, row.variesOnId),
      variant_title_en: v.variantTitleEn ?? "",
      variant_title_ar: v.variantTitleAr ?? "",
      modifier_values: (variantValuesByItem.get(v.id) ?? []).map((x) => x.valueId).sort((a, b) => a - b),
    }));
    out.set(id, {
      ...base(row, row.variesOnId),
      variants,
      categories: (categoryLinksByItem.get(row.id) ?? []).map((l) => l.categoryId).sort((a, b) => a - b),
      modified_at: row.modifiedAt,
      is_deleted: row.isDeleted,
    });
  }
  return out;
}
