/** What other modules and the app may use of the meals module. */
export { mealErrorCodes } from "./errors";
export { mealEvents } from "./events";
export { mealsMerchantRouter } from "./merchant";
export { plansPublicRouter, restaurantsPublicRouter } from "./public";
