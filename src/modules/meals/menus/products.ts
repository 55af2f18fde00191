import type { z } from "@hono/zod-openapi";
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, refuseWhileUsed, softDeleted, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { insertedRowEvent } from "../../../core/events/outbox";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import {
  type ListQuery,
  type ListSpec,
  listPage,
  listPageWith,
  mapPage,
  namedListSpec,
  type Page,
} from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { liveRestaurant, restaurantNamed } from "../restaurants/service";
import { restaurantVariantView } from "../restaurants/views";
import {
  type Audience,
  bodyError,
  type Check,
  changed,
  createAndRead,
  findChecked,
  merchantView,
  readView,
  runChecks,
  type Stmt,
  type ViewRead,
  write,
  writeAndRead,
} from "../shared";
import {
  combos,
  menuCategories,
  menus,
  nutritions,
  planOptions,
  products,
  restaurants,
  restaurantVariants,
} from "../tables";
import type { CreateProductSchema, ProductDetails, UpdateProductSchema } from "./schemas";
import { factsByProduct, productDetailsView } from "./views";

/** Meal products with their nutrition facts: Product Details, the wallet credit products, and the writes. */

const productRows = tenantTable(products, { label: "Product", notFound: "product_not_found" });
type ProductRow = typeof products.$inferSelect;

/** Products the public sees: live, active, of an active restaurant. */
const visibleProduct = (appId: number) =>
  and(
    live(products, appId),
    eq(products.isActive, true),
    sql`${products.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(appId)})`,
  )!;

/** The live nutrition facts of the products `productIds` (a subquery) selects. */
export const nutritionsOf = (ctx: ServiceContext, productIds: SQL) =>
  ctx.db
    .select()
    .from(nutritions)
    .where(and(live(nutritions, ctx.appId), sql`${nutritions.productId} IN (${productIds})`))
    .orderBy(asc(nutritions.ordering), asc(nutritions.id));

/** Wallet Credit Products: the public's visible rows, so `modified_at` only (as List Restaurant). */
export const WALLET_CREDIT_PRODUCT_LIST: ListSpec = {
  ...namedListSpec(products, {
    restaurant_id: { column: products.restaurantId, kind: "integer" },
    category_id: { column: products.categoryId, kind: "integer", nullable: true },
    original_price: { column: products.priceMinor, kind: "money" },
  }),
  sync: { modifiedAt: products.modifiedAt, softDeleted: false },
};

export async function getProduct(
  ctx: ServiceContext,
  id: number,
  audience: Audience = { activeOnly: true },
): Promise<ProductDetails> {
  return readView(ctx, productRead(ctx, id, audience));
}

/** Product Details as reads of a batch: `id` is an id or the handle of the product the batch inserts. */
function productRead(ctx: ServiceContext, id: number | SQL, audience: Audience): ViewRead<ProductDetails> {
  return {
    reads: [
      ctx.db
        .select()
        .from(products)
        .where(and(audience.activeOnly ? visibleProduct(ctx.appId) : live(products, ctx.appId), eq(products.id, id))),
      nutritionsOf(ctx, sql`${id}`),
    ],
    view: (results) => {
      const [rows, facts] = results as [ProductRow[], (typeof nutritions.$inferSelect)[]];
      if (!rows[0]) throw ApiError.notFound("product_not_found", `Product ${typeof id === "number" ? id : ""}`.trim());
      return productDetailsView(rows[0], factsByProduct(facts));
    },
  };
}

/** Wallet Credit Products: the products that sell store credit. */
export async function listWalletCreditProducts(ctx: ServiceContext, q: ListQuery): Promise<Page<ProductDetails>> {
  // The page and its products' nutrition facts in one statement (one round trip).
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: products, scope: () => and(visibleProduct(ctx.appId), sql`${products.walletCreditMinor} IS NOT NULL`)! },
    (rows) => ({
      facts: rowsJson(
        nutritions,
        and(live(nutritions, ctx.appId), sql`${nutritions.productId} IN (SELECT id FROM ${rows})`)!,
        [asc(nutritions.ordering), asc(nutritions.id)],
      ),
    }),
  );
  const byProduct = factsByProduct(decodeRows(nutritions, nested.facts));
  return mapPage(page, (p) => productDetailsView(p, byProduct));
}

/**
 * Product Variants List: the restaurant's variants that the product names in `variant`. The product
 * (its restaurant, its variant names, and whether the public sees it) is read inside the list's own
 * statement: one round trip.
 */
export async function listProductVariants(ctx: ServiceContext, q: ListQuery, productId: number) {
  const theProduct = and(visibleProduct(ctx.appId), eq(products.id, productId))!;
  const page = await listPage(ctx.db, q, {
    table: restaurantVariants,
    scope: () =>
      and(
        live(restaurantVariants, ctx.appId),
        sql`${restaurantVariants.restaurantId} = (SELECT ${products.restaurantId} FROM ${products} WHERE ${theProduct})`,
        sql`${restaurantVariants.nameEn} IN (SELECT value FROM json_each((SELECT ${products.variant} FROM ${products} WHERE ${theProduct})))`,
      )!,
    parent: {
      exists: sql`EXISTS (SELECT 1 FROM ${products} WHERE ${theProduct})`,
      notFound: () => ApiError.notFound("product_not_found", `Product ${productId}`),
    },
  });
  return mapPage(page, restaurantVariantView);
}

// ---- merchant writes ----

type CreateProduct = z.infer<typeof CreateProductSchema>;
type ProductFields = z.infer<typeof UpdateProductSchema>;

