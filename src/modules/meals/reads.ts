import { and, asc, type Column, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Loaded } from "../../core/cache";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { type Envelope, type ListSpec, listPage, searchColumns } from "../../core/listing";
import { inList } from "../../core/sql";
import {
  addDays,
  type Closures,
  isOpen,
  laterOf,
  nextMidnight,
  nextOpenDate,
  openDates,
  todayIn,
  weekdayOf,
} from "./dates";
import type { Menu, Plan } from "./schemas";
import {
  ALLERGEN_KINDS,
  allergens,
  combos,
  deliveryWindows,
  deliveryZones,
  menuCategories,
  menus,
  nutritions,
  planCategories,
  planDays,
  planOptions,
  plans,
  planTags,
  planVersions,
  products,
  REST_TYPES,
  restaurantBranches,
  restaurantCategories,
  restaurants,
  restaurantVariants,
  type SUBSCRIPTION_TYPES,
} from "./tables";
import {
  allergenView,
  type BranchRow,
  branchView,
  comboView,
  factsByProduct,
  menuCategoryRecordView,
  menuProductView,
  menuRecordView,
  planCategoryRecordView,
  planDayView,
  planOptionRecordView,
  planProductView,
  planSummaryView,
  planTagView,
  productDetailsView,
  type RestaurantRow,
  restaurantCategoryView,
  restaurantVariantView,
  restaurantView,
} from "./views";

/** The public reads of the meals side. Each runs a fixed number of statements, whatever the data's size. */

/** How far ahead a menu can be asked for. */
export const ORDER_HORIZON_DAYS = 90;

type Scoped = { appId: Column; isDeleted: Column };
/** The tenant's records that are not deleted. */
export const live = (t: Scoped, appId: number): SQL => and(eq(t.appId, appId), eq(t.isDeleted, false))!;

const liveRestaurant = (appId: number) => and(live(restaurants, appId), eq(restaurants.isActive, true))!;

// ---- restaurants ----

export const RESTAURANT_LIST: ListSpec = {
  fields: {
    id: { column: restaurants.id, kind: "integer" },
    name_en: { column: restaurants.nameEn, kind: "string" },
    name_ar: { column: restaurants.nameAr, kind: "string" },
    rest_type: { column: restaurants.restType, kind: "string", values: REST_TYPES },
    category_id: { column: restaurants.categoryId, kind: "integer", nullable: true },
    supports_pickup: { column: restaurants.supportsPickup, kind: "boolean" },
    supports_delivery: { column: restaurants.supportsDelivery, kind: "boolean" },
    ordering: { column: restaurants.ordering, kind: "integer" },
    created_at: { column: restaurants.createdAt, kind: "datetime" },
  },
  search: searchColumns(restaurants.nameEn, restaurants.nameAr, restaurants.subtitleEn, restaurants.subtitleAr),
  defaultOrder: "ordering",
  idColumn: restaurants.id,
};

async function withMainBranches(ctx: ServiceContext, rows: RestaurantRow[]) {
  if (!rows.length) return [];
  const mains = await ctx.db
    .select()
    .from(restaurantBranches)
    .where(
      and(
        live(restaurantBranches, ctx.appId),
        eq(restaurantBranches.isMain, true),
        inList(
          restaurantBranches.restaurantId,
          rows.map((r) => r.id),
        ),
      ),
    );
  return rows.map((r) =>
    restaurantView(
      r,
      mains.find((b) => b.restaurantId === r.id),
    ),
  );
}

/** List Restaurant, and On-Demand Restaurants (those whose `rest_type` serves on-demand orders). */
export async function listRestaurants(ctx: ServiceContext, url: URL, opts: { onDemand: boolean }) {
  const page = await listPage(ctx.db, url, RESTAURANT_LIST, {
    table: restaurants,
    scope: () =>
      opts.onDemand
        ? and(liveRestaurant(ctx.appId), inArray(restaurants.restType, ["on_demand", "both"]))!
        : liveRestaurant(ctx.appId),
  });
  return { ...page, results: await withMainBranches(ctx, page.results) };
}

