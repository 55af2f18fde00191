import { createRouter } from "../../core/openapi";
import { invoicesPublicRouter } from "./invoices/public";
import { payLinkRouter } from "./payments/pay-link";
import { paymentsPublicRouter } from "./payments/public";

/** Routes without a token (under /order/v1): pay links, gateway callbacks, invoice documents. */
export const ordersPublicRouter = createRouter()
  .route("/", payLinkRouter)
  .route("/", paymentsPublicRouter)
  .route("/", invoicesPublicRouter);
