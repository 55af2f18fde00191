import type { z } from "@hono/zod-openapi";
import { and, type Column, eq, inArray, max, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { toMinor } from "../../core/money";
import { insertedId } from "../../core/sql";
import { nowIso } from "../../core/time";
import type { EventType } from "../../events/catalogue";
import { type EventMessage, emit, insertedRowEvent, newEvent } from "../../events/outbox";
import { getProduct, getRestaurant, live } from "./reads";
import type * as S from "./schemas";
import {
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
  restaurantBranches,
  restaurantCategories,
  restaurants,
  restaurantVariants,
} from "./tables";
import {
  allergenView,
  branchView,
  comboView,
  factsByProduct,
  menuCategoryRecordView,
  menuRecordView,
  planCategoryRecordView,
  planDayView,
  planOptionRecordView,
  planSummaryView,
  planTagView,
  planVersionRecordView,
  restaurantCategoryView,
  restaurantVariantView,
} from "./views";

/**
 * The merchant writes of the meals side. Each checks that what it names is the tenant's, lands in
 * one D1 batch, and returns the record as the reads show it. The router invalidates the cached
 * public reads after every successful write. A record in the path that is missing is a 404; one
 * named in the body is a 400 on that field. Deletes are soft; a delete that would leave live
 * records pointing at nothing is a 409 that names them.
 */

type Input<T extends z.ZodType> = z.infer<T>;
type Stmt = BatchItem<"sqlite">;

/**
 * Writes the statements and the outbox rows of their events in one batch (see `emit`); returns the
 * statements' results. `events` are the events, or a SELECT of the one a created row makes.
 */
async function write(ctx: ServiceContext, events: EventMessage[] | SQL, statements: Stmt[]): Promise<unknown[]> {
  return (await emit(ctx.db, ctx.events, statements, events)).results;
}
const changed = (ctx: ServiceContext, type: EventType, id: number) => [newEvent(ctx.appId, type, { id })];
const minor = (major: number) => toMinor(major)!;
const deleted = () => {
  const at = nowIso();
  return { isDeleted: true, deletedAt: at, modifiedAt: at };
};
const bodyError = (field: string, message: string) => ApiError.validation({ [field]: [message] });

/** Copies the defined fields of `input` to column names: `{ name_en: "x" }` → `{ nameEn: "x" }`. */
type ColumnMap = Record<string, string | ((v: never) => Record<string, unknown>)>;
function columns(input: object, map: ColumnMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    const to = map[k];
    if (to === undefined) continue;
    if (typeof to === "function") Object.assign(out, to(v as never));
    else out[to] = v;
  }
  return out;
}

type LiveTable = SQLiteTable & Parameters<typeof live>[0] & { id: Column };

/** The tenant's live record `id` of `table`, or a 404 saying what was not found. */
async function findLive<T extends LiveTable>(
  ctx: ServiceContext,
  table: T,
  id: number,
  what: string,
  code: string,
): Promise<T["$inferSelect"]> {
  const row = await ctx.db
    .select()
    .from(table as SQLiteTable)
    .where(and(live(table, ctx.appId), eq(table.id, id)))
    .get();
  if (!row) throw ApiError.notFound(what, code);
  return row as T["$inferSelect"];
}

/** A restaurant named in a body must be one of the store's (a 400 on `restaurant_id`, as for an id that does not exist). */
async function ownRestaurant(ctx: ServiceContext, id: number): Promise<void> {
  const r = await ctx.db
    .select({ id: restaurants.id })
    .from(restaurants)
    .where(and(live(restaurants, ctx.appId), eq(restaurants.id, id)))
    .get();
  if (!r) throw bodyError("restaurant_id", "No such restaurant in this store.");
}

// ---- restaurants ----

const restaurantColumns = {
  name_en: "nameEn",
  name_ar: "nameAr",
  subtitle_en: "subtitleEn",
  subtitle_ar: "subtitleAr",
  description_en: "descriptionEn",
  description_ar: "descriptionAr",
  logo: "logo",
  banner: "banner",
  rest_type: "restType",
  category_id: "categoryId",
  start_after: "startAfter",
  store_start_after: "storeStartAfter",
  is_active: "isActive",
  primary_color: "primaryColor",
  secondary_color: "secondaryColor",
  closed_dates: "closedDates",
  off_days: "offDays",
  supports_pickup: "supportsPickup",
  supports_delivery: "supportsDelivery",
  delivery_by_platform: "deliveryByPlatform",
  time_zone: "timeZone",
  menu_id: "menuId",
  custom_fields: "customFields",
  ordering: "ordering",
} as const;

const findRestaurant = (ctx: ServiceContext, id: number) =>
  findLive(ctx, restaurants, id, `Restaurant ${id}`, "restaurant_not_found");

/** The records as the merchant sees them: inactive ones too. */
const merchantView = { activeOnly: false };
const restaurantRecord = (ctx: ServiceContext, id: number) => getRestaurant(ctx, id, merchantView);

async function checkRestaurantRefs(
  ctx: ServiceContext,
  id: number | null,
  input: { category_id?: number | null; menu_id?: number | null },
) {
  if (input.category_id != null) {
    const c = await ctx.db
      .select({ id: restaurantCategories.id })
      .from(restaurantCategories)
      .where(and(live(restaurantCategories, ctx.appId), eq(restaurantCategories.id, input.category_id)))
      .get();
    if (!c) throw bodyError("category_id", "No such restaurant category in this store.");
  }
  if (input.menu_id != null) {
    const m = await ctx.db
      .select({ restaurantId: menus.restaurantId })
      .from(menus)
      .where(and(live(menus, ctx.appId), eq(menus.id, input.menu_id)))
      .get();
    if (!m || m.restaurantId !== id) throw bodyError("menu_id", "Must be a menu of this restaurant.");
  }
}

/** Replaces the delivery windows and zones given, in the same batch as the restaurant's change. */
function areaStatements(
  ctx: ServiceContext,
  restaurantId: number | SQL,
  input: Pick<Input<typeof S.UpdateRestaurantSchema>, "delivery_windows" | "delivery_zones">,
  replace: boolean,
): Stmt[] {
  const out: Stmt[] = [];
  if (input.delivery_windows) {
    if (replace)
      out.push(
        ctx.db
          .update(deliveryWindows)
          .set(deleted())
          .where(and(live(deliveryWindows, ctx.appId), eq(deliveryWindows.restaurantId, restaurantId as number))),
      );
    for (const [i, w] of input.delivery_windows.entries()) {
      out.push(
        ctx.db.insert(deliveryWindows).values({
          appId: ctx.appId,
          restaurantId: restaurantId as number,
          fromTime: w.from_time,
          toTime: w.to_time,
          ordering: i,
        }),
      );
    }
  }
  if (input.delivery_zones) {
    if (replace)
      out.push(
        ctx.db
          .update(deliveryZones)
          .set(deleted())
          .where(and(live(deliveryZones, ctx.appId), eq(deliveryZones.restaurantId, restaurantId as number))),
      );
    for (const [i, z] of input.delivery_zones.entries()) {
      out.push(
        ctx.db.insert(deliveryZones).values({
          appId: ctx.appId,
          restaurantId: restaurantId as number,
          cityId: z.city_id,
          nameEn: z.name_en ?? "",
          polygon: z.polygon,
          ordering: i,
        }),
      );
    }
  }
  return out;
}

