import { createRouter } from "../../core/openapi";
import { cartsCustomerRouter } from "./carts/customer";
import { checkoutCustomerRouter } from "./checkout/routes";
import { fulfillmentsCustomerRouter } from "./fulfillments/customer";
import { ordersCustomerRoutes } from "./orders/customer";
import { paymentMethodsCustomerRouter } from "./payment-methods/customer";
import { recurringCustomerRouter } from "./recurring/customer";
import { subscriptionsCustomerRouter } from "./subscriptions/customer";

/** The customer app's commerce routes (under /order/v1): carts, checkout, orders, payment methods. */
export const ordersCustomerRouter = createRouter()
  .route("/", cartsCustomerRouter)
  .route("/", checkoutCustomerRouter)
  .route("/", ordersCustomerRoutes)
  .route("/", recurringCustomerRouter)
  .route("/", subscriptionsCustomerRouter)
  .route("/", fulfillmentsCustomerRouter)
  .route("/", paymentMethodsCustomerRouter);
