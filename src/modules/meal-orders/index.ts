/** What the app and other modules may use of meals commerce. */
export { mealPaidStatements } from "./checkout/paid";
export { mealOrderErrorCodes } from "./errors";
export { mealOrderEvents } from "./events";