export async function createRestaurant(ctx: ServiceContext, input: Input<typeof S.CreateRestaurantSchema>) {
  await checkRestaurantRefs(ctx, null, input);
  const values = { appId: ctx.appId, ...columns(input, restaurantColumns) } as typeof restaurants.$inferInsert;
  const [inserted] = (await write(ctx, insertedRowEvent("restaurant.created", restaurants), [
    ctx.db.insert(restaurants).values(values).returning({ id: restaurants.id }),
    ...areaStatements(ctx, insertedId(restaurants), input, false),
  ])) as [{ id: number }[]];
  return restaurantRecord(ctx, inserted[0]!.id);
}

export async function updateRestaurant(ctx: ServiceContext, id: number, input: Input<typeof S.UpdateRestaurantSchema>) {
  await findRestaurant(ctx, id);
  await checkRestaurantRefs(ctx, id, input);
  const set = { ...columns(input, restaurantColumns), modifiedAt: nowIso() };
  await write(ctx, changed(ctx, "restaurant.updated", id), [
    ctx.db.update(restaurants).set(set).where(eq(restaurants.id, id)),
    ...areaStatements(ctx, id, input, true),
  ]);
  return restaurantRecord(ctx, id);
}

/** Refused while live plans sell the restaurant's meals; otherwise its branches, areas, menus and products go with it. */
export async function deleteRestaurant(ctx: ServiceContext, id: number) {
  await findRestaurant(ctx, id);
  const users = await ctx.db
    .select({ id: plans.id })
    .from(plans)
    .where(and(live(plans, ctx.appId), eq(plans.restaurantId, id)));
  if (users.length) {
    const ids = users.map((p) => p.id);
    throw ApiError.conflict(
      "restaurant_in_use",
      `Plans ${ids.join(", ")} sell this restaurant's meals; delete them first.`,
      { plans: ids },
    );
  }
  const of = (t: Parameters<typeof live>[0] & { restaurantId: Column }) =>
    and(live(t, ctx.appId), eq(t.restaurantId, id));
  await write(ctx, changed(ctx, "restaurant.deleted", id), [
    ctx.db.update(restaurants).set(deleted()).where(eq(restaurants.id, id)),
    ctx.db.update(restaurantBranches).set(deleted()).where(of(restaurantBranches)),
    ctx.db.update(deliveryZones).set(deleted()).where(of(deliveryZones)),
    ctx.db.update(deliveryWindows).set(deleted()).where(of(deliveryWindows)),
    ctx.db
      .update(menuCategories)
      .set(deleted())
      .where(
        and(
          live(menuCategories, ctx.appId),
          sql`${menuCategories.menuId} IN (SELECT id FROM ${menus} WHERE ${menus.restaurantId} = ${id})`,
        ),
      ),
    ctx.db.update(menus).set(deleted()).where(of(menus)),
    ctx.db.update(combos).set(deleted()).where(of(combos)),
    ctx.db.update(products).set(deleted()).where(of(products)),
  ]);
}

// ---- branches ----

const branchColumns = {
  name_en: "nameEn",
  name_ar: "nameAr",
  city_id: "cityId",
  address1: "address1",
  lat: "lat",
  lng: "lng",
  is_main: "isMain",
  supports_pickup: "supportsPickup",
  delivery_radius_km: "deliveryRadiusKm",
  ordering: "ordering",
} as const;

const findBranch = (ctx: ServiceContext, id: number) =>
  findLive(ctx, restaurantBranches, id, `Branch ${id}`, "branch_not_found");

/** At most one main branch: making one main clears the others'. */
const clearMain = (ctx: ServiceContext, restaurantId: number, except: number | SQL) =>
  ctx.db
    .update(restaurantBranches)
    .set({ isMain: false, modifiedAt: nowIso() })
    .where(
      and(
        live(restaurantBranches, ctx.appId),
        eq(restaurantBranches.restaurantId, restaurantId),
        ne(restaurantBranches.id, except as number),
      ),
    );

export async function createBranch(
  ctx: ServiceContext,
  restaurantId: number,
  input: Input<typeof S.CreateBranchSchema>,
) {
  await findRestaurant(ctx, restaurantId);
  const values = {
    appId: ctx.appId,
    restaurantId,
    ...columns(input, branchColumns),
  } as typeof restaurantBranches.$inferInsert;
  const [rows] = (await write(ctx, changed(ctx, "restaurant.updated", restaurantId), [
    ctx.db.insert(restaurantBranches).values(values).returning(),
    ...(input.is_main ? [clearMain(ctx, restaurantId, insertedId(restaurantBranches))] : []),
  ])) as [(typeof restaurantBranches.$inferSelect)[]];
  return branchView(rows[0]!);
}

export async function updateBranch(ctx: ServiceContext, id: number, input: Input<typeof S.UpdateBranchSchema>) {
  const branch = await findBranch(ctx, id);
  await write(ctx, changed(ctx, "restaurant.updated", branch.restaurantId), [
    ctx.db
      .update(restaurantBranches)
      .set({ ...columns(input, branchColumns), modifiedAt: nowIso() })
      .where(eq(restaurantBranches.id, id)),
    ...(input.is_main ? [clearMain(ctx, branch.restaurantId, id)] : []),
  ]);
  return branchView(await findBranch(ctx, id));
}

export async function deleteBranch(ctx: ServiceContext, id: number) {
  const branch = await findBranch(ctx, id);
  await write(ctx, changed(ctx, "restaurant.updated", branch.restaurantId), [
    ctx.db.update(restaurantBranches).set(deleted()).where(eq(restaurantBranches.id, id)),
  ]);
}

// ---- menus and menu categories ----

const menuColumns = {
  name_en: "nameEn",
  name_ar: "nameAr",
  image: "image",
  custom_fields: "customFields",
  ordering: "ordering",
} as const;

const findMenu = (ctx: ServiceContext, id: number) => findLive(ctx, menus, id, `Menu ${id}`, "menu_not_found");

