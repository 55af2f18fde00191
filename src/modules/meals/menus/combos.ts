import type { z } from "@hono/zod-openapi";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { nowIso } from "../../../core/time";
import { liveRestaurant } from "../restaurants/service";
import { bodyError, changed, insertedRow, write } from "../shared";
import { combos, products, restaurants } from "../tables";
import { menuCategoryRows } from "./categories";
import { nutritionsOf } from "./products";
import type { Combo, CreateComboSchema, UpdateComboSchema } from "./schemas";
import { menuRows } from "./service";
import { comboView, factsByProduct } from "./views";

/**
 * Combos: products sold together, in a menu category. Restaurant Menu offers one on a date only
 * when all its products are served that day. A change is the menu's (`menu.updated`).
 */

const comboRows = tenantTable(combos, { label: "Combo", notFound: "combo_not_found" });

/** Combo Details: an active combo of an active restaurant, with its products, in one batch. */
export async function getCombo(ctx: ServiceContext, id: number): Promise<Combo> {
  const comboProducts = sql`SELECT value FROM ${combos}, json_each(${combos.productIds}) WHERE ${combos.id} = ${id}
      AND ${combos.appId} = ${ctx.appId}`;
  const [rows, items, facts] = await ctx.db.batch([
    ctx.db
      .select()
      .from(combos)
      .where(
        and(
          live(combos, ctx.appId),
          eq(combos.id, id),
          eq(combos.isActive, true),
          sql`${combos.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(ctx.appId)})`,
        ),
      ),
    ctx.db
      .select()
      .from(products)
      .where(and(live(products, ctx.appId), sql`${products.id} IN (${comboProducts})`)),
    nutritionsOf(ctx, comboProducts),
  ]);
  if (!rows[0]) throw ApiError.notFound("combo_not_found", `Combo ${id}`);
  return comboView(rows[0], new Map(items.map((p) => [p.id, p])), factsByProduct(facts));
}

// ---- merchant writes ----

type ComboFields = z.infer<typeof UpdateComboSchema>;

/** The body's fields → the combo's columns (drizzle leaves the undefined ones out); the price in minor units. */
const comboColumns = (b: ComboFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  descriptionEn: b.description_en,
  descriptionAr: b.description_ar,
  image: b.image,
  priceMinor: b.price,
  discountPercentage: b.discount_percentage,
  isActive: b.is_active,
  productIds: b.product_ids,
  customFields: b.custom_fields,
  ordering: b.ordering,
});

/** The combo as the merchant sees it, inactive too. */
async function comboRecord(ctx: ServiceContext, id: number): Promise<Combo> {
  const combo = await comboRows.find(ctx, id);
  const ids = JSON.stringify(combo.productIds);
  const [items, facts] = await ctx.db.batch([
    ctx.db
      .select()
      .from(products)
      .where(and(live(products, ctx.appId), sql`${products.id} IN (SELECT value FROM json_each(${ids}))`)),
    nutritionsOf(ctx, sql`SELECT value FROM json_each(${ids})`),
  ]);
  return comboView(combo, new Map(items.map((p) => [p.id, p])), factsByProduct(facts));
}

/** A combo's products must be live products of its restaurant. */
async function checkComboProducts(ctx: ServiceContext, restaurantId: number, ids: number[] | undefined) {
  if (!ids) return;
  const unique = [...new Set(ids)];
  const found = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(and(live(products, ctx.appId), eq(products.restaurantId, restaurantId), inArray(products.id, unique)));
  const missing = unique.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw bodyError("product_ids", `Not products of the combo's restaurant: ${missing.join(", ")}.`);
}

/** The combo's restaurant is its menu category's. */
export async function createCombo(ctx: ServiceContext, categoryId: number, body: z.infer<typeof CreateComboSchema>) {
  const category = await menuCategoryRows.find(ctx, categoryId);
  const menu = await menuRows.find(ctx, category.menuId);
  await checkComboProducts(ctx, menu.restaurantId, body.product_ids);
  const [inserted] = await write(ctx, changed(ctx, "menu.updated", category.menuId), [
    comboRows.insert(ctx, {
      ...comboColumns(body),
      appId: ctx.appId,
      restaurantId: menu.restaurantId,
      categoryId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
      priceMinor: body.price,
      productIds: body.product_ids,
    }),
  ]);
  return comboRecord(ctx, insertedRow<typeof combos.$inferSelect>(inserted).id);
}

const menuOfCategory = async (ctx: ServiceContext, categoryId: number) =>
  (await menuCategoryRows.find(ctx, categoryId)).menuId;

export async function updateCombo(ctx: ServiceContext, id: number, body: ComboFields): Promise<Combo> {
  const combo = await comboRows.find(ctx, id);
  await checkComboProducts(ctx, combo.restaurantId, body.product_ids);
  await write(ctx, changed(ctx, "menu.updated", await menuOfCategory(ctx, combo.categoryId)), [
    comboRows.update(ctx, id, { ...comboColumns(body), modifiedAt: nowIso() }),
  ]);
  return comboRecord(ctx, id);
}

export async function deleteCombo(ctx: ServiceContext, id: number): Promise<void> {
  const combo = await comboRows.find(ctx, id);
  await write(ctx, changed(ctx, "menu.updated", await menuOfCategory(ctx, combo.categoryId)), [
    comboRows.softDelete(ctx, id),
  ]);
}
