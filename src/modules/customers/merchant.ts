import { createRouter } from "../../core/openapi";

/**
 * The customers module's merchant routes (under /order/v1), one router per resource. Fixed paths
 * (`/merchant/customers/geography/...`) are mounted before `/merchant/customers/{customer_id}/`.
 */
export const customersMerchantRouter = createRouter();
