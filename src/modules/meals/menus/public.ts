import { cachedJson } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { publicRoute } from "../../../core/routes";
import { RestaurantVariantListSchema } from "../restaurants/schemas";
import { PRODUCT_VARIANT_LIST } from "../restaurants/variants";
import { getCombo } from "./combos";
import { getProduct, listProductVariants, listWalletCreditProducts, WALLET_CREDIT_PRODUCT_LIST } from "./products";
import { ComboSchema, MenuQuerySchema, MenuSchema, ProductDetailsSchema, ProductListSchema } from "./schemas";
import { menuDetails, restaurantMenu } from "./service";

/**
 * The public reads of menus, products and combos, cached at the edge: those under /restaurants/
 * (mounted under /api/v1), and Menu Details (mounted under /public-api/v1 with the plans).
 */

const productId = idParam("product_id");
const R = "/restaurants/";
const tags = ["Meals catalogue: restaurants"];

const walletCreditRoute = publicRoute({
  method: "get",
  path: `${R}wallet-credit-products/`,
  operationId: "listWalletCreditProducts",
  summary: "Wallet Credit Products",
  tags,
  specId: "R9",
  cached: true,
  description: "Products that sell store credit (`wallet_credit`).",
  request: { query: listQuerySchema(WALLET_CREDIT_PRODUCT_LIST) },
  responses: { 200: jsonContent(ProductListSchema, "A page of wallet credit products.") },
});

const productRoute = publicRoute({
  method: "get",
  path: `${R}products/{product_id}/`,
  operationId: "getProduct",
  summary: "Product Details",
  tags,
  specId: "R7",
  cached: true,
  errors: { 404: ["product_not_found"] },
  description: "One active product with its nutrition facts.",
  request: { params: productId },
  responses: { 200: jsonContent(ProductDetailsSchema, "The product.") },
});

const productVariantsRoute = publicRoute({
  method: "get",
  path: `${R}products/{product_id}/variants/`,
  operationId: "listProductVariants",
  summary: "Product Variants List",
  tags,
  specId: "R11",
  cached: true,
  errors: { 404: ["product_not_found"] },
  description: "The restaurant variants (diets) the product belongs to.",
  request: { params: productId, query: listQuerySchema(PRODUCT_VARIANT_LIST) },
  responses: { 200: jsonContent(RestaurantVariantListSchema, "A page of variants.") },
});

const comboRoute = publicRoute({
  method: "get",
  path: `${R}combos/{combo_id}/`,
  operationId: "getCombo",
  summary: "Combo Details",
  tags,
  specId: "R8",
  cached: true,
  errors: { 404: ["combo_not_found"] },
  description: "One active combo with its products.",
  request: { params: idParam("combo_id") },
  responses: { 200: jsonContent(ComboSchema, "The combo.") },
});

const restaurantMenuRoute = publicRoute({
  method: "get",
  path: `${R}menus/{restaurant_id}/`,
  operationId: "getRestaurantMenu",
  summary: "Restaurant Menu",
  tags,
  specId: "R1",
  cached: true,
  errors: { 404: ["restaurant_not_found", "menu_not_found"], 409: ["restaurant_closed"] },
  description:
    "The restaurant's on-demand menu for one order date: its active categories, with the " +
    "active products served that weekday (a product's `off_days` leave it out) and the combos " +
    "whose products are all served. `order_date` defaults to the first date the restaurant " +
    "takes orders for: today where it is, plus `start_after` days, skipping its off days and " +
    "closed dates. A date in the past, before that, more than 90 days ahead or on a closed " +
    "day is a 400 naming the first good date.",
  request: { params: idParam("restaurant_id"), query: MenuQuerySchema },
  responses: { 200: jsonContent(MenuSchema, "The menu for `order_date`.") },
});

const menuDetailsRoute = publicRoute({
  method: "get",
  path: "/menus/{menu_id}/",
  operationId: "getMenu",
  summary: "Menu Details",
  tags: ["Meals catalogue: plans"],
  specId: "P4",
  cached: true,
  errors: { 404: ["menu_not_found"] },
  description:
    "A menu (a plan's `menu_id`, or a restaurant's `menu`) with all its active categories, " +
    "products and combos, for any date (`order_date` null).",
  request: { params: idParam("menu_id") },
  responses: { 200: jsonContent(MenuSchema, "The menu.") },
});

/** Under /restaurants/: their paths are fixed, so they go before the routes of one restaurant. */
export const menusPublicRouter = createRouter()
  .openapi(walletCreditRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listWalletCreditProducts(serviceContext(c), listQueryOf(c, WALLET_CREDIT_PRODUCT_LIST)),
      ),
    })),
  )
  .openapi(productRoute, (c) =>
    cachedJson(c, async () => ({ body: await getProduct(serviceContext(c), c.req.valid("param").product_id) })),
  )
  .openapi(productVariantsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listProductVariants(
          serviceContext(c),
          listQueryOf(c, PRODUCT_VARIANT_LIST),
          c.req.valid("param").product_id,
        ),
      ),
    })),
  )
  .openapi(comboRoute, (c) =>
    cachedJson(c, async () => ({ body: await getCombo(serviceContext(c), c.req.valid("param").combo_id) })),
  )
  .openapi(restaurantMenuRoute, (c) =>
    cachedJson(c, async () => {
      const { menu, validUntil } = await restaurantMenu(
        serviceContext(c),
        c.req.valid("param").restaurant_id,
        c.req.valid("query").order_date,
      );
      return { body: menu, until: validUntil };
    }),
  );

export const menuDetailsPublicRouter = createRouter().openapi(menuDetailsRoute, (c) =>
  cachedJson(c, async () => ({ body: await menuDetails(serviceContext(c), c.req.valid("param").menu_id) })),
);
