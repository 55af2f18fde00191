import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { GetVoucherDiscountSchema, VoucherResultSchema } from "./schemas";
import { getVoucherDiscount } from "./service";

export const getVoucherDiscountRoute = merchantRoute({
  method: "post",
  path: "/merchant/vouchers/discount/",
  operationId: "getVoucherDiscount",
  summary: "Get Voucher Discount",
  tags: ["Vouchers"],
  specId: "MV1",
  permission: "can_read_order",
  description:
    "What a code takes off a cart, without recording a use (a calculation: Update Voucher Usage records it). " +
    "Send the cart as `cart_amount` or as `items` (needed for a voucher limited to some items or categories), and " +
    "`delivery_fee` for a delivery voucher. A code that does not apply (unknown, disabled, not started, expired, " +
    "used up, over the customer's limit, below its minimum order, no eligible item) is a 200 with " +
    "`is_success: false` and `error_reason`. A percentage is rounded half up on the whole discount, then capped " +
    "by `max_discount_amount`; the discount is shared over the lines it covers in proportion to their amounts " +
    "(largest remainder), so `items[].discount_amount` sum exactly to it.",
  errors: { 404: ["customer_not_found"] },
  request: { body: jsonBody(GetVoucherDiscountSchema) },
  responses: { 200: jsonContent(VoucherResultSchema, "The voucher's result for this cart.") },
});

export const voucherDiscountRouter = createRouter().openapi(getVoucherDiscountRoute, async (c) =>
  c.json(await getVoucherDiscount(serviceContext(c), c.req.valid("json")), 200),
);