async function activeRestaurant(ctx: ServiceContext, id: number): Promise<RestaurantRow> {
  const row = await ctx.db
    .select()
    .from(restaurants)
    .where(and(liveRestaurant(ctx.appId), eq(restaurants.id, id)))
    .get();
  if (!row) throw ApiError.notFound(`Restaurant ${id}`, "restaurant_not_found");
  return row;
}

/** Who sees what: the public only active records; the merchant's writes answer with inactive ones too. */
export type Audience = { activeOnly: boolean };

export async function getRestaurant(ctx: ServiceContext, id: number, audience: Audience = { activeOnly: true }) {
  const [rows, mains] = await ctx.db.batch([
    ctx.db
      .select()
      .from(restaurants)
      .where(
        and(audience.activeOnly ? liveRestaurant(ctx.appId) : live(restaurants, ctx.appId), eq(restaurants.id, id)),
      ),
    ctx.db
      .select()
      .from(restaurantBranches)
      .where(
        and(
          live(restaurantBranches, ctx.appId),
          eq(restaurantBranches.restaurantId, id),
          eq(restaurantBranches.isMain, true),
        ),
      ),
  ]);
  if (!rows[0]) throw ApiError.notFound(`Restaurant ${id}`, "restaurant_not_found");
  return restaurantView(rows[0], mains[0]);
}

export const BRANCH_LIST: ListSpec = {
  fields: {
    id: { column: restaurantBranches.id, kind: "integer" },
    name_en: { column: restaurantBranches.nameEn, kind: "string" },
    name_ar: { column: restaurantBranches.nameAr, kind: "string" },
    city_id: { column: restaurantBranches.cityId, kind: "integer" },
    is_main: { column: restaurantBranches.isMain, kind: "boolean" },
    supports_pickup: { column: restaurantBranches.supportsPickup, kind: "boolean" },
    ordering: { column: restaurantBranches.ordering, kind: "integer" },
  },
  search: searchColumns(restaurantBranches.nameEn, restaurantBranches.nameAr, restaurantBranches.address1),
  defaultOrder: "ordering",
  idColumn: restaurantBranches.id,
};

export async function listBranches(ctx: ServiceContext, url: URL, restaurantId: number) {
  await activeRestaurant(ctx, restaurantId);
  const page = await listPage(ctx.db, url, BRANCH_LIST, {
    table: restaurantBranches,
    scope: () => and(live(restaurantBranches, ctx.appId), eq(restaurantBranches.restaurantId, restaurantId))!,
  });
  return { ...page, results: page.results.map(branchView) };
}

const namedList = (
  t: { id: Column; nameEn: Column; nameAr: Column; ordering: Column },
  extra: ListSpec["fields"] = {},
): ListSpec => ({
  fields: {
    id: { column: t.id, kind: "integer" },
    name_en: { column: t.nameEn, kind: "string" },
    name_ar: { column: t.nameAr, kind: "string" },
    ordering: { column: t.ordering, kind: "integer" },
    ...extra,
  },
  search: searchColumns(t.nameEn, t.nameAr),
  defaultOrder: "ordering",
  idColumn: t.id,
});

export const RESTAURANT_CATEGORY_LIST = namedList(restaurantCategories);
export const ALLERGEN_LIST = namedList(allergens, {
  kind: { column: allergens.kind, kind: "string", values: ALLERGEN_KINDS },
});
export const RESTAURANT_VARIANT_LIST = namedList(restaurantVariants);

export async function listRestaurantCategories(ctx: ServiceContext, url: URL) {
  const page = await listPage(ctx.db, url, RESTAURANT_CATEGORY_LIST, {
    table: restaurantCategories,
    scope: () => live(restaurantCategories, ctx.appId),
  });
  return { ...page, results: page.results.map(restaurantCategoryView) };
}

export async function listAllergens(ctx: ServiceContext, url: URL) {
  const page = await listPage(ctx.db, url, ALLERGEN_LIST, {
    table: allergens,
    scope: () => live(allergens, ctx.appId),
  });
  return { ...page, results: page.results.map(allergenView) };
}

