import { cachedJson } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { publicRoute } from "../../../core/routes";
import { ItemListSchema, ItemSchema } from "../catalogue-items/schemas";
import {
  BrowseItemsQuerySchema,
  CatalogueCategoryListSchema,
  CatalogueCategorySchema,
  checkItemsParams,
} from "./schemas";
import {
  CATALOGUE_CATEGORY_LIST,
  getActiveItem,
  getCatalogueCategory,
  listActiveItems,
  listCatalogueCategories,
} from "./service";

/**
 * The customer app's catalogue (under /order/v1): public reads with `app-id`, no login, cached at
 * the edge. Every catalogue write of the merchant (items.merchant.ts) makes them fresh at once.
 * A fixed path under /items/ must come before `{item_id}/`.
 */

const tags = ["Customer app: catalogue"];
const ACTIVE =
  "An item is active when it is not deleted, not plan-only, and today (the store's date) is within " +
  "its `served_from_date`..`served_to_date`. Served times, off days and off dates do not hide it: " +
  "they say when it is served.";
const STOCK_NOTE =
  "`stock` is as of the cached copy (a write by the merchant refreshes it; elsewhere it may lag " +
  "by up to the cache's bound below): checkout checks the units and decides.";

const listItemsRoute = publicRoute({
  method: "get",
  path: "/items/",
  operationId: "listCatalogueItems",
  summary: "List Items",
  tags,
  specId: "CA10",
  cached: true,
  description:
    `The store's active items, variants inside their item, each the full Item with its modifiers, ` +
    `bundle categories, images, categories, \`stock\` and \`discount.price_after_discount\`. ${ACTIVE} ` +
    `${STOCK_NOTE} The \`in_stock\` filter is evaluated at the same time as the copy.`,
  request: { query: BrowseItemsQuerySchema },
  responses: { 200: jsonContent(ItemListSchema, "A page of active items.") },
});

const itemRoute = publicRoute({
  method: "get",
  path: "/items/{item_id}/",
  operationId: "getCatalogueItem",
  summary: "Item Details",
  tags,
  specId: "CA10",
  cached: true,
  errors: { 404: ["item_not_found"] },
  description:
    `One active item, with its variants. A deleted, plan-only or unknown item, a variant, one out ` +
    `of its served dates or another store's is a 404. ${STOCK_NOTE}`,
  request: { params: idParam("item_id") },
  responses: { 200: jsonContent(ItemSchema, "The item.") },
});

const listCategoriesRoute = publicRoute({
  method: "get",
  path: "/categories/",
  operationId: "listCatalogueCategories",
  summary: "List Item Categories",
  tags,
  specId: "CA10",
  cached: true,
  description:
    "The store's item categories, each with `items_count`, its active items; filter List Items by " +
    "`category_id` for them.",
  request: { query: listQuerySchema(CATALOGUE_CATEGORY_LIST) },
  responses: { 200: jsonContent(CatalogueCategoryListSchema, "A page of item categories.") },
});

const categoryRoute = publicRoute({
  method: "get",
  path: "/categories/{category_id}/",
  operationId: "getCatalogueCategory",
  summary: "Item Category Details",
  tags,
  specId: "CA10",
  cached: true,
  errors: { 404: ["item_category_not_found"] },
  description: "One of the store's item categories, with `items_count`, its active items.",
  request: { params: idParam("category_id") },
  responses: { 200: jsonContent(CatalogueCategorySchema, "The item category.") },
});

export const catalogueBrowseRouter = createRouter()
  .openapi(listItemsRoute, (c) => {
    checkItemsParams(new URL(c.req.url).searchParams);
    return cachedJson(c, async () => {
      const { value, validUntil } = await listActiveItems(serviceContext(c), c.req.valid("query"));
      return { body: envelopeOf(c, value), until: validUntil };
    });
  })
  .openapi(itemRoute, (c) =>
    cachedJson(c, async () => {
      const { value, validUntil } = await getActiveItem(serviceContext(c), c.req.valid("param").item_id);
      return { body: value, until: validUntil };
    }),
  )
  .openapi(listCategoriesRoute, (c) => {
    // Parsed before the cache: only a valid request's body is stored.
    const q = listQueryOf(c, CATALOGUE_CATEGORY_LIST);
    return cachedJson(c, async () => {
      const { value, validUntil } = await listCatalogueCategories(serviceContext(c), q);
      return { body: envelopeOf(c, value), until: validUntil };
    });
  })
  .openapi(categoryRoute, (c) =>
    cachedJson(c, async () => {
      const { value, validUntil } = await getCatalogueCategory(serviceContext(c), c.req.valid("param").category_id);
      return { body: value, until: validUntil };
    }),
  );