export async function createMenu(ctx: ServiceContext, input: Input<typeof S.CreateMenuSchema>) {
  await ownRestaurant(ctx, input.restaurant_id);
  const values = {
    appId: ctx.appId,
    restaurantId: input.restaurant_id,
    ...columns(input, menuColumns),
  } as typeof menus.$inferInsert;
  const [[row]] = (await write(ctx, insertedRowEvent("menu.created", menus), [
    ctx.db.insert(menus).values(values).returning(),
  ])) as [(typeof menus.$inferSelect)[]];
  return menuRecordView(row!);
}

export async function updateMenu(ctx: ServiceContext, id: number, input: Input<typeof S.UpdateMenuSchema>) {
  await findMenu(ctx, id);
  await write(ctx, changed(ctx, "menu.updated", id), [
    ctx.db
      .update(menus)
      .set({ ...columns(input, menuColumns), modifiedAt: nowIso() })
      .where(eq(menus.id, id)),
  ]);
  return menuRecordView(await findMenu(ctx, id));
}

/** Refused while a restaurant serves it on demand or a plan uses it; its categories and combos go with it. */
export async function deleteMenu(ctx: ServiceContext, id: number) {
  await findMenu(ctx, id);
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
  if (servedBy.length)
    throw ApiError.conflict(
      "menu_in_use",
      `Restaurant ${servedBy[0]!.id} serves this menu on demand; give it another menu first.`,
      { restaurants: servedBy.map((r) => r.id) },
    );
  if (usedBy.length)
    throw ApiError.conflict(
      "menu_in_use",
      `Plans ${usedBy.map((p) => p.id).join(", ")} use this menu; give them another first.`,
      { plans: usedBy.map((p) => p.id) },
    );
  const categoryIds = sql`SELECT id FROM ${menuCategories} WHERE ${menuCategories.menuId} = ${id}`;
  await write(ctx, changed(ctx, "menu.deleted", id), [
    ctx.db.update(menus).set(deleted()).where(eq(menus.id, id)),
    ctx.db
      .update(combos)
      .set(deleted())
      .where(and(live(combos, ctx.appId), sql`${combos.categoryId} IN (${categoryIds})`)),
    // Its products stay (plans may offer them), out of any category.
    ctx.db
      .update(products)
      .set({ categoryId: null, modifiedAt: nowIso() })
      .where(and(live(products, ctx.appId), sql`${products.categoryId} IN (${categoryIds})`)),
    ctx.db
      .update(menuCategories)
      .set(deleted())
      .where(and(live(menuCategories, ctx.appId), eq(menuCategories.menuId, id))),
  ]);
}

const menuCategoryColumns = {
  name_en: "nameEn",
  name_ar: "nameAr",
  image: "image",
  is_sub: "isSub",
  is_active: "isActive",
  custom_fields: "customFields",
  ordering: "ordering",
} as const;

const findMenuCategory = (ctx: ServiceContext, id: number) =>
  findLive(ctx, menuCategories, id, `Menu category ${id}`, "menu_category_not_found");

export async function createMenuCategory(
  ctx: ServiceContext,
  menuId: number,
  input: Input<typeof S.CreateMenuCategorySchema>,
) {
  await findMenu(ctx, menuId);
  const values = {
    appId: ctx.appId,
    menuId,
    ...columns(input, menuCategoryColumns),
  } as typeof menuCategories.$inferInsert;
  const [[row]] = (await write(ctx, changed(ctx, "menu.updated", menuId), [
    ctx.db.insert(menuCategories).values(values).returning(),
  ])) as [(typeof menuCategories.$inferSelect)[]];
  return menuCategoryRecordView(row!);
}

export async function updateMenuCategory(
  ctx: ServiceContext,
  id: number,
  input: Input<typeof S.UpdateMenuCategorySchema>,
) {
  const category = await findMenuCategory(ctx, id);
  await write(ctx, changed(ctx, "menu.updated", category.menuId), [
    ctx.db
      .update(menuCategories)
      .set({ ...columns(input, menuCategoryColumns), modifiedAt: nowIso() })
      .where(eq(menuCategories.id, id)),
  ]);
  return menuCategoryRecordView(await findMenuCategory(ctx, id));
}

export async function deleteMenuCategory(ctx: ServiceContext, id: number) {
  const category = await findMenuCategory(ctx, id);
  const [inside, comboRows] = await ctx.db.batch([
    ctx.db
      .select({ id: products.id })
      .from(products)
      .where(and(live(products, ctx.appId), eq(products.categoryId, id))),
    ctx.db
      .select({ id: combos.id })
      .from(combos)
      .where(and(live(combos, ctx.appId), eq(combos.categoryId, id))),
  ]);
  if (inside.length || comboRows.length) {
    const ids = inside.map((p) => p.id);
    throw ApiError.conflict(
      "menu_category_in_use",
      `Products ${ids.join(", ") || "none"} and combos ${comboRows.map((k) => k.id).join(", ") || "none"} are in this category; move or delete them first.`,
      {
        products: ids,
        combos: comboRows.map((k) => k.id),
      },
    );
  }
  await write(ctx, changed(ctx, "menu.updated", category.menuId), [
    ctx.db.update(menuCategories).set(deleted()).where(eq(menuCategories.id, id)),
  ]);
}

// ---- products ----

const productColumns = {
  name_en: "nameEn",
  name_ar: "nameAr",
  description_en: "descriptionEn",
  description_ar: "descriptionAr",
  category_id: "categoryId",
  price: (v: number | null) => ({ priceMinor: minor(v!) }),
  discount_percentage: "discountPercentage",
  image: "image",
  original_image: "originalImage",
  is_sub: "isSub",
  is_active: "isActive",
  is_special: "isSpecial",
  in_stock: "inStock",
  allergies: "allergies",
  tags: "tags",
  allergens_dislikes: "allergensDislikes",
  variant: "variant",
  off_days: "offDays",
  wallet_credit: (v: number | null) => ({ walletCreditMinor: v === null ? null : minor(v) }),
  ordering: "ordering",
} as const;

const findProduct = (ctx: ServiceContext, id: number) =>
  findLive(ctx, products, id, `Product ${id}`, "product_not_found");

const productRecord = (ctx: ServiceContext, id: number) => getProduct(ctx, id, merchantView);