export async function listRestaurantVariants(ctx: ServiceContext, url: URL, restaurantId: number) {
  await activeRestaurant(ctx, restaurantId);
  const page = await listPage(ctx.db, url, RESTAURANT_VARIANT_LIST, {
    table: restaurantVariants,
    scope: () => and(live(restaurantVariants, ctx.appId), eq(restaurantVariants.restaurantId, restaurantId))!,
  });
  return { ...page, results: page.results.map(restaurantVariantView) };
}

// ---- products and combos ----

/** Products the public sees: live, active, of an active restaurant. */
const visibleProduct = (appId: number) =>
  and(
    live(products, appId),
    eq(products.isActive, true),
    sql`${products.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(appId)})`,
  )!;

const nutritionsOf = (ctx: ServiceContext, productIds: SQL) =>
  ctx.db
    .select()
    .from(nutritions)
    .where(and(live(nutritions, ctx.appId), sql`${nutritions.productId} IN (${productIds})`))
    .orderBy(asc(nutritions.ordering), asc(nutritions.id));

export const PRODUCT_LIST: ListSpec = namedList(products, {
  restaurant_id: { column: products.restaurantId, kind: "integer" },
  category_id: { column: products.categoryId, kind: "integer", nullable: true },
  original_price: { column: products.priceMinor, kind: "money" },
});

async function productPage(
  ctx: ServiceContext,
  url: URL,
  scope: SQL,
): Promise<Envelope<ReturnType<typeof productDetailsView>>> {
  const page = await listPage(ctx.db, url, PRODUCT_LIST, { table: products, scope: () => scope });
  const ids = page.results.map((p) => p.id);
  const facts = ids.length ? await nutritionsOf(ctx, sql`SELECT value FROM json_each(${JSON.stringify(ids)})`) : [];
  const byProduct = factsByProduct(facts);
  return { ...page, results: page.results.map((p) => productDetailsView(p, byProduct)) };
}

export async function getProduct(ctx: ServiceContext, id: number, audience: Audience = { activeOnly: true }) {
  const [rows, facts] = await ctx.db.batch([
    ctx.db
      .select()
      .from(products)
      .where(and(audience.activeOnly ? visibleProduct(ctx.appId) : live(products, ctx.appId), eq(products.id, id))),
    nutritionsOf(ctx, sql`${id}`),
  ]);
  if (!rows[0]) throw ApiError.notFound(`Product ${id}`, "product_not_found");
  return productDetailsView(rows[0], factsByProduct(facts));
}

/** Wallet Credit Products: the products that sell store credit. */
export async function listWalletCreditProducts(ctx: ServiceContext, url: URL) {
  return productPage(ctx, url, and(visibleProduct(ctx.appId), sql`${products.walletCreditMinor} IS NOT NULL`)!);
}

/** Product Variants List: the restaurant's variants that the product names in `variant`. */
export async function listProductVariants(ctx: ServiceContext, url: URL, productId: number) {
  const product = await ctx.db
    .select()
    .from(products)
    .where(and(visibleProduct(ctx.appId), eq(products.id, productId)))
    .get();
  if (!product) throw ApiError.notFound(`Product ${productId}`, "product_not_found");
  const page = await listPage(ctx.db, url, RESTAURANT_VARIANT_LIST, {
    table: restaurantVariants,
    scope: () =>
      and(
        live(restaurantVariants, ctx.appId),
        eq(restaurantVariants.restaurantId, product.restaurantId),
        inList(restaurantVariants.nameEn, product.variant),
      )!,
  });
  return { ...page, results: page.results.map(restaurantVariantView) };
}

export async function getCombo(ctx: ServiceContext, id: number) {
  const comboProducts = sql`SELECT value FROM ${combos}, json_each(${combos.productIds}) WHERE ${combos.id} = ${id} AND ${combos.appId} = ${ctx.appId}`;
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
  if (!rows[0]) throw ApiError.notFound(`Combo ${id}`, "combo_not_found");
  return comboView(rows[0], new Map(items.map((p) => [p.id, p])), factsByProduct(facts));
}

