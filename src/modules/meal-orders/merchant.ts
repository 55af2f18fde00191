import { createRouter } from "../../core/openapi";
import { channelSubscriptionsMerchantRouter } from "./channel-subscriptions/routes";
import { complaintsMerchantRouter } from "./complaints/merchant";
import { logisticsMerchantRouter } from "./logistics/merchant";
import { mealCheckoutMerchantRouter } from "./orders/routers";

/** The merchant's meals commerce (under /api/v1): logistics, and what sales channels sold. */
export const mealOrdersMerchantRouter = createRouter();
mealOrdersMerchantRouter.route("/", logisticsMerchantRouter);
mealOrdersMerchantRouter.route("/", mealCheckoutMerchantRouter);
mealOrdersMerchantRouter.route("/", complaintsMerchantRouter);
mealOrdersMerchantRouter.route("/", channelSubscriptionsMerchantRouter);