/** A product's category must be one of a menu of its own restaurant. */
async function checkProductCategory(ctx: ServiceContext, restaurantId: number, categoryId: number | null | undefined) {
  if (categoryId == null) return;
  const c = await ctx.db
    .select({ restaurantId: menus.restaurantId })
    .from(menuCategories)
    .innerJoin(menus, eq(menus.id, menuCategories.menuId))
    .where(and(live(menuCategories, ctx.appId), eq(menuCategories.id, categoryId), eq(menus.isDeleted, false)))
    .get();
  if (!c || c.restaurantId !== restaurantId)
    throw bodyError("category_id", "Must be a category of a menu of the product's restaurant.");
}

function nutritionStatements(
  ctx: ServiceContext,
  productId: number | SQL,
  input: Pick<Input<typeof S.UpdateProductSchema>, "nutritions" | "nutrition_options">,
  replace: boolean,
): Stmt[] {
  const out: Stmt[] = [];
  const facts = (n: {
    calories?: number | null;
    carbs?: number | null;
    protein?: number | null;
    fat?: number | null;
  }) => ({
    calories: n.calories ?? null,
    carbs: n.carbs ?? null,
    protein: n.protein ?? null,
    fat: n.fat ?? null,
  });
  if (input.nutritions !== undefined) {
    if (replace)
      out.push(
        ctx.db
          .update(nutritions)
          .set(deleted())
          .where(
            and(
              live(nutritions, ctx.appId),
              eq(nutritions.productId, productId as number),
              sql`${nutritions.size} IS NULL`,
            ),
          ),
      );
    if (input.nutritions)
      out.push(
        ctx.db
          .insert(nutritions)
          .values({ appId: ctx.appId, productId: productId as number, ...facts(input.nutritions) }),
      );
  }
  if (input.nutrition_options !== undefined) {
    if (replace)
      out.push(
        ctx.db
          .update(nutritions)
          .set(deleted())
          .where(
            and(
              live(nutritions, ctx.appId),
              eq(nutritions.productId, productId as number),
              sql`${nutritions.size} IS NOT NULL`,
            ),
          ),
      );
    for (const [i, n] of input.nutrition_options.entries())
      out.push(
        ctx.db
          .insert(nutritions)
          .values({ appId: ctx.appId, productId: productId as number, size: n.size, ordering: i, ...facts(n) }),
      );
  }
  return out;
}

export async function createProduct(ctx: ServiceContext, input: Input<typeof S.CreateProductSchema>) {
  await ownRestaurant(ctx, input.restaurant_id);
  await checkProductCategory(ctx, input.restaurant_id, input.category_id);
  const values = {
    appId: ctx.appId,
    restaurantId: input.restaurant_id,
    ...columns(input, productColumns),
  } as typeof products.$inferInsert;
  const [inserted] = (await write(ctx, insertedRowEvent("meal_product.created", products), [
    ctx.db.insert(products).values(values).returning({ id: products.id }),
    ...nutritionStatements(ctx, insertedId(products), input, false),
  ])) as [{ id: number }[]];
  return productRecord(ctx, inserted[0]!.id);
}

export async function updateProduct(ctx: ServiceContext, id: number, input: Input<typeof S.UpdateProductSchema>) {
  const product = await findProduct(ctx, id);
  await checkProductCategory(ctx, product.restaurantId, input.category_id);
  await write(ctx, changed(ctx, "meal_product.updated", id), [
    ctx.db
      .update(products)
      .set({ ...columns(input, productColumns), modifiedAt: nowIso() })
      .where(eq(products.id, id)),
    ...nutritionStatements(ctx, id, input, true),
  ]);
  return productRecord(ctx, id);
}

/** Refused while plan options offer it or combos contain it. */
export async function deleteProduct(ctx: ServiceContext, id: number) {
  await findProduct(ctx, id);
  const [options, comboRows] = await ctx.db.batch([
    ctx.db
      .select({ id: planOptions.id, planId: planOptions.planId })
      .from(planOptions)
      .where(and(live(planOptions, ctx.appId), eq(planOptions.productId, id))),
    ctx.db
      .select({ id: combos.id })
      .from(combos)
      .where(
        and(live(combos, ctx.appId), sql`EXISTS (SELECT 1 FROM json_each(${combos.productIds}) WHERE value = ${id})`),
      ),
  ]);
  if (options.length || comboRows.length) {
    const planIds = [...new Set(options.map((o) => o.planId))];
    throw ApiError.conflict(
      "product_in_use",
      `Plans ${planIds.join(", ") || "none"} offer this product and combos ${comboRows.map((k) => k.id).join(", ") || "none"} contain it; remove it from them first.`,
      {
        plans: planIds,
        combos: comboRows.map((k) => k.id),
      },
    );
  }
  await write(ctx, changed(ctx, "meal_product.deleted", id), [
    ctx.db.update(products).set(deleted()).where(eq(products.id, id)),
    ctx.db
      .update(nutritions)
      .set(deleted())
      .where(and(live(nutritions, ctx.appId), eq(nutritions.productId, id))),
  ]);
}

// ---- plans ----

const planColumns = {
  menu_id: "menuId",
  name_en: "nameEn",
  name_ar: "nameAr",
  subtitle_en: "subtitleEn",
  subtitle_ar: "subtitleAr",
  description_en: "descriptionEn",
  description_ar: "descriptionAr",
  image: "image",
  image_ar: "imageAr",
  tag_ids: "tagIds",
  daily_num_of_items: "dailyNumOfItems",
  avg_daily_meal_calories: "avgDailyMealCalories",
  start_after: "startAfter",
  special_product_selection_limit: "specialProductSelectionLimit",
  featured_title_en: "featuredTitleEn",
  featured_title_ar: "featuredTitleAr",
  is_featured: "isFeatured",
  is_marketplace_featured: "isMarketplaceFeatured",
  is_marketplace_active: "isMarketplaceActive",
  is_active: "isActive",
  supported_service: "supportedService",
  gender: "gender",
  subscription_type: "subscriptionType",
  repetition: "repetition",
  skip_option_selection: "skipOptionSelection",
  size: (s: { title: string; protein_amount: number; carb_amount?: number | null; unit?: string } | null) => ({
    sizeTitle: s!.title,
    sizeProteinAmount: s!.protein_amount,
    ...(s!.carb_amount !== undefined && { sizeCarbAmount: s!.carb_amount }),
    ...(s!.unit !== undefined && { sizeUnit: s!.unit }),
  }),
  ordering: "ordering",
} as const;

const findPlan = (ctx: ServiceContext, id: number) => findLive(ctx, plans, id, `Plan ${id}`, "plan_not_found");