// ---- menus ----

type MenuParts = { restaurant: RestaurantRow; menu: typeof menus.$inferSelect };

/** A menu with everything it shows, in one batch: the menu is named by id, or as a restaurant's on-demand menu. */
async function loadMenu(ctx: ServiceContext, by: { menuId: number } | { restaurantId: number }) {
  const menuId =
    "menuId" in by
      ? sql`${by.menuId}`
      : sql`(SELECT ${restaurants.menuId} FROM ${restaurants} WHERE ${restaurants.id} = ${by.restaurantId} AND ${restaurants.appId} = ${ctx.appId})`;
  const restaurantId =
    "restaurantId" in by
      ? sql`${by.restaurantId}`
      : sql`(SELECT ${menus.restaurantId} FROM ${menus} WHERE ${menus.id} = ${by.menuId} AND ${menus.appId} = ${ctx.appId})`;
  const categoryIds = sql`SELECT id FROM ${menuCategories} WHERE ${menuCategories.menuId} = ${menuId} AND ${menuCategories.appId} = ${ctx.appId}`;
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
      sql`SELECT id FROM ${products} WHERE ${products.restaurantId} = ${restaurantId} AND ${products.appId} = ${ctx.appId}`,
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

/** The menu as served on `orderDate` (products off that weekday are left out), or whole when null. */
function menuView(parts: MenuParts & Omit<LoadedMenu, "restaurant" | "menu">, orderDate: string | null): Menu {
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
 */
export async function restaurantMenu(
  ctx: ServiceContext,
  restaurantId: number,
  orderDate: string | undefined,
): Promise<Loaded> {
  const loaded = await loadMenu(ctx, { restaurantId });
  const { restaurant, menu } = loaded;
  if (!restaurant) throw ApiError.notFound(`Restaurant ${restaurantId}`, "restaurant_not_found");
  if (!menu) throw new ApiError(404, "menu_not_set", `Restaurant ${restaurantId} has no on-demand menu yet.`);
  const today = todayIn(restaurant.timeZone);
  const horizon = addDays(today, ORDER_HORIZON_DAYS);
  const earliest = nextOpenDate(addDays(today, restaurant.startAfter), closures(restaurant));
  const bad = (message: string) =>
    ApiError.validation({ order_date: [message] }, "Invalid query parameters; see `errors`.");
  if (!earliest || earliest > horizon)
    throw new ApiError(
      409,
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
        `The restaurant is closed on ${orderDate} (${weekdayOf(orderDate)}); the next open date is ${nextOpenDate(orderDate, closures(restaurant))}.`,
      );
    }
    date = orderDate;
  }
  return { body: menuView({ ...loaded, restaurant, menu }, date), until: nextMidnight(restaurant.timeZone) };
}

/** Menu Details: a menu with every active category and product, for any date. */
export async function menuDetails(ctx: ServiceContext, menuId: number): Promise<Menu> {
  const loaded = await loadMenu(ctx, { menuId });
  if (!loaded.menu || !loaded.restaurant) throw ApiError.notFound(`Menu ${menuId}`, "menu_not_found");
  return menuView({ ...loaded, restaurant: loaded.restaurant, menu: loaded.menu }, null);
}

// ---- plans ----

export const PLAN_TAG_LIST: ListSpec = {
  fields: {
    id: { column: planTags.id, kind: "integer" },
    type_en: { column: planTags.typeEn, kind: "string" },
    tag_en: { column: planTags.tagEn, kind: "string" },
    ordering: { column: planTags.ordering, kind: "integer" },
  },
  search: searchColumns(planTags.tagEn, planTags.tagAr, planTags.typeEn, planTags.typeAr),
  defaultOrder: "ordering",
  idColumn: planTags.id,
};

export async function listPlanTags(ctx: ServiceContext, url: URL) {
  const page = await listPage(ctx.db, url, PLAN_TAG_LIST, { table: planTags, scope: () => live(planTags, ctx.appId) });
  return { ...page, results: page.results.map(planTagView) };
}

