import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, liveRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import {
  type ListParent,
  type ListQuery,
  type ListSpec,
  listPageWith,
  namedListSpec,
  type Page,
} from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { factsByProduct, menuCategoryRecordView, menuProductView, menuRecordView } from "../menus/views";
import { liveRestaurant } from "../restaurants/service";
import { menuCategories, menus, nutritions, products, restaurants } from "../tables";
import type { MenuAddOn, MenuOptionCategory, MenuSummary } from "./schemas";

/**
 * The customer app's menus (MM6). A menu is shown while it is live and its restaurant active; its
 * categories and products while they are live and active. Each read is one statement, the
 * menu's own check in it.
 */

/** A price less a percentage off, in minor units: the discount is rounded to the nearest unit, halves up. */
export const priceAfterDiscountMinor = (priceMinor: number, discountPercentage: number): number =>
  priceMinor - Math.round((priceMinor * discountPercentage) / 100);

const visibleMenu = (appId: number): SQL =>
  and(
    live(menus, appId),
    sql`${menus.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(appId)})`,
  )!;

export const MENU_LIST: ListSpec = namedListSpec(menus, {
  restaurant_id: { column: menus.restaurantId, kind: "integer" },
});

/** List Menus: the store's menus, each with its restaurant. */
export async function listMenus(ctx: ServiceContext, q: ListQuery): Promise<Page<MenuSummary>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: menus, scope: () => visibleMenu(ctx.appId) },
    (rows) => ({
      restaurants: rowsJson(
        restaurants,
        and(live(restaurants, ctx.appId), sql`${restaurants.id} IN (SELECT restaurant_id FROM ${rows})`)!,
      ),
    }),
  );
  const rs = decodeRows(restaurants, nested.restaurants);
  return {
    ...page,
    results: page.results.map((m) => {
      const r = rs.find((x) => x.id === m.restaurantId)!;
      return {
        ...menuRecordView(m),
        restaurant: { id: r.id, name_en: r.nameEn, name_ar: r.nameAr, logo: r.logo },
      };
    }),
  };
}

/** Whether the menu `menuId` (an id or a subquery giving one) is shown. */
export const menuShown = (ctx: ServiceContext, menuId: SQL) =>
  sql`EXISTS (SELECT 1 FROM ${menus} WHERE ${and(visibleMenu(ctx.appId), eq(menus.id, menuId))})`;

/** The shown menu a list is of: its 404 `menu_not_found` is checked in the list's own statement. */
const visibleMenuParent = (ctx: ServiceContext, menuId: number): ListParent => ({
  exists: menuShown(ctx, sql`${menuId}`),
  notFound: () => ApiError.notFound("menu_not_found", `Menu ${menuId}`),
});

/** The live, active categories of the menu: a subquery of their ids. */
const categoriesOf = (ctx: ServiceContext, menuId: number) =>
  sql`SELECT id FROM ${menuCategories} WHERE ${menuCategories.menuId} = ${menuId}
    AND ${liveRow(ctx.appId, menuCategories)} AND ${menuCategories.isActive} = 1`;

const shownProduct = (ctx: ServiceContext) => and(live(products, ctx.appId), eq(products.isActive, true))!;

const factsOf = (ctx: ServiceContext, productIds: SQL) =>
  rowsJson(nutritions, and(live(nutritions, ctx.appId), sql`${nutritions.productId} IN (${productIds})`)!, [
    asc(nutritions.ordering),
    asc(nutritions.id),
  ]);

export const ADD_ON_LIST: ListSpec = namedListSpec(products, {
  category_id: { column: products.categoryId, kind: "integer", nullable: true },
  original_price: { column: products.priceMinor, kind: "money" },
  is_special: { column: products.isSpecial, kind: "boolean" },
});

/**
 * Menu Add-Ons: what may be bought on top of a plan's meals, one by one: the menu's products that
 * are not plan meals (`is_sub` false), active and in stock, in its active categories.
 */
export async function listMenuAddOns(ctx: ServiceContext, menuId: number, q: ListQuery): Promise<Page<MenuAddOn>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    {
      table: products,
      parent: visibleMenuParent(ctx, menuId),
      scope: () =>
        and(
          shownProduct(ctx),
          eq(products.isSub, false),
          eq(products.inStock, true),
          sql`${products.categoryId} IN (${categoriesOf(ctx, menuId)})`,
        )!,
    },
    (rows) => ({ facts: factsOf(ctx, sql`SELECT id FROM ${rows}`) }),
  );
  const facts = factsByProduct(decodeRows(nutritions, nested.facts));
  return {
    ...page,
    results: page.results.map((p) => ({
      ...menuProductView(p, facts),
      price: toMajor(priceAfterDiscountMinor(p.priceMinor, p.discountPercentage)),
      is_special: p.isSpecial,
      off_days: p.offDays,
    })),
  };
}

export const OPTION_CATEGORY_LIST: ListSpec = namedListSpec(menuCategories, {
  is_sub: { column: menuCategories.isSub, kind: "boolean" },
});

/** Menu Options: the menu's active categories, each with its active products (sub and not). */
export const listMenuOptions = (ctx: ServiceContext, menuId: number, q: ListQuery) =>
  menuOptionsPage(ctx, sql`${menuId}`, visibleMenuParent(ctx, menuId), q);

/**
 * The categories of the menu `menuId` (an id, or a subquery giving one: a plan's menu), each with
 * its active products; `parent` checks the menu (and what leads to it) in the same statement.
 */
export async function menuOptionsPage(
  ctx: ServiceContext,
  menuId: SQL,
  parent: ListParent,
  q: ListQuery,
): Promise<Page<MenuOptionCategory>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    {
      table: menuCategories,
      parent,
      scope: () =>
        and(live(menuCategories, ctx.appId), eq(menuCategories.isActive, true), eq(menuCategories.menuId, menuId))!,
    },
    (rows) => {
      const productIds = sql`SELECT id FROM ${products} WHERE ${shownProduct(ctx)}
        AND ${products.categoryId} IN (SELECT id FROM ${rows})`;
      return {
        products: rowsJson(products, sql`${products.id} IN (${productIds})`, [
          asc(products.ordering),
          asc(products.id),
        ]),
        facts: factsOf(ctx, productIds),
      };
    },
  );
  const items = decodeRows(products, nested.products);
  const facts = factsByProduct(decodeRows(nutritions, nested.facts));
  return {
    ...page,
    results: page.results.map((c) => ({
      ...menuCategoryRecordView(c),
      products: items.filter((p) => p.categoryId === c.id).map((p) => menuProductView(p, facts)),
    })),
  };
}
