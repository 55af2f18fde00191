import type { z } from "@hono/zod-openapi";
import { and, asc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, refuseWhileUsed, softDeleted, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { nowIso } from "../../../core/time";
import { addDays, type Closures, isOpen, nextMidnight, nextOpenDate, todayIn, weekdayOf } from "../dates";
import { liveRestaurant, ownRestaurant } from "../restaurants/service";
import type { RestaurantRow } from "../restaurants/views";
import { changed, updatedRow, write, writeCreated } from "../shared";
import { combos, menuCategories, menus, plans, products, restaurants } from "../tables";
import { nutritionsOf } from "./products";
import type { CreateMenuSchema, Menu, UpdateMenuSchema } from "./schemas";
import { comboView, factsByProduct, menuCategoryRecordView, menuProductView, menuRecordView } from "./views";

/** Menus: Restaurant Menu and Menu Details, each read in one batch, and the merchant's writes. */

type MenuRow = typeof menus.$inferSelect;

export const menuRows = tenantTable(menus, { label: "Menu", notFound: "menu_not_found" });

/** How far ahead a menu can be asked for. */
export const ORDER_HORIZON_DAYS = 90;

/** A menu with everything it shows, in one batch: the menu is named by id, or as a restaurant's on-demand menu. */
async function loadMenu(ctx: ServiceContext, by: { menuId: number } | { restaurantId: number }) {
  const menuId =
    "menuId" in by
      ? sql`${by.menuId}`
      : sql`(SELECT ${restaurants.menuId} FROM ${restaurants} WHERE ${restaurants.id} = ${by.restaurantId}
          AND ${restaurants.appId} = ${ctx.appId})`;
  const restaurantId =
    "restaurantId" in by
      ? sql`${by.restaurantId}`
      : sql`(SELECT ${menus.restaurantId} FROM ${menus} WHERE ${menus.id} = ${by.menuId}
          AND ${menus.appId} = ${ctx.appId})`;
  const categoryIds = sql`SELECT id FROM ${menuCategories} WHERE ${menuCategories.menuId} = ${menuId}
      AND ${menuCategories.appId} = ${ctx.appId}`;
  const [rRows, mRows, categories, items, facts, comboRows] = await ctx.db.batch([
    ctx.db
      .select()
      .from(restaurants)
      .where(and(liveRestaurant(ctx.appId), sql`${restaurants.id} = ${restaurantId}`)),
    ctx.db
      .select()
      .from(menus)
      .where(and(live(menus, ctx.appId), sql`${menus.id} = ${menuId}`)),
    ctx.db
      .select()
      .from(menuCategories)
      .where(
        and(
          live(menuCategories, ctx.appId),
          eq(menuCategories.isActive, true),
          sql`${menuCategories.menuId} = ${menuId}`,
        ),
      )
      .orderBy(asc(menuCategories.ordering), asc(menuCategories.id)),
    ctx.db
      .select()
      .from(products)
      .where(
        and(live(products, ctx.appId), eq(products.isActive, true), sql`${products.restaurantId} = ${restaurantId}`),
      )
      .orderBy(asc(products.ordering), asc(products.id)),
    nutritionsOf(
      ctx,
      sql`SELECT id FROM ${products} WHERE ${products.restaurantId} = ${restaurantId}
          AND ${products.appId} = ${ctx.appId}`,
    ),
    ctx.db
      .select()
      .from(combos)
      .where(and(live(combos, ctx.appId), eq(combos.isActive, true), sql`${combos.categoryId} IN (${categoryIds})`))
      .orderBy(asc(combos.ordering), asc(combos.id)),
  ]);
  return { restaurant: rRows[0], menu: mRows[0], categories, items, facts: factsByProduct(facts), comboRows };
}

type LoadedMenu = Awaited<ReturnType<typeof loadMenu>>;
type MenuParts = Omit<LoadedMenu, "restaurant" | "menu"> & { restaurant: RestaurantRow; menu: MenuRow };

/** The menu as served on `orderDate` (products off that weekday are left out), or whole when null. */
function menuView(parts: MenuParts, orderDate: string | null): Menu {
  const weekday = orderDate ? weekdayOf(orderDate) : null;
  const served = parts.items.filter((p) => weekday === null || !p.offDays.includes(weekday));
  const servedById = new Map(served.map((p) => [p.id, p]));
  return {
    ...menuRecordView(parts.menu),
    categories: parts.categories.map((c) => ({
      ...menuCategoryRecordView(c),
      products: served.filter((p) => p.categoryId === c.id).map((p) => menuProductView(p, parts.facts)),
      // A combo is offered only when every product in it is served that day.
      combos: parts.comboRows
        .filter((k) => k.categoryId === c.id && k.productIds.every((id) => servedById.has(id)))
        .map((k) => comboView(k, servedById, parts.facts)),
    })),
    order_date: orderDate,
  };
}

const closures = (r: RestaurantRow): Closures => ({ offDays: r.offDays, closedDates: r.closedDates });

/**
 * Restaurant Menu: the on-demand menu for one order date. Without `order_date`, the first date
 * the restaurant takes orders for. A date in the past, before the restaurant's lead time
 * (`start_after`), beyond the horizon or on a day it is closed is a 400 naming the first good date.
 * The menu depends on today where the restaurant is: `validUntil` is when that day ends.
 */
export async function restaurantMenu(
  ctx: ServiceContext,
  restaurantId: number,
  orderDate: string | undefined,
): Promise<{ menu: Menu; validUntil: number }> {
  const loaded = await loadMenu(ctx, { restaurantId });
  const { restaurant, menu } = loaded;
  if (!restaurant) throw ApiError.notFound("restaurant_not_found", `Restaurant ${restaurantId}`);
  if (!menu) throw new ApiError(404, "menu_not_found", `Restaurant ${restaurantId} has no on-demand menu yet.`);
  const today = todayIn(restaurant.timeZone);
  const horizon = addDays(today, ORDER_HORIZON_DAYS);
  const earliest = nextOpenDate(addDays(today, restaurant.startAfter), closures(restaurant));
  const bad = (message: string) =>
    ApiError.validation({ order_date: [message] }, "Invalid query parameters; see `errors`.");
  if (!earliest || earliest > horizon)
    throw ApiError.conflict(
      "restaurant_closed",
      `Restaurant ${restaurantId} takes no orders in the next ${ORDER_HORIZON_DAYS} days.`,
    );
  let date = earliest;
  if (orderDate !== undefined) {
    if (orderDate < today) throw bad(`In the past: today is ${today} where the restaurant is.`);
    if (orderDate < earliest)
      throw bad(
        `Too early: the restaurant needs ${restaurant.startAfter} day(s) of notice; the first date is ${earliest}.`,
      );
    if (orderDate > horizon) throw bad(`Too far ahead: at most ${ORDER_HORIZON_DAYS} days, until ${horizon}.`);
    if (!isOpen(orderDate, closures(restaurant))) {
      throw bad(
        `The restaurant is closed on ${orderDate} (${weekdayOf(orderDate)}); ` +
          `the next open date is ${nextOpenDate(orderDate, closures(restaurant))}.`,
      );
    }
    date = orderDate;
  }
  return { menu: menuView({ ...loaded, restaurant, menu }, date), validUntil: nextMidnight(restaurant.timeZone) };
}

/** Menu Details: a menu with every active category and product, for any date. */
export async function menuDetails(ctx: ServiceContext, menuId: number): Promise<Menu> {
  const loaded = await loadMenu(ctx, { menuId });
  if (!loaded.menu || !loaded.restaurant) throw ApiError.notFound("menu_not_found", `Menu ${menuId}`);
  return menuView({ ...loaded, restaurant: loaded.restaurant, menu: loaded.menu }, null);
}

// ---- merchant writes ----

type MenuFields = z.infer<typeof UpdateMenuSchema>;

/** The body's fields → the menu's columns (drizzle leaves the undefined ones out). */
const menuColumns = (b: MenuFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  image: b.image,
  customFields: b.custom_fields,
  ordering: b.ordering,
});