/** Plans the public sees: live, active, of an active restaurant. */
const visiblePlan = (appId: number) =>
  and(
    live(plans, appId),
    eq(plans.isActive, true),
    sql`${plans.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(appId)})`,
  )!;

export const PLAN_LIST: ListSpec = {
  fields: {
    id: { column: plans.id, kind: "integer" },
    name_en: { column: plans.nameEn, kind: "string" },
    ordering: { column: plans.ordering, kind: "integer" },
    avg_daily_meal_calories: { column: plans.avgDailyMealCalories, kind: "number" },
  },
  defaultOrder: "ordering",
  idColumn: plans.id,
};

export type PlanFilters = {
  restaurant_id?: number;
  tag_ids?: number[];
  subscription_type?: (typeof SUBSCRIPTION_TYPES)[number];
  gender?: string;
  supported_service?: string;
  is_featured?: boolean;
  is_marketplace_featured?: boolean;
  min_calories?: number;
  max_calories?: number;
  search?: string;
};

/** List Plans: the body filters; `page`, `page_size` and `order_by` in the query, as on every list. */
export async function listPlans(ctx: ServiceContext, url: URL, f: PlanFilters) {
  const conditions: SQL[] = [visiblePlan(ctx.appId)];
  if (f.restaurant_id !== undefined) conditions.push(eq(plans.restaurantId, f.restaurant_id));
  if (f.tag_ids?.length)
    conditions.push(
      sql`EXISTS (SELECT 1 FROM json_each(${plans.tagIds}) WHERE value IN (SELECT value FROM json_each(${JSON.stringify(f.tag_ids)})))`,
    );
  if (f.subscription_type !== undefined) conditions.push(eq(plans.subscriptionType, f.subscription_type));
  if (f.gender !== undefined) conditions.push(eq(plans.gender, f.gender));
  if (f.supported_service !== undefined) conditions.push(eq(plans.supportedService, f.supported_service));
  if (f.is_featured !== undefined) conditions.push(eq(plans.isFeatured, f.is_featured));
  if (f.is_marketplace_featured !== undefined)
    conditions.push(eq(plans.isMarketplaceFeatured, f.is_marketplace_featured));
  if (f.min_calories !== undefined) conditions.push(sql`${plans.avgDailyMealCalories} >= ${f.min_calories}`);
  if (f.max_calories !== undefined) conditions.push(sql`${plans.avgDailyMealCalories} <= ${f.max_calories}`);
  if (f.search !== undefined)
    conditions.push(searchColumns(plans.nameEn, plans.nameAr, plans.subtitleEn, plans.subtitleAr)(f.search).where);
  const page = await listPage(ctx.db, url, PLAN_LIST, { table: plans, scope: () => and(...conditions)! });
  if (!page.results.length) return { ...page, results: [] };
  const ids = JSON.stringify(page.results.map((p) => p.id));
  const [versions, tags, rs] = await ctx.db.batch([
    ctx.db
      .select()
      .from(planVersions)
      .where(and(live(planVersions, ctx.appId), sql`${planVersions.planId} IN (SELECT value FROM json_each(${ids}))`))
      .orderBy(asc(planVersions.ordering), asc(planVersions.id)),
    ctx.db
      .select()
      .from(planTags)
      .where(
        and(
          live(planTags, ctx.appId),
          sql`${planTags.id} IN (SELECT t.value FROM ${plans}, json_each(${plans.tagIds}) t WHERE ${plans.id} IN (SELECT value FROM json_each(${ids})))`,
        ),
      ),
    ctx.db
      .select()
      .from(restaurants)
      .where(
        and(
          live(restaurants, ctx.appId),
          sql`${restaurants.id} IN (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} IN (SELECT value FROM json_each(${ids})))`,
        ),
      ),
  ]);
  return {
    ...page,
    results: page.results.map((p) =>
      planSummaryView(p, {
        tags,
        versions: versions.filter((v) => v.planId === p.id),
        restaurant: rs.find((r) => r.id === p.restaurantId)!,
      }),
    ),
  };
}

