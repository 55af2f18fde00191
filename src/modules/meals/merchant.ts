import { invalidatesPublicCache } from "../../core/cache";
import { createRouter } from "../../core/openapi";
import { allergensMerchantRouter } from "./allergens/merchant";
import { corporateLocationsMerchantRouter } from "./corporate-locations/routes";
import { menusMerchantRouter } from "./menus/merchant";
import { MERCHANT_BASE } from "./operations";
import { planDaysMerchantRouter } from "./plans/days/merchant";
import { plansMerchantRouter } from "./plans/merchant";
import { planVersionsMerchantRouter } from "./plans/versions/merchant";
import { restaurantsMerchantRouter } from "./restaurants/merchant";

/**
 * The merchant writes of the meals side, under /merchant/meals/. Every successful write makes the
 * tenant's cached public reads a miss before it answers.
 */
export const mealsMerchantRouter = createRouter();
mealsMerchantRouter.use(`${MERCHANT_BASE}*`, invalidatesPublicCache());
mealsMerchantRouter
  .route("/", restaurantsMerchantRouter)
  .route("/", menusMerchantRouter)
  .route("/", allergensMerchantRouter)
  .route("/", plansMerchantRouter)
  .route("/", planVersionsMerchantRouter)
  .route("/", planDaysMerchantRouter)
  .route("/", corporateLocationsMerchantRouter);
