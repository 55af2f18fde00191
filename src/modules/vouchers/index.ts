export { voucherErrorCodes } from "./errors";
export { voucherEvents } from "./events";
export { type FeaturedVoucher, FeaturedVoucherListSchema, FeaturedVoucherSchema } from "./featured/schemas";
export { FEATURED_VOUCHER_LIST, listFeaturedVouchers } from "./featured/service";
export type { VoucherLine, VoucherQuote } from "./quote/price";
export { type VoucherResult, VoucherResultSchema } from "./quote/schemas";
export {
  type FoundVoucher,
  findVoucher,
  findVoucherOfCode,
  priceFoundVoucher,
  quoteVoucher,
  voucherResultView,
} from "./quote/service";
export { releaseVoucherStatements, useVoucherStatements, voucherUsedEventsSql } from "./usage/statements";
