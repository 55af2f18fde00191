import { createRouter } from "../../core/openapi";
import { cartsMerchantRouter } from "./carts/merchant";
import { checkoutMerchantRouter } from "./checkout/routes";
import { einvoiceUnitsMerchantRouter } from "./einvoice-units/merchant";
import { fulfillmentsMerchantRouter } from "./fulfillments/merchant";
import { invoicesMerchantRouter } from "./invoices/merchant";
import { ordersRouter } from "./orders/merchant";
import { recurringMerchantRouter } from "./recurring/merchant";
import { refundsRouter } from "./refunds/merchant";
import { customerStatisticsRouter } from "./statistics/merchant";
import { chargeWalletRouter } from "./store-wallet/charge";
import { storeWalletRouter } from "./store-wallet/merchant";
import { subscriptionsMerchantRouter } from "./subscriptions/merchant";
import { transactionsRouter } from "./transactions/merchant";

/** The merchant's commerce routes (under /order/v1/merchant/), one router per resource. */
export const ordersMerchantRouter = createRouter()
  .route("/", cartsMerchantRouter)
  .route("/", checkoutMerchantRouter)
  .route("/", ordersRouter)
  .route("/", recurringMerchantRouter)
  .route("/", subscriptionsMerchantRouter)
  .route("/", fulfillmentsMerchantRouter)
  .route("/", customerStatisticsRouter)
  .route("/", transactionsRouter)
  .route("/", refundsRouter)
  .route("/", invoicesMerchantRouter)
  .route("/", einvoiceUnitsMerchantRouter)
  .route("/", chargeWalletRouter)
  .route("/", storeWalletRouter);
