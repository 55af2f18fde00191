/** What the app and other modules may use of meals commerce. */
import { onOrderPaid } from "../orders";
import { mealPaidStatements } from "./checkout/paid";

// Paying a meal order starts its subscription (or adds its add-ons) in the paying batch, wherever
// it is paid: registered when the module loads (the app, and so every fetch, queue and scheduled
// handler, imports it), so the orders module never imports meal-orders.
onOrderPaid("meal", mealPaidStatements);

export { mealOrdersCustomerRouter } from "./customer";
export { mealOrderErrorCodes } from "./errors";
export { mealOrderEvents } from "./events";
export { mealOrdersMerchantRouter } from "./merchant";
/** Has Purchased Plan, mounted under /api/v3 beside the meals module's Plans v3. */
export { planPurchasesCustomerRouter } from "./purchases/customer";