async function planRecord(ctx: ServiceContext, id: number) {
  const [planRows, versions, tags, rs] = await ctx.db.batch([
    ctx.db
      .select()
      .from(plans)
      .where(and(live(plans, ctx.appId), eq(plans.id, id))),
    ctx.db
      .select()
      .from(planVersions)
      .where(and(live(planVersions, ctx.appId), eq(planVersions.planId, id)))
      .orderBy(planVersions.ordering, planVersions.id),
    ctx.db
      .select()
      .from(planTags)
      .where(
        and(
          live(planTags, ctx.appId),
          sql`${planTags.id} IN (SELECT value FROM ${plans}, json_each(${plans.tagIds}) WHERE ${plans.id} = ${id})`,
        ),
      ),
    ctx.db
      .select()
      .from(restaurants)
      .where(sql`${restaurants.id} = (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${id})`),
  ]);
  return planSummaryView(planRows[0]!, { versions, tags, restaurant: rs[0]! });
}

async function checkPlanRefs(
  ctx: ServiceContext,
  restaurantId: number,
  input: { menu_id?: number; tag_ids?: number[] },
) {
  if (input.menu_id !== undefined) {
    const m = await ctx.db
      .select({ restaurantId: menus.restaurantId })
      .from(menus)
      .where(and(live(menus, ctx.appId), eq(menus.id, input.menu_id)))
      .get();
    if (!m || m.restaurantId !== restaurantId) throw bodyError("menu_id", "Must be a menu of the plan's restaurant.");
  }
  if (input.tag_ids?.length) {
    const found = await ctx.db
      .select({ id: planTags.id })
      .from(planTags)
      .where(and(live(planTags, ctx.appId), inArray(planTags.id, input.tag_ids)));
    const missing = input.tag_ids.filter((t) => !found.some((f) => f.id === t));
    if (missing.length) throw bodyError("tag_ids", `No such plan tags in this store: ${missing.join(", ")}.`);
  }
}

export async function createPlan(ctx: ServiceContext, input: Input<typeof S.CreatePlanSchema>) {
  await ownRestaurant(ctx, input.restaurant_id);
  await checkPlanRefs(ctx, input.restaurant_id, input);
  const values = {
    appId: ctx.appId,
    restaurantId: input.restaurant_id,
    ...columns(input, planColumns),
  } as typeof plans.$inferInsert;
  const [[row]] = (await write(ctx, insertedRowEvent("plan.created", plans), [
    ctx.db.insert(plans).values(values).returning({ id: plans.id }),
  ])) as [{ id: number }[]];
  return planRecord(ctx, row!.id);
}

export async function updatePlan(ctx: ServiceContext, id: number, input: Input<typeof S.UpdatePlanSchema>) {
  const plan = await findPlan(ctx, id);
  await checkPlanRefs(ctx, plan.restaurantId, input);
  if (input.repetition !== undefined) {
    const top = await ctx.db
      .select({ n: max(planDays.repetitionCounter) })
      .from(planDays)
      .where(and(live(planDays, ctx.appId), eq(planDays.planId, id)))
      .get();
    if (top?.n && top.n > input.repetition) {
      throw ApiError.conflict(
        "plan_days_beyond_repetition",
        `The plan has a day at place ${top.n} of its cycle; delete the days beyond ${input.repetition} first.`,
      );
    }
  }
  await write(ctx, changed(ctx, "plan.updated", id), [
    ctx.db
      .update(plans)
      .set({ ...columns(input, planColumns), modifiedAt: nowIso() })
      .where(eq(plans.id, id)),
  ]);
  return planRecord(ctx, id);
}

/** The plan's versions, days, categories and options go with it. */
export async function deletePlan(ctx: ServiceContext, id: number) {
  await findPlan(ctx, id);
  const of = (t: Parameters<typeof live>[0] & { planId: Column }) => and(live(t, ctx.appId), eq(t.planId, id));
  await write(ctx, changed(ctx, "plan.deleted", id), [
    ctx.db.update(plans).set(deleted()).where(eq(plans.id, id)),
    ctx.db.update(planVersions).set(deleted()).where(of(planVersions)),
    ctx.db.update(planDays).set(deleted()).where(of(planDays)),
    ctx.db.update(planCategories).set(deleted()).where(of(planCategories)),
    ctx.db.update(planOptions).set(deleted()).where(of(planOptions)),
  ]);
}

// ---- plan versions ----

const versionColumns = {
  min_start_date: "minStartDate",
  max_start_date: "maxStartDate",
  off_days: "offDays",
  num_of_days: "numOfDays",
  total_num_of_items: "totalNumOfItems",
  delivery_price: (v: number | null) => ({ deliveryPriceMinor: minor(v!) }),
  original_price: (v: number | null) => ({ originalPriceMinor: minor(v!) }),
  discount_percentage: "discountPercentage",
  duration: "duration",
  pause_credits: "pauseCredits",
  num_of_pause_attempts: "numOfPauseAttempts",
  min_of_pause_days: "minOfPauseDays",
  custom_fields: "customFields",
  ordering: "ordering",
} as const;

const findVersion = (ctx: ServiceContext, id: number) =>
  findLive(ctx, planVersions, id, `Plan version ${id}`, "plan_version_not_found");

export async function createPlanVersion(
  ctx: ServiceContext,
  planId: number,
  input: Input<typeof S.CreatePlanVersionSchema>,
) {
  await findPlan(ctx, planId);
  const values = { appId: ctx.appId, planId, ...columns(input, versionColumns) } as typeof planVersions.$inferInsert;
  const [[row]] = (await write(ctx, changed(ctx, "plan.updated", planId), [
    ctx.db.insert(planVersions).values(values).returning(),
  ])) as [(typeof planVersions.$inferSelect)[]];
  return planVersionRecordView(row!);
}

export async function updatePlanVersion(
  ctx: ServiceContext,
  id: number,
  input: Input<typeof S.UpdatePlanVersionSchema>,
) {
  const v = await findVersion(ctx, id);
  if ((input.min_start_date ?? v.minStartDate) > (input.max_start_date ?? v.maxStartDate))
    throw bodyError("min_start_date", "Must not be after max_start_date.");
  await write(ctx, changed(ctx, "plan.updated", v.planId), [
    ctx.db
      .update(planVersions)
      .set({ ...columns(input, versionColumns), modifiedAt: nowIso() })
      .where(eq(planVersions.id, id)),
  ]);
  return planVersionRecordView(await findVersion(ctx, id));
}

export async function deletePlanVersion(ctx: ServiceContext, id: number) {
  const v = await findVersion(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", v.planId), [
    ctx.db.update(planVersions).set(deleted()).where(eq(planVersions.id, id)),
  ]);
}

// ---- plan days (masters), categories and options ----

const dayColumns = {
  day: "day",
  repetition_counter: "repetitionCounter",
  master_id: "masterId",
  ordering: "ordering",
} as const;

