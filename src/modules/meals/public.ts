import { createRouter } from "../../core/openapi";
import { allergensPublicRouter } from "./allergens/public";
import { mealAppRouter } from "./app-configs/routes";
import { corporateLocationsCustomerRouter } from "./corporate-locations/routes";
import { menuDetailsPublicRouter, menusPublicRouter } from "./menus/public";
import { menusAppPublicRouter } from "./menus-app/public";
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
  .route("/", restaurantPublicRouter)
  // The customer app's menus, app configs, featured vouchers and corporate locations (MM6-MM9).
  .route("/", menusAppPublicRouter)
  .route("/", mealAppRouter)
  .route("/", corporateLocationsCustomerRouter);

/** Mounted under /public-api/v1: plans, and Menu Details. */
export const plansPublicRouter = createRouter().route("/", plansRouter).route("/", menuDetailsPublicRouter);