/** A plan with every level of its tree, in one batch of nine statements, each selecting by plan. */
async function loadPlan(ctx: ServiceContext, planId: number) {
  const optionProducts = sql`SELECT ${planOptions.productId} FROM ${planOptions} WHERE ${planOptions.planId} = ${planId} AND ${planOptions.appId} = ${ctx.appId} AND ${planOptions.isDeleted} = 0`;
  const byPlan = <T extends Scoped & { planId: Column; ordering: Column; id: Column }>(t: T) =>
    and(live(t, ctx.appId), eq(t.planId, planId));
  const [planRows, versions, tags, rs, days, categories, options, items, facts] = await ctx.db.batch([
    ctx.db
      .select()
      .from(plans)
      .where(and(visiblePlan(ctx.appId), eq(plans.id, planId))),
    ctx.db
      .select()
      .from(planVersions)
      .where(byPlan(planVersions))
      .orderBy(asc(planVersions.ordering), asc(planVersions.id)),
    ctx.db
      .select()
      .from(planTags)
      .where(
        and(
          live(planTags, ctx.appId),
          sql`${planTags.id} IN (SELECT value FROM ${plans}, json_each(${plans.tagIds}) WHERE ${plans.id} = ${planId})`,
        ),
      ),
    ctx.db
      .select()
      .from(restaurants)
      .where(
        and(
          liveRestaurant(ctx.appId),
          sql`${restaurants.id} = (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${planId})`,
        ),
      ),
    ctx.db.select().from(planDays).where(byPlan(planDays)).orderBy(asc(planDays.repetitionCounter), asc(planDays.id)),
    ctx.db
      .select()
      .from(planCategories)
      .where(byPlan(planCategories))
      .orderBy(asc(planCategories.ordering), asc(planCategories.id)),
    ctx.db
      .select()
      .from(planOptions)
      .where(byPlan(planOptions))
      .orderBy(asc(planOptions.ordering), asc(planOptions.id)),
    ctx.db
      .select()
      .from(products)
      .where(and(live(products, ctx.appId), sql`${products.id} IN (${optionProducts})`)),
    nutritionsOf(ctx, optionProducts),
  ]);
  return {
    plan: planRows[0],
    versions,
    tags,
    restaurant: rs[0],
    days,
    categories,
    options,
    items,
    facts: factsByProduct(facts),
  };
}

/**
 * Plan Details. The version defaults to the plan's first; the start date to the earliest the
 * version allows: today (where the restaurant is) plus the plan's `start_after`, not before the
 * version's `min_start_date`, moved to the first delivery day. Delivery days skip the version's
 * off days, the restaurant's off days and its closed dates; `dates` holds `num_of_days` of them.
 */
