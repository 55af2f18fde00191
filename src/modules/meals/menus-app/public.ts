import { cachedJson } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { publicRoute } from "../../../core/routes";
import { MenuSchema } from "../menus/schemas";
import { menuDetails } from "../menus/service";
import { MenuAddOnListSchema, MenuOptionCategoryListSchema, MenuSummaryListSchema } from "./schemas";
import { ADD_ON_LIST, listMenuAddOns, listMenuOptions, listMenus, MENU_LIST, OPTION_CATEGORY_LIST } from "./service";

/** Menus (MM6), mounted under /api/v1: public reads, cached at the edge. */

const tags = ["Meals catalogue: plans"];
const menuId = idParam("menu_id");

const listMenusRoute = publicRoute({
  method: "get",
  path: "/menus/",
  operationId: "listMealMenus",
  summary: "List Menus",
  tags,
  specId: "MM6",
  cached: true,
  description: "The store's menus (of its active restaurants), each with its restaurant. Filter by `restaurant_id`.",
  request: { query: listQuerySchema(MENU_LIST) },
  responses: { 200: jsonContent(MenuSummaryListSchema, "A page of menus.") },
});

const menuDetailsRoute = publicRoute({
  method: "get",
  path: "/menus/{menu_id}/",
  operationId: "getMealMenu",
  summary: "Menu Details",
  tags,
  specId: "MM6",
  cached: true,
  errors: { 404: ["menu_not_found"] },
  description:
    "A menu with all its active categories, products and combos, for any date: the same body as the " +
    "plans' Menu Details (`/public-api/v1/menus/{menu_id}/`).",
  request: { params: menuId },
  responses: { 200: jsonContent(MenuSchema, "The menu.") },
});

const addOnsRoute = publicRoute({
  method: "get",
  path: "/menus/{menu_id}/add-ons/",
  operationId: "listMealMenuAddOns",
  summary: "Menu Add-Ons Details",
  tags,
  specId: "MM6",
  cached: true,
  errors: { 404: ["menu_not_found"] },
  description:
    "What may be ordered on top of a plan's meals (an add-on order): the menu's products that are not plan " +
    "meals (`is_sub` false), active and in stock, in its active categories, with the `price` they cost after " +
    "their discount. A product's `off_days` say on which weekdays it is not served.",
  request: { params: menuId, query: listQuerySchema(ADD_ON_LIST) },
  responses: { 200: jsonContent(MenuAddOnListSchema, "A page of add-ons.") },
});

const optionsRoute = publicRoute({
  method: "get",
  path: "/menus/{menu_id}/options/",
  operationId: "listMealMenuOptions",
  summary: "Menu Options",
  tags,
  specId: "MM6",
  cached: true,
  errors: { 404: ["menu_not_found"] },
  description:
    "The menu's active categories, a page of them, each with its active products (plan meals, `is_sub`, " +
    "and others) and their nutrition facts. Filter the categories by `is_sub`.",
  request: { params: menuId, query: listQuerySchema(OPTION_CATEGORY_LIST) },
  responses: { 200: jsonContent(MenuOptionCategoryListSchema, "A page of categories with their products.") },
});

export const menusAppPublicRouter = createRouter()
  .openapi(listMenusRoute, (c) =>
    cachedJson(c, async () => ({ body: envelopeOf(c, await listMenus(serviceContext(c), listQueryOf(c, MENU_LIST))) })),
  )
  .openapi(menuDetailsRoute, (c) =>
    cachedJson(c, async () => ({ body: await menuDetails(serviceContext(c), c.req.valid("param").menu_id) })),
  )
  .openapi(addOnsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listMenuAddOns(serviceContext(c), c.req.valid("param").menu_id, listQueryOf(c, ADD_ON_LIST)),
      ),
    })),
  )
  .openapi(optionsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listMenuOptions(serviceContext(c), c.req.valid("param").menu_id, listQueryOf(c, OPTION_CATEGORY_LIST)),
      ),
    })),
  );
