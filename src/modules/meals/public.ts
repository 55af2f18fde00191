import { createRouter } from "../../core/openapi";
import { allergensPublicRouter } from "./allergens/public";
import { menuDetailsPublicRouter, menusPublicRouter } from "./menus/public";
import { plansRouter } from "./plans/public";
import { restaurantListsPublicRouter, restaurantPublicRouter } from "./restaurants/public";

/**
 * The public reads of the meals side, by where they are mounted. Order matters: the fixed paths
 * under /restaurants/ go before /restaurants/{restaurant_id}/, which would take them.
 */

/** Mounted under /api/v1: restaurants, their menus, products and combos, allergens, channel providers. */
export const restaurantsPublicRouter = createRouter()
  .route("/", restaurantListsPublicRouter)
  .route("/", allergensPublicRouter)
  .route("/", menusPublicRouter)
  .route("/", restaurantPublicRouter);

/** Mounted under /public-api/v1: plans, and Menu Details. */
export const plansPublicRouter = createRouter().route("/", plansRouter).route("/", menuDetailsPublicRouter);
