import { mealPaidStatements } from "./modules/meal-orders";
import { onOrderPaid } from "./modules/orders";

/**
 * What one module registers with another, done before any router, queue batch or cron run can use
 * it (app.ts, background.ts): modules load when first needed, so no registration may ride on a
 * module's being imported by someone else.
 */
let wired = false;

export function wireModules(): void {
  if (wired) return;
  wired = true;
  // Paying a meal order starts its subscription (or adds its add-ons) in the paying batch, wherever
  // it is paid; the orders module never imports meal-orders.
  onOrderPaid("meal", mealPaidStatements);
}
