import { createRouter } from "../../core/openapi";
import { voucherDiscountRouter } from "./quote/merchant";
import { voucherRecordsRouter } from "./records/merchant";
import { voucherUsageRouter } from "./usage/merchant";

/**
 * The merchant's voucher routes (under /order/v1/merchant/vouchers/). The fixed path `discount/`
 * comes before `{voucher_id}/`.
 */
export const vouchersMerchantRouter = createRouter()
  .route("/", voucherDiscountRouter)
  .route("/", voucherUsageRouter)
  .route("/", voucherRecordsRouter);
