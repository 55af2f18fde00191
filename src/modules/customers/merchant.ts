import { createRouter } from "../../core/openapi";
import { geographyMerchantRouter } from "./geography/merchant";
import { customerLocationsRouter } from "./locations/merchant";
import { customerMembershipsRouter } from "./memberships/merchant";
import { notificationsMerchantRouter } from "./notifications/merchant";
import { customerRecordsRouter } from "./records/merchant";
import { customerWalletsRouter } from "./wallets/merchant";

/**
 * The customers module's merchant routes (under /order/v1), one router per resource. Fixed paths
 * are mounted before `/merchant/customers/{customer_id}/`; geography is under `/merchant/geography/`.
 */
export const customersMerchantRouter = createRouter();
customersMerchantRouter.route("/", geographyMerchantRouter);
// Customer records, then what hangs off one customer (`{customer_id}/locations/`, `/memberships/`).
customersMerchantRouter.route("/", customerRecordsRouter);
customersMerchantRouter.route("/", customerLocationsRouter);
customersMerchantRouter.route("/", customerMembershipsRouter);
customersMerchantRouter.route("/", customerWalletsRouter);
customersMerchantRouter.route("/", notificationsMerchantRouter);