const findDay = (ctx: ServiceContext, id: number) =>
  findLive(ctx, planDays, id, `Plan day ${id}`, "plan_day_not_found");

/** One day per place in the cycle, and no place beyond the plan's `repetition`. */
async function checkCycle(
  ctx: ServiceContext,
  plan: { id: number; repetition: number },
  counter: number | undefined,
  self: number | null,
) {
  if (counter === undefined) return;
  if (counter > plan.repetition)
    throw bodyError(
      "repetition_counter",
      `The plan's cycle has ${plan.repetition} days: give 1 to ${plan.repetition}.`,
    );
  const taken = await ctx.db
    .select({ id: planDays.id })
    .from(planDays)
    .where(
      and(
        live(planDays, ctx.appId),
        eq(planDays.planId, plan.id),
        eq(planDays.repetitionCounter, counter),
        self === null ? undefined : ne(planDays.id, self),
      ),
    )
    .get();
  if (taken)
    throw ApiError.conflict(
      "plan_day_taken",
      `Day ${taken.id} already serves place ${counter} of the cycle; change or delete it first.`,
      { plan_day: taken.id },
    );
}

export async function createPlanDay(ctx: ServiceContext, planId: number, input: Input<typeof S.CreatePlanDaySchema>) {
  const plan = await findPlan(ctx, planId);
  await checkCycle(ctx, plan, input.repetition_counter, null);
  const values = {
    appId: ctx.appId,
    planId,
    restaurantId: plan.restaurantId,
    ...columns(input, dayColumns),
  } as typeof planDays.$inferInsert;
  const [[row]] = (await write(ctx, changed(ctx, "plan.updated", planId), [
    ctx.db.insert(planDays).values(values).returning(),
  ])) as [(typeof planDays.$inferSelect)[]];
  return planDayView(row!);
}

export async function updatePlanDay(ctx: ServiceContext, id: number, input: Input<typeof S.UpdatePlanDaySchema>) {
  const day = await findDay(ctx, id);
  await checkCycle(ctx, await findPlan(ctx, day.planId), input.repetition_counter, id);
  await write(ctx, changed(ctx, "plan.updated", day.planId), [
    ctx.db
      .update(planDays)
      .set({ ...columns(input, dayColumns), modifiedAt: nowIso() })
      .where(eq(planDays.id, id)),
  ]);
  return planDayView(await findDay(ctx, id));
}

/** Its categories and their options go with it. */
export async function deletePlanDay(ctx: ServiceContext, id: number) {
  const day = await findDay(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", day.planId), [
    ctx.db.update(planDays).set(deleted()).where(eq(planDays.id, id)),
    ctx.db
      .update(planOptions)
      .set(deleted())
      .where(
        and(
          live(planOptions, ctx.appId),
          sql`${planOptions.planCategoryId} IN (SELECT id FROM ${planCategories} WHERE ${planCategories.planDayId} = ${id})`,
        ),
      ),
    ctx.db
      .update(planCategories)
      .set(deleted())
      .where(and(live(planCategories, ctx.appId), eq(planCategories.planDayId, id))),
  ]);
}

const planCategoryColumns = {
  name_en: "nameEn",
  name_ar: "nameAr",
  is_multi_select: "isMultiSelect",
  max_selected_options: "maxSelectedOptions",
  category_master_id: "categoryMasterId",
  ordering: "ordering",
} as const;

const findPlanCategory = (ctx: ServiceContext, id: number) =>
  findLive(ctx, planCategories, id, `Plan category ${id}`, "plan_category_not_found");

export async function createPlanCategory(
  ctx: ServiceContext,
  dayId: number,
  input: Input<typeof S.CreatePlanCategorySchema>,
) {
  const day = await findDay(ctx, dayId);
  const values = {
    appId: ctx.appId,
    planId: day.planId,
    planDayId: dayId,
    ...columns(input, planCategoryColumns),
  } as typeof planCategories.$inferInsert;
  const [[row]] = (await write(ctx, changed(ctx, "plan.updated", day.planId), [
    ctx.db.insert(planCategories).values(values).returning(),
  ])) as [(typeof planCategories.$inferSelect)[]];
  return planCategoryRecordView(row!);
}

export async function updatePlanCategory(
  ctx: ServiceContext,
  id: number,
  input: Input<typeof S.UpdatePlanCategorySchema>,
) {
  const category = await findPlanCategory(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", category.planId), [
    ctx.db
      .update(planCategories)
      .set({ ...columns(input, planCategoryColumns), modifiedAt: nowIso() })
      .where(eq(planCategories.id, id)),
  ]);
  return planCategoryRecordView(await findPlanCategory(ctx, id));
}

export async function deletePlanCategory(ctx: ServiceContext, id: number) {
  const category = await findPlanCategory(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", category.planId), [
    ctx.db.update(planCategories).set(deleted()).where(eq(planCategories.id, id)),
    ctx.db
      .update(planOptions)
      .set(deleted())
      .where(and(live(planOptions, ctx.appId), eq(planOptions.planCategoryId, id))),
  ]);
}

const optionColumns = {
  product_id: "productId",
  is_recommended: "isRecommended",
  is_active: "isActive",
  ordering: "ordering",
} as const;

const findOption = (ctx: ServiceContext, id: number) =>
  findLive(ctx, planOptions, id, `Plan option ${id}`, "plan_option_not_found");

/** An option offers a live product of the plan's restaurant, once per category. */
async function checkOptionProduct(
  ctx: ServiceContext,
  planId: number,
  categoryId: number,
  productId: number | undefined,
  self: number | null,
) {
  if (productId === undefined) return;
  const [p, dup] = await ctx.db.batch([
    ctx.db
      .select({ id: products.id })
      .from(products)
      .where(
        and(
          live(products, ctx.appId),
          eq(products.id, productId),
          sql`${products.restaurantId} = (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${planId})`,
        ),
      ),
    ctx.db
      .select({ id: planOptions.id })
      .from(planOptions)
      .where(
        and(
          live(planOptions, ctx.appId),
          eq(planOptions.planCategoryId, categoryId),
          eq(planOptions.productId, productId),
          self === null ? undefined : ne(planOptions.id, self),
        ),
      ),
  ]);
  if (!p.length) throw bodyError("product_id", "Must be a product of the plan's restaurant.");
  if (dup.length)
    throw ApiError.conflict(
      "plan_option_taken",
      `Option ${dup[0]!.id} already offers product ${productId} in this category.`,
      { plan_option: dup[0]!.id },
    );
}

