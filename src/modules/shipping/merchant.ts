import { createRouter } from "../../core/openapi";
import { shippingConfigRouter } from "./config/merchant";
import { couriersRouter } from "./couriers/merchant";
import { labelsMerchantRouter } from "./labels/merchant";
import { pickupLocationsRouter } from "./pickup-locations/merchant";
import { shipmentsRouter } from "./shipments/merchant";

/**
 * The merchant's shipping routes (under /order/v1/merchant/shipments/): the fixed paths (couriers,
 * config, pickup locations) before `{shipment_id}/`. Labels (labels/) mount their own before it too.
 */
export const shippingMerchantRouter = createRouter()
  .route("/", couriersRouter)
  .route("/", shippingConfigRouter)
  .route("/", pickupLocationsRouter)
  .route("/", labelsMerchantRouter)
  .route("/", shipmentsRouter);
