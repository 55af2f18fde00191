import { and, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { notDeletedRow } from "../../../core/crud/tenant-table";
import { minorOfMajor } from "../../../core/money";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { itemBundleCategories, items } from "../tables";
import type { Item } from "./schemas";
import { assembleItems, fetchItemParts } from "./views";

/** What an order needs to know of an item (or variant) to price and validate a cart line. */
export type PricedItem = {
  id: number;
  parentId: number | null;
  /** Not deleted (a deleted item cannot be ordered, though old orders still show it). */
  isLive: boolean;
  type: string;
  isPlanOnly: boolean;
  /** Sold as a subscription (orders/subscriptions reads `planConfig` for its terms). */
  isPlanEnabled?: boolean;
  planConfig?: Record<string, unknown> | null;
  nameEn: string;
  nameAr: string;
  sku: string;
  /** Unit price after the item's own discount in force now (the trial price is for plans only). */
  unitPriceMinor: number;
  /** Units that can be sold now (on hand less live reservations). */
  available: number;
  servedFromDate: string;
  servedToDate: string;
  categoryIds: number[];
  /** The modifier values a line of this item may choose (those of its modifier categories). */
  modifierValueIds: Set<number>;
  bundleCategories: { id: number; isOptional: boolean; min: number; max: number; memberIds: Set<number> }[];
};

/** The items of a line list: each one's pricing facts, and its full record (a cart's view shows it). */
export type CatalogueFacts = { priced: Map<number, PricedItem>; items: Map<number, Item> };

/**
 * The items of a cart, for pricing: their full records (`loadItems`' statement), the flags a
 * customer view leaves out (deleted, parent), and which items each bundle category offers, in ONE
 * round trip whatever the number of lines. `ids` may be a subquery (the lines of a cart read in the
 * same round trip): the answer then takes the ids the caller read beside it.
 */
export async function readCatalogueFacts(
  ctx: ServiceContext,
  ids: readonly number[] | SQL,
): Promise<(wanted: readonly number[]) => CatalogueFacts> {
  const now = nowIso();
  const selected = Array.isArray(ids) ? inList(sql`item_id`, ids) : sql`item_id IN ${ids}`;
  const [parts, [rows, members]] = await Promise.all([
    fetchItemParts(ctx.db, ctx.appId, ids, now),
    ctx.db.batch([
      ctx.db
        .select({ id: items.id, parentId: items.parentId, isDeleted: items.isDeleted })
        .from(items)
        .where(
          and(eq(items.appId, ctx.appId), Array.isArray(ids) ? inList(items.id, ids) : sql`${items.id} IN ${ids}`),
        ),
      ctx.db
        .select({ categoryId: itemBundleCategories.bundleCategoryId, itemId: itemBundleCategories.itemId })
        .from(itemBundleCategories)
        .where(
          and(
            eq(itemBundleCategories.appId, ctx.appId),
            sql`${itemBundleCategories.bundleCategoryId} IN (SELECT bundle_category_id FROM item_bundle_categories
              WHERE ${selected})`,
            sql`${itemBundleCategories.itemId} IN (SELECT id FROM items WHERE ${notDeletedRow()})`,
          ),
        ),
    ]),
  ]);
  return (wanted) => {
    const loaded = assembleItems(parts, [...new Set(wanted)], now);
    return { priced: pricedItems(wanted, loaded, rows, members), items: loaded };
  };
}

/** The items of a cart, for pricing (`readCatalogueFacts`' pricing facts). */
export async function itemsForPricing(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, PricedItem>> {
  if (ids.length === 0) return new Map();
  return (await readCatalogueFacts(ctx, ids))(ids).priced;
}

function pricedItems(
  ids: readonly number[],
  loaded: Map<number, Item>,
  rows: { id: number; parentId: number | null; isDeleted: boolean }[],
  members: { categoryId: number; itemId: number }[],
): Map<number, PricedItem> {
  const out = new Map<number, PricedItem>();
  const flags = new Map(rows.map((r) => [r.id, r]));
  const membersOf = new Map<number, Set<number>>();
  for (const m of members) {
    const set = membersOf.get(m.categoryId) ?? new Set<number>();
    set.add(m.itemId);
    membersOf.set(m.categoryId, set);
  }
  for (const id of ids) {
    const item = loaded.get(id);
    const flag = flags.get(id);
    if (!item || !flag) continue;
    out.set(id, {
      id,
      parentId: flag.parentId,
      isLive: !flag.isDeleted,
      type: item.type,
      isPlanOnly: item.is_plan_only,
      isPlanEnabled: item.is_plan_enabled,
      planConfig: item.plan_config,
      nameEn: item.name_en,
      nameAr: item.name_ar,
      sku: item.sku,
      // Exact: the view's major units are minor units / 100.
      unitPriceMinor: minorOfMajor(item.discount.price_after_discount_no_trial) ?? 0,
      available: item.stock.qty,
      servedFromDate: item.served_from_date,
      servedToDate: item.served_to_date,
      categoryIds: item.categories,
      modifierValueIds: new Set(item.modifiers.flatMap((m) => m.values.map((v) => v.id))),
      bundleCategories: item.bundle_categories.map((b) => ({
        id: b.id,
        isOptional: b.is_optional,
        min: b.min_selections,
        max: b.max_selections,
        // A bundle never contains itself.
        memberIds: new Set([...(membersOf.get(b.id) ?? [])].filter((m) => m !== id)),
      })),
    });
  }
  return out;
}
