import { createRouter } from "../../core/openapi";
import { featuredVouchersRouter } from "./featured/customer";

/** The customer app's voucher routes (under /order/v1): featured vouchers at checkout. */
export const vouchersCustomerRouter = createRouter().route("/", featuredVouchersRouter);
