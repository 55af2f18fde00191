import { createRouter } from "../../core/openapi";
import { channelSubscriptionsCustomerRouter } from "./channel-subscriptions/routes";
import { complaintsCustomerRouter } from "./complaints/customer";
import { mealCheckoutCustomerRouter } from "./orders/routers";
import { subordersCustomerRouter } from "./suborders/customer";
import { subscriptionsCustomerRouter } from "./subscriptions/customer";

/** The customer app's meals commerce (under /api/v1): checkout, orders, subscriptions, suborders, complaints. */
export const mealOrdersCustomerRouter = createRouter();
mealOrdersCustomerRouter.route("/", subscriptionsCustomerRouter);
mealOrdersCustomerRouter.route("/", subordersCustomerRouter);
mealOrdersCustomerRouter.route("/", complaintsCustomerRouter);
mealOrdersCustomerRouter.route("/", channelSubscriptionsCustomerRouter);
mealOrdersCustomerRouter.route("/", mealCheckoutCustomerRouter);
