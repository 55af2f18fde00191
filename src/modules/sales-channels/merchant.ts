import { createRouter } from "../../core/openapi";
import { channelPlansRouter } from "./plans/merchant";
import { channelProfileRouter } from "./profile/merchant";
import { connectionRequestsRouter } from "./requests/merchant";

/** The merchant's sales channel routes (under /api/v1/sales-channels/): connections, profile, plan listings. */
export const salesChannelsMerchantRouter = createRouter();
salesChannelsMerchantRouter.route("/", connectionRequestsRouter);
salesChannelsMerchantRouter.route("/", channelProfileRouter);
salesChannelsMerchantRouter.route("/", channelPlansRouter);