export async function createPlanOption(
  ctx: ServiceContext,
  categoryId: number,
  input: Input<typeof S.CreatePlanOptionSchema>,
) {
  const category = await findPlanCategory(ctx, categoryId);
  await checkOptionProduct(ctx, category.planId, categoryId, input.product_id, null);
  const values = {
    appId: ctx.appId,
    planId: category.planId,
    planCategoryId: categoryId,
    ...columns(input, optionColumns),
  } as typeof planOptions.$inferInsert;
  const [[row]] = (await write(ctx, changed(ctx, "plan.updated", category.planId), [
    ctx.db.insert(planOptions).values(values).returning(),
  ])) as [(typeof planOptions.$inferSelect)[]];
  return planOptionRecordView(row!);
}

export async function updatePlanOption(ctx: ServiceContext, id: number, input: Input<typeof S.UpdatePlanOptionSchema>) {
  const option = await findOption(ctx, id);
  await checkOptionProduct(ctx, option.planId, option.planCategoryId, input.product_id, id);
  await write(ctx, changed(ctx, "plan.updated", option.planId), [
    ctx.db
      .update(planOptions)
      .set({ ...columns(input, optionColumns), modifiedAt: nowIso() })
      .where(eq(planOptions.id, id)),
  ]);
  return planOptionRecordView(await findOption(ctx, id));
}

export async function deletePlanOption(ctx: ServiceContext, id: number) {
  const option = await findOption(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", option.planId), [
    ctx.db.update(planOptions).set(deleted()).where(eq(planOptions.id, id)),
  ]);
}

// ---- restaurant categories, allergens and dislikes, restaurant variants, plan tags ----

const restaurantCategoryColumns = {
  name_en: "nameEn",
  name_ar: "nameAr",
  image: "image",
  ordering: "ordering",
} as const;

const findRestaurantCategory = (ctx: ServiceContext, id: number) =>
  findLive(ctx, restaurantCategories, id, `Restaurant category ${id}`, "restaurant_category_not_found");

export async function createRestaurantCategory(
  ctx: ServiceContext,
  input: Input<typeof S.CreateRestaurantCategorySchema>,
) {
  const values = {
    appId: ctx.appId,
    ...columns(input, restaurantCategoryColumns),
  } as typeof restaurantCategories.$inferInsert;
  const [[row]] = (await write(ctx, insertedRowEvent("restaurant_category.created", restaurantCategories), [
    ctx.db.insert(restaurantCategories).values(values).returning(),
  ])) as [(typeof restaurantCategories.$inferSelect)[]];
  return restaurantCategoryView(row!);
}

export async function updateRestaurantCategory(
  ctx: ServiceContext,
  id: number,
  input: Input<typeof S.UpdateRestaurantCategorySchema>,
) {
  await findRestaurantCategory(ctx, id);
  await write(ctx, changed(ctx, "restaurant_category.updated", id), [
    ctx.db
      .update(restaurantCategories)
      .set({ ...columns(input, restaurantCategoryColumns), modifiedAt: nowIso() })
      .where(eq(restaurantCategories.id, id)),
  ]);
  return restaurantCategoryView(await findRestaurantCategory(ctx, id));
}

/** Refused while live restaurants are filed under it, as the catalogue's categories are. */
export async function deleteRestaurantCategory(ctx: ServiceContext, id: number) {
  await findRestaurantCategory(ctx, id);
  const users = await ctx.db
    .select({ id: restaurants.id })
    .from(restaurants)
    .where(and(live(restaurants, ctx.appId), eq(restaurants.categoryId, id)));
  if (users.length) {
    const ids = users.map((r) => r.id);
    throw ApiError.conflict(
      "restaurant_category_in_use",
      `Restaurants ${ids.join(", ")} are filed under this category; move them first.`,
      { restaurants: ids },
    );
  }
  await write(ctx, changed(ctx, "restaurant_category.deleted", id), [
    ctx.db.update(restaurantCategories).set(deleted()).where(eq(restaurantCategories.id, id)),
  ]);
}

const allergenColumns = {
  kind: "kind",
  name_en: "nameEn",
  name_ar: "nameAr",
  icon: "icon",
  ordering: "ordering",
} as const;

const findAllergen = (ctx: ServiceContext, id: number) =>
  findLive(ctx, allergens, id, `Allergen or dislike ${id}`, "allergen_not_found");

export async function createAllergen(ctx: ServiceContext, input: Input<typeof S.CreateAllergenSchema>) {
  const values = { appId: ctx.appId, ...columns(input, allergenColumns) } as typeof allergens.$inferInsert;
  const [[row]] = (await write(ctx, insertedRowEvent("allergen.created", allergens), [
    ctx.db.insert(allergens).values(values).returning(),
  ])) as [(typeof allergens.$inferSelect)[]];
  return allergenView(row!);
}

export async function updateAllergen(ctx: ServiceContext, id: number, input: Input<typeof S.UpdateAllergenSchema>) {
  await findAllergen(ctx, id);
  await write(ctx, changed(ctx, "allergen.updated", id), [
    ctx.db
      .update(allergens)
      .set({ ...columns(input, allergenColumns), modifiedAt: nowIso() })
      .where(eq(allergens.id, id)),
  ]);
  return allergenView(await findAllergen(ctx, id));
}

/** Never refused: products name allergens by text, and keep the names they have. */
export async function deleteAllergen(ctx: ServiceContext, id: number) {
  await findAllergen(ctx, id);
  await write(ctx, changed(ctx, "allergen.deleted", id), [
    ctx.db.update(allergens).set(deleted()).where(eq(allergens.id, id)),
  ]);
}

const restaurantVariantColumns = { name_en: "nameEn", name_ar: "nameAr", ordering: "ordering" } as const;

const findRestaurantVariant = (ctx: ServiceContext, id: number) =>
  findLive(ctx, restaurantVariants, id, `Restaurant variant ${id}`, "restaurant_variant_not_found");

export async function createRestaurantVariant(
  ctx: ServiceContext,
  restaurantId: number,
  input: Input<typeof S.CreateRestaurantVariantSchema>,
) {
  await findRestaurant(ctx, restaurantId);
  const values = {
    appId: ctx.appId,
    restaurantId,
    ...columns(input, restaurantVariantColumns),
  } as typeof restaurantVariants.$inferInsert;
  const [[row]] = (await write(ctx, changed(ctx, "restaurant.updated", restaurantId), [
    ctx.db.insert(restaurantVariants).values(values).returning(),
  ])) as [(typeof restaurantVariants.$inferSelect)[]];
  return restaurantVariantView(row!);
}

