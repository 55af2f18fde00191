import type { z } from "@hono/zod-openapi";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { literalEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { liveRestaurant } from "../restaurants/service";
import {
  bodyError,
  type Check,
  changed,
  createAndRead,
  findChecked,
  type ViewRead,
  write,
  writeAndRead,
} from "../shared";
import { combos, menuCategories, menus, type nutritions, products, restaurants } from "../tables";
import { menuCategoryRows } from "./categories";
import { nutritionsOf } from "./products";
import type { Combo, CreateComboSchema, UpdateComboSchema } from "./schemas";
import { comboView, factsByProduct } from "./views";

/**
 * Combos: products sold together, in a menu category. Restaurant Menu offers one on a date only
 * when all its products are served that day. A change is the menu's (`menu.updated`).
 */

const comboRows = tenantTable(combos, { label: "Combo", notFound: "combo_not_found" });
type ComboRow = typeof combos.$inferSelect;
type ProductRow = typeof products.$inferSelect;
type MenuCategoryRow = typeof menuCategories.$inferSelect;

/** The products of combo `id` (an id or a handle), as a subquery. */
const productsOfCombo = (ctx: ServiceContext, id: number | SQL) =>
  sql`SELECT value FROM ${combos}, json_each(${combos.productIds}) WHERE ${combos.id} = ${id}
      AND ${combos.appId} = ${ctx.appId}`;

/** Combo Details: an active combo of an active restaurant, with its products, in one batch. */
export async function getCombo(ctx: ServiceContext, id: number): Promise<Combo> {
  const comboProducts = productsOfCombo(ctx, id);
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

/**
 * The combo as the merchant sees it (inactive too), as reads of the write's batch: `id` is an id or
 * the handle of the combo the batch inserts.
 */
function comboRecord(ctx: ServiceContext, id: number | SQL): ViewRead<Combo> {
  return {
    reads: [
      ctx.db
        .select()
        .from(combos)
        .where(and(live(combos, ctx.appId), eq(combos.id, id))),
      ctx.db
        .select()
        .from(products)
        .where(and(live(products, ctx.appId), sql`${products.id} IN (${productsOfCombo(ctx, id)})`)),
      nutritionsOf(ctx, productsOfCombo(ctx, id)),
    ],
    view: (results) => {
      const [rows, items, facts] = results as [ComboRow[], ProductRow[], (typeof nutritions.$inferSelect)[]];
      if (!rows[0]) throw ApiError.notFound("combo_not_found", `Combo ${typeof id === "number" ? id : ""}`.trim());
      return comboView(rows[0], new Map(items.map((p) => [p.id, p])), factsByProduct(facts));
    },
  };
}

/** A combo's products must be live products of its restaurant (an id or a subquery): a check of the write's reads. */
function comboProductsCheck<Record>(
  ctx: ServiceContext,
  restaurantId: SQL,
  ids: number[] | undefined,
): Check<Record> | undefined {
  if (!ids) return undefined;
  const unique = [...new Set(ids)];
  return {
    read: ctx.db
      .select({ id: products.id })
      .from(products)
      .where(
        and(live(products, ctx.appId), sql`${products.restaurantId} = ${restaurantId}`, inArray(products.id, unique)),
      ),
    refuse: (found: { id: number }[]) => {
      const missing = unique.filter((id) => !found.some((f) => f.id === id));
      if (missing.length)
        throw bodyError("product_ids", `Not products of the combo's restaurant: ${missing.join(", ")}.`);
    },
  };
}

/**
 * The live menu category of combo `id`, whose menu a combo's change is: a check of the write's
 * reads that answers the menu's id (`menuId()`), or refuses with the category's 404.
 */
function categoryMenu(ctx: ServiceContext, categoryId: SQL) {
  let menuId: number | undefined;
  const check: Check<ComboRow> = {
    read: ctx.db
      .select({ menuId: menuCategories.menuId })
      .from(menuCategories)
      .where(and(live(menuCategories, ctx.appId), sql`${menuCategories.id} = ${categoryId}`)),
    refuse: ([category]: { menuId: number }[], combo) => {
      if (!category) throw ApiError.notFound("menu_category_not_found", `Menu category ${combo.categoryId}`);
      menuId = category.menuId;
    },
  };
  return { check, menuId: () => menuId! };
}

/** The combo's restaurant is its menu category's; its category, menu and products are read in one round trip. */
export async function createCombo(ctx: ServiceContext, categoryId: number, body: z.infer<typeof CreateComboSchema>) {
  const menuOfCategory = sql`(SELECT ${menuCategories.menuId} FROM ${menuCategories} WHERE ${menuCategories.id} = ${categoryId})`;
  let restaurantId = 0;
  const category = await findChecked(ctx, menuCategoryRows, categoryId, [
    {
      read: ctx.db
        .select({ restaurantId: menus.restaurantId })
        .from(menus)
        .where(and(live(menus, ctx.appId), sql`${menus.id} = ${menuOfCategory}`)),
      refuse: ([menu]: { restaurantId: number }[], c: MenuCategoryRow) => {
        if (!menu) throw ApiError.notFound("menu_not_found", `Menu ${c.menuId}`);
        restaurantId = menu.restaurantId;
      },
    },
    comboProductsCheck(
      ctx,
      sql`(SELECT ${menus.restaurantId} FROM ${menus} WHERE ${menus.id} = ${menuOfCategory})`,
      body.product_ids,
    ),
  ]);
  return createAndRead(
    ctx,
    comboRows.insert(ctx, {
      ...comboColumns(body),
      appId: ctx.appId,
      restaurantId,
      categoryId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
      priceMinor: body.price,
      productIds: body.product_ids,
    }),
    () => literalEvent(ctx.appId, "menu.updated", { id: category.menuId }),
    (id) => comboRecord(ctx, id),
  );
}

/** What a change of combo `id` reads first: the combo, its category's menu, the products the body names. */
async function findCombo(ctx: ServiceContext, id: number, productIds: number[] | undefined) {
  const ofCombo = (column: SQLiteColumn) => sql`(SELECT ${column} FROM ${combos} WHERE ${combos.id} = ${id})`;
  const menu = categoryMenu(ctx, ofCombo(combos.categoryId));
  await findChecked(ctx, comboRows, id, [
    menu.check,
    comboProductsCheck(ctx, ofCombo(combos.restaurantId), productIds),
  ]);
  return menu.menuId();
}

export async function updateCombo(ctx: ServiceContext, id: number, body: ComboFields): Promise<Combo> {
  const menuId = await findCombo(ctx, id, body.product_ids);
  return writeAndRead(
    ctx,
    changed(ctx, "menu.updated", menuId),
    [comboRows.update(ctx, id, { ...comboColumns(body), modifiedAt: nowIso() })],
    comboRecord(ctx, id),
  );
}

export async function deleteCombo(ctx: ServiceContext, id: number): Promise<void> {
  const menuId = await findCombo(ctx, id, undefined);
  await write(ctx, changed(ctx, "menu.updated", menuId), [comboRows.softDelete(ctx, id)]);
}
