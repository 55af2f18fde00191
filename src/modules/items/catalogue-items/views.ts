import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { live } from "../../../core/crud/tenant-table";
import { toMajor } from "../../../core/money";
import { inList } from "../../../core/sql";
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
  itemReservations,
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

/**
 * Loads full Item objects (variants, modifiers, images, discount, stock, categories, bundle
 * categories) for `ids` in ONE D1 batch of a fixed number of statements, whatever the number of
 * ids. Soft-deleted items are included: tickets and orders that point at them still show them.
 */
export async function loadItems(db: Db, appId: number, ids: readonly number[]): Promise<Map<number, Item>> {
  const out = new Map<number, Item>();
  if (ids.length === 0) return out;
  const wanted = [...new Set(ids)];
  // The items and their live variants, as a subquery every statement of the batch reuses.
  const family = sql`(SELECT id FROM items WHERE app_id = ${appId} AND (${inList(sql`id`, wanted)}
      OR (${inList(sql`parent_id`, wanted)} AND is_deleted = 0)))`;
  const now = nowIso();
  const [
    itemRows,
    modLinks,
    categoryRows,
    valueRows,
    variantValues,
    categoryLinks,
    images,
    discounts,
    bundleLinks,
    holds,
    bundleRows,
  ] = await db.batch([
    db
      .select()
      .from(items)
      .where(and(eq(items.appId, appId), sql`${items.id} IN ${family}`))
      .orderBy(asc(items.ordering), asc(items.id)),
    db.select().from(itemModifierCategories).where(sql`${itemModifierCategories.itemId} IN ${family}`),
    db
      .select()
      .from(modifierCategories)
      .where(
        and(
          live(modifierCategories, appId),
          sql`${modifierCategories.id} IN (SELECT category_id FROM item_modifier_categories
              WHERE item_id IN ${family})`,
        ),
      ),
    db
      .select()
      .from(modifierValues)
      .where(
        and(
          live(modifierValues, appId),
          sql`${modifierValues.categoryId} IN (SELECT category_id FROM item_modifier_categories
              WHERE item_id IN ${family})`,
        ),
      )
      .orderBy(asc(modifierValues.ordering), asc(modifierValues.id)),
    db.select().from(variantModifierValues).where(sql`${variantModifierValues.itemId} IN ${family}`),
    db.select().from(itemCategoryLinks).where(sql`${itemCategoryLinks.itemId} IN ${family}`),
    db
      .select()
      .from(itemImages)
      .where(and(live(itemImages, appId), sql`${itemImages.itemId} IN ${family}`))
      .orderBy(asc(itemImages.ordering), asc(itemImages.id)),
    db.select().from(itemDiscounts).where(sql`${itemDiscounts.itemId} IN ${family}`),
    db.select().from(itemBundleCategories).where(sql`${itemBundleCategories.itemId} IN ${family}`),
    db
      .select({ itemId: itemReservations.itemId, held: sql<number>`sum(${itemReservations.qty})`.mapWith(Number) })
      .from(itemReservations)
      .where(
        and(
          sql`${itemReservations.itemId} IN ${family}`,
          isNull(itemReservations.consumedAt),
          gt(itemReservations.expiresAt, now),
        ),
      )
      .groupBy(itemReservations.itemId),
    db
      .select()
      .from(bundleCategories)
      .where(
        and(
          live(bundleCategories, appId),
          sql`${bundleCategories.id} IN (SELECT bundle_category_id FROM item_bundle_categories
              WHERE item_id IN ${family})`,
        ),
      ),
  ]);

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
    });
  }
  return out;
}