export async function planDetails(
  ctx: ServiceContext,
  planId: number,
  q: { plan_version_id?: number; start_date?: string },
): Promise<Loaded> {
  const t = await loadPlan(ctx, planId);
  if (!t.plan || !t.restaurant) throw ApiError.notFound(`Plan ${planId}`, "plan_not_found");
  const { plan, restaurant } = t;
  const bad = (field: string, message: string) =>
    ApiError.validation({ [field]: [message] }, "Invalid query parameters; see `errors`.");

  if (!t.versions.length) throw new ApiError(409, "plan_has_no_versions", `Plan ${planId} has no version on sale yet.`);
  const version = q.plan_version_id === undefined ? t.versions[0]! : t.versions.find((v) => v.id === q.plan_version_id);
  if (!version)
    throw bad(
      "plan_version_id",
      `Not a version of plan ${planId}; its versions are ${t.versions.map((v) => v.id).join(", ")}.`,
    );

  const days: Closures = {
    offDays: [...new Set([...version.offDays, ...restaurant.offDays])],
    closedDates: restaurant.closedDates,
  };
  const today = todayIn(restaurant.timeZone);
  const earliest = nextOpenDate(laterOf(addDays(today, plan.startAfter), version.minStartDate), days);
  let start: string;
  if (q.start_date === undefined) {
    if (!earliest || earliest > version.maxStartDate) {
      throw new ApiError(
        409,
        "plan_version_closed",
        `Version ${version.id} can no longer start: its last start date is ${version.maxStartDate}.`,
      );
    }
    start = earliest;
  } else {
    start = q.start_date;
    const first = earliest && earliest <= version.maxStartDate ? earliest : null;
    if (!first)
      throw bad(
        "start_date",
        `Version ${version.id} can no longer start: its last start date is ${version.maxStartDate}.`,
      );
    if (start < first) throw bad("start_date", `Too early: the first start date is ${first}.`);
    if (start > version.maxStartDate)
      throw bad("start_date", `Too late: the last start date of version ${version.id} is ${version.maxStartDate}.`);
    if (!isOpen(start, days))
      throw bad(
        "start_date",
        `Not a delivery day (${weekdayOf(start)}${restaurant.closedDates.includes(start) ? ", closed" : ""}); the next is ${nextOpenDate(start, days)}.`,
      );
  }

  const productById = new Map(t.items.map((p) => [p.id, p]));
  const optionsOf = new Map<number, typeof t.options>();
  for (const o of t.options)
    if (productById.has(o.productId))
      (optionsOf.get(o.planCategoryId) ?? optionsOf.set(o.planCategoryId, []).get(o.planCategoryId)!).push(o);

  const body: Plan = {
    ...planSummaryView(plan, { tags: t.tags, versions: t.versions, restaurant }),
    start_date: start,
    plan_version_id: version.id,
    dates: openDates(start, version.numOfDays, days),
    masters: t.days.map((d) => ({
      ...planDayView(d),
      restaurant_name: restaurant.nameEn,
      plan_categories: t.categories
        .filter((c) => c.planDayId === d.id)
        .map((c) => ({
          ...planCategoryRecordView(c),
          options: (optionsOf.get(c.id) ?? []).map((o) => ({
            ...planOptionRecordView(o),
            product: planProductView(productById.get(o.productId)!, t.facts),
          })),
        })),
    })),
  };
  return { body, until: nextMidnight(restaurant.timeZone) };
}

// ---- channel providers ----

export type ProviderData = {
  restaurants: RestaurantRow[];
  branches: BranchRow[];
  zones: { id: number; restaurantId: number; cityId: number; polygon: [number, number][] }[];
  windows: { id: number; restaurantId: number; fromTime: string; toTime: string }[];
};

/** What List Channel Providers computes from: the tenant's active restaurants with their areas. Cached per tenant. */
export async function loadProviderData(ctx: ServiceContext): Promise<ProviderData> {
  const ofLive = (t: { restaurantId: Column }) =>
    sql`${t.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(ctx.appId)})`;
  const [rs, branches, zones, windows] = await ctx.db.batch([
    ctx.db
      .select()
      .from(restaurants)
      .where(liveRestaurant(ctx.appId))
      .orderBy(asc(restaurants.ordering), asc(restaurants.id)),
    ctx.db
      .select()
      .from(restaurantBranches)
      .where(and(live(restaurantBranches, ctx.appId), ofLive(restaurantBranches)))
      .orderBy(asc(restaurantBranches.ordering), asc(restaurantBranches.id)),
    ctx.db
      .select({
        id: deliveryZones.id,
        restaurantId: deliveryZones.restaurantId,
        cityId: deliveryZones.cityId,
        polygon: deliveryZones.polygon,
      })
      .from(deliveryZones)
      .where(and(live(deliveryZones, ctx.appId), ofLive(deliveryZones))),
    ctx.db
      .select({
        id: deliveryWindows.id,
        restaurantId: deliveryWindows.restaurantId,
        fromTime: deliveryWindows.fromTime,
        toTime: deliveryWindows.toTime,
      })
      .from(deliveryWindows)
      .where(and(live(deliveryWindows, ctx.appId), ofLive(deliveryWindows)))
      .orderBy(asc(deliveryWindows.fromTime)),
  ]);
  return { restaurants: rs, branches, zones, windows };
}