/**
 * The body's fields → the product's columns (drizzle leaves the undefined ones out); the schema's `money`
 * gives prices in minor units already.
 */
const productColumns = (b: ProductFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  descriptionEn: b.description_en,
  descriptionAr: b.description_ar,
  categoryId: b.category_id,
  priceMinor: b.price,
  discountPercentage: b.discount_percentage,
  image: b.image,
  originalImage: b.original_image,
  isSub: b.is_sub,
  isActive: b.is_active,
  isSpecial: b.is_special,
  inStock: b.in_stock,
  allergies: b.allergies,
  tags: b.tags,
  allergensDislikes: b.allergens_dislikes,
  variant: b.variant,
  offDays: b.off_days,
  walletCreditMinor: b.wallet_credit,
  ordering: b.ordering,
});

/**
 * A product's category must be one of a menu of its own restaurant (`restaurantOf` the product):
 * a check of the write's round of reads.
 */
function productCategoryCheck<Record>(
  ctx: ServiceContext,
  restaurantOf: (product: Record) => number,
  categoryId: number | null | undefined,
): Check<Record> | undefined {
  if (categoryId == null) return undefined;
  return {
    read: ctx.db
      .select({ restaurantId: menus.restaurantId })
      .from(menuCategories)
      .innerJoin(menus, eq(menus.id, menuCategories.menuId))
      .where(and(live(menuCategories, ctx.appId), eq(menuCategories.id, categoryId), live(menus, ctx.appId))),
    refuse: ([c]: { restaurantId: number }[], product) => {
      if (!c || c.restaurantId !== restaurantOf(product))
        throw bodyError("category_id", "Must be a category of a menu of the product's restaurant.");
    },
  };
}

type FactsInput = { calories?: number | null; carbs?: number | null; protein?: number | null; fat?: number | null };
const factColumns = (n: FactsInput) => ({
  calories: n.calories ?? null,
  carbs: n.carbs ?? null,
  protein: n.protein ?? null,
  fat: n.fat ?? null,
});

/** The facts given, replacing the product's (`replace`), in the batch of its change. */
function nutritionStatements(
  ctx: ServiceContext,
  productId: number | SQL,
  body: Pick<ProductFields, "nutritions" | "nutrition_options">,
  replace: boolean,
): Stmt[] {
  const out: Stmt[] = [];
  const ofProduct = (sized: boolean) =>
    and(
      live(nutritions, ctx.appId),
      eq(nutritions.productId, productId),
      sized ? sql`${nutritions.size} IS NOT NULL` : sql`${nutritions.size} IS NULL`,
    );
  if (body.nutritions !== undefined) {
    if (replace) out.push(ctx.db.update(nutritions).set(softDeleted()).where(ofProduct(false)));
    if (body.nutritions)
      out.push(ctx.db.insert(nutritions).values({ appId: ctx.appId, productId, ...factColumns(body.nutritions) }));
  }
  if (body.nutrition_options !== undefined) {
    if (replace) out.push(ctx.db.update(nutritions).set(softDeleted()).where(ofProduct(true)));
    for (const [i, n] of body.nutrition_options.entries())
      out.push(
        ctx.db.insert(nutritions).values({ appId: ctx.appId, productId, size: n.size, ordering: i, ...factColumns(n) }),
      );
  }
  return out;
}

export async function createProduct(ctx: ServiceContext, body: CreateProduct): Promise<ProductDetails> {
  await runChecks(ctx, [
    restaurantNamed(ctx, body.restaurant_id),
    productCategoryCheck(ctx, () => body.restaurant_id, body.category_id),
  ]);
  return createAndRead(
    ctx,
    productRows.insert(ctx, {
      ...productColumns(body),
      appId: ctx.appId,
      restaurantId: body.restaurant_id,
      nameEn: body.name_en,
      nameAr: body.name_ar,
      priceMinor: body.price,
    }),
    (id) => insertedRowEvent("meal_product.created", products, { id }),
    (id) => productRead(ctx, id, merchantView),
    (id) => nutritionStatements(ctx, id, body, false),
  );
}

export async function updateProduct(ctx: ServiceContext, id: number, body: ProductFields): Promise<ProductDetails> {
  await findChecked(ctx, productRows, id, [
    productCategoryCheck(ctx, (product: ProductRow) => product.restaurantId, body.category_id),
  ]);
  return writeAndRead(
    ctx,
    changed(ctx, "meal_product.updated", id),
    [
      productRows.update(ctx, id, { ...productColumns(body), modifiedAt: nowIso() }),
      ...nutritionStatements(ctx, id, body, true),
    ],
    productRead(ctx, id, merchantView),
  );
}

/** Refused while plan options offer it or combos contain it. */
export async function deleteProduct(ctx: ServiceContext, id: number): Promise<void> {
  await productRows.find(ctx, id);
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
  const planIds = [...new Set(options.map((o) => o.planId))];
  const comboIds = comboRows.map((k) => k.id);
  refuseWhileUsed(
    "product_in_use",
    { plans: planIds, combos: comboIds },
    `Plans ${planIds.join(", ") || "none"} offer this product and combos ${comboIds.join(", ") || "none"} ` +
      "contain it; remove it from them first.",
  );
  await write(ctx, changed(ctx, "meal_product.deleted", id), [
    productRows.softDelete(ctx, id),
    ctx.db
      .update(nutritions)
      .set(softDeleted())
      .where(and(live(nutritions, ctx.appId), eq(nutritions.productId, id))),
  ]);
}