export async function updateRestaurantVariant(
  ctx: ServiceContext,
  id: number,
  input: Input<typeof S.UpdateRestaurantVariantSchema>,
) {
  const variant = await findRestaurantVariant(ctx, id);
  await write(ctx, changed(ctx, "restaurant.updated", variant.restaurantId), [
    ctx.db
      .update(restaurantVariants)
      .set({ ...columns(input, restaurantVariantColumns), modifiedAt: nowIso() })
      .where(eq(restaurantVariants.id, id)),
  ]);
  return restaurantVariantView(await findRestaurantVariant(ctx, id));
}

/** Never refused: products name variants by text, and keep the names they have. */
export async function deleteRestaurantVariant(ctx: ServiceContext, id: number) {
  const variant = await findRestaurantVariant(ctx, id);
  await write(ctx, changed(ctx, "restaurant.updated", variant.restaurantId), [
    ctx.db.update(restaurantVariants).set(deleted()).where(eq(restaurantVariants.id, id)),
  ]);
}

const planTagColumns = {
  type_en: "typeEn",
  type_ar: "typeAr",
  tag_en: "tagEn",
  tag_ar: "tagAr",
  description_en: "descriptionEn",
  description_ar: "descriptionAr",
  image: "image",
  color: "color",
  ordering: "ordering",
} as const;

const findPlanTag = (ctx: ServiceContext, id: number) =>
  findLive(ctx, planTags, id, `Plan tag ${id}`, "plan_tag_not_found");

export async function createPlanTag(ctx: ServiceContext, input: Input<typeof S.CreatePlanTagSchema>) {
  const values = { appId: ctx.appId, ...columns(input, planTagColumns) } as typeof planTags.$inferInsert;
  const [[row]] = (await write(ctx, insertedRowEvent("plan_tag.created", planTags), [
    ctx.db.insert(planTags).values(values).returning(),
  ])) as [(typeof planTags.$inferSelect)[]];
  return planTagView(row!);
}

export async function updatePlanTag(ctx: ServiceContext, id: number, input: Input<typeof S.UpdatePlanTagSchema>) {
  await findPlanTag(ctx, id);
  await write(ctx, changed(ctx, "plan_tag.updated", id), [
    ctx.db
      .update(planTags)
      .set({ ...columns(input, planTagColumns), modifiedAt: nowIso() })
      .where(eq(planTags.id, id)),
  ]);
  return planTagView(await findPlanTag(ctx, id));
}

/** Refused while live plans carry it, naming them. */
export async function deletePlanTag(ctx: ServiceContext, id: number) {
  await findPlanTag(ctx, id);
  const users = await ctx.db
    .select({ id: plans.id })
    .from(plans)
    .where(and(live(plans, ctx.appId), sql`EXISTS (SELECT 1 FROM json_each(${plans.tagIds}) WHERE value = ${id})`));
  if (users.length) {
    const ids = users.map((p) => p.id);
    throw ApiError.conflict("plan_tag_in_use", `Plans ${ids.join(", ")} carry this tag; take it off them first.`, {
      plans: ids,
    });
  }
  await write(ctx, changed(ctx, "plan_tag.deleted", id), [
    ctx.db.update(planTags).set(deleted()).where(eq(planTags.id, id)),
  ]);
}

// ---- combos ----

const comboColumns = {
  name_en: "nameEn",
  name_ar: "nameAr",
  description_en: "descriptionEn",
  description_ar: "descriptionAr",
  image: "image",
  price: (v: number | null) => ({ priceMinor: minor(v!) }),
  discount_percentage: "discountPercentage",
  is_active: "isActive",
  product_ids: "productIds",
  custom_fields: "customFields",
  ordering: "ordering",
} as const;

const findCombo = (ctx: ServiceContext, id: number) => findLive(ctx, combos, id, `Combo ${id}`, "combo_not_found");

/** A combo's products must be live products of its restaurant. */
async function checkComboProducts(ctx: ServiceContext, restaurantId: number, ids: number[] | undefined) {
  if (!ids) return;
  const found = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(
      and(live(products, ctx.appId), eq(products.restaurantId, restaurantId), inArray(products.id, [...new Set(ids)])),
    );
  const missing = [...new Set(ids)].filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw bodyError("product_ids", `Not products of the combo's restaurant: ${missing.join(", ")}.`);
}

/** The combo's restaurant is its menu category's. */
export async function createCombo(ctx: ServiceContext, categoryId: number, input: Input<typeof S.CreateComboSchema>) {
  const category = await findMenuCategory(ctx, categoryId);
  const menu = await findMenu(ctx, category.menuId);
  await checkComboProducts(ctx, menu.restaurantId, input.product_ids);
  const values = {
    appId: ctx.appId,
    restaurantId: menu.restaurantId,
    categoryId,
    ...columns(input, comboColumns),
  } as typeof combos.$inferInsert;
  const [[row]] = (await write(ctx, changed(ctx, "menu.updated", category.menuId), [
    ctx.db.insert(combos).values(values).returning(),
  ])) as [(typeof combos.$inferSelect)[]];
  return comboRecord(ctx, row!.id);
}

async function comboRecord(ctx: ServiceContext, id: number) {
  const combo = await findCombo(ctx, id);
  const [items, facts] = await ctx.db.batch([
    ctx.db
      .select()
      .from(products)
      .where(
        and(
          live(products, ctx.appId),
          sql`${products.id} IN (SELECT value FROM json_each(${JSON.stringify(combo.productIds)}))`,
        ),
      ),
    ctx.db
      .select()
      .from(nutritions)
      .where(
        and(
          live(nutritions, ctx.appId),
          sql`${nutritions.productId} IN (SELECT value FROM json_each(${JSON.stringify(combo.productIds)}))`,
        ),
      ),
  ]);
  return comboView(combo, new Map(items.map((p) => [p.id, p])), factsByProduct(facts));
}

const menuOfCategory = async (ctx: ServiceContext, categoryId: number) =>
  (await findMenuCategory(ctx, categoryId)).menuId;

export async function updateCombo(ctx: ServiceContext, id: number, input: Input<typeof S.UpdateComboSchema>) {
  const combo = await findCombo(ctx, id);
  await checkComboProducts(ctx, combo.restaurantId, input.product_ids);
  await write(ctx, changed(ctx, "menu.updated", await menuOfCategory(ctx, combo.categoryId)), [
    ctx.db
      .update(combos)
      .set({ ...columns(input, comboColumns), modifiedAt: nowIso() })
      .where(eq(combos.id, id)),
  ]);
  return comboRecord(ctx, id);
}

export async function deleteCombo(ctx: ServiceContext, id: number) {
  const combo = await findCombo(ctx, id);
  await write(ctx, changed(ctx, "menu.updated", await menuOfCategory(ctx, combo.categoryId)), [
    ctx.db.update(combos).set(deleted()).where(eq(combos.id, id)),
  ]);
}