export async function createMenu(ctx: ServiceContext, body: z.infer<typeof CreateMenuSchema>) {
  await ownRestaurant(ctx, body.restaurant_id);
  const inserted = await writeCreated<MenuRow>(
    ctx,
    "menu.created",
    menus,
    menuRows.insert(ctx, {
      ...menuColumns(body),
      appId: ctx.appId,
      restaurantId: body.restaurant_id,
      nameEn: body.name_en,
      nameAr: body.name_ar,
    }),
  );
  return menuRecordView(inserted);
}

export async function updateMenu(ctx: ServiceContext, id: number, body: MenuFields) {
  await menuRows.find(ctx, id);
  const [updated] = await write(ctx, changed(ctx, "menu.updated", id), [
    menuRows.update(ctx, id, { ...menuColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return menuRecordView(await updatedRow(ctx, menuRows, id, updated));
}

/** Refused while a restaurant serves it on demand or a plan uses it; its categories and combos go with it. */
export async function deleteMenu(ctx: ServiceContext, id: number): Promise<void> {
  await menuRows.find(ctx, id);
  const [servedBy, usedBy] = await ctx.db.batch([
    ctx.db
      .select({ id: restaurants.id })
      .from(restaurants)
      .where(and(live(restaurants, ctx.appId), eq(restaurants.menuId, id))),
    ctx.db
      .select({ id: plans.id })
      .from(plans)
      .where(and(live(plans, ctx.appId), eq(plans.menuId, id))),
  ]);
  const restaurantIds = servedBy.map((r) => r.id);
  const planIds = usedBy.map((p) => p.id);
  refuseWhileUsed(
    "menu_in_use",
    { restaurants: restaurantIds },
    `Restaurant ${restaurantIds[0]} serves this menu on demand; give it another menu first.`,
  );
  refuseWhileUsed(
    "menu_in_use",
    { plans: planIds },
    `Plans ${planIds.join(", ")} use this menu; give them another first.`,
  );
  const categoryIds = sql`SELECT id FROM ${menuCategories} WHERE ${menuCategories.menuId} = ${id}`;
  await write(ctx, changed(ctx, "menu.deleted", id), [
    menuRows.softDelete(ctx, id),
    ctx.db
      .update(combos)
      .set(softDeleted())
      .where(and(live(combos, ctx.appId), sql`${combos.categoryId} IN (${categoryIds})`)),
    // Its products stay (plans may offer them), out of any category.
    ctx.db
      .update(products)
      .set({ categoryId: null, modifiedAt: nowIso() })
      .where(and(live(products, ctx.appId), sql`${products.categoryId} IN (${categoryIds})`)),
    ctx.db
      .update(menuCategories)
      .set(softDeleted())
      .where(and(live(menuCategories, ctx.appId), eq(menuCategories.menuId, id))),
  ]);
}
