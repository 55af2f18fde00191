import { createRouter } from "../../../core/openapi";
import { channelOrdersCustomerRouter, channelOrdersMerchantRouter } from "../channel-orders/routes";
import { checkoutCustomerRouter } from "../checkout/customer";
import { mealOrdersCustomerRoutes } from "./customer";

/** Meals checkout and orders for the customer app: calculators, Place Order, add-ons, orders, renew, channel orders. */
export const mealCheckoutCustomerRouter = createRouter();
mealCheckoutCustomerRouter.route("/", checkoutCustomerRouter);
mealCheckoutCustomerRouter.route("/", mealOrdersCustomerRoutes);
mealCheckoutCustomerRouter.route("/", channelOrdersCustomerRouter);

/** What sales channels sold, for the merchant (MX3). */
export const mealCheckoutMerchantRouter = channelOrdersMerchantRouter;
