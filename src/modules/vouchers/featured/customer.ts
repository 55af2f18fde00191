import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { FeaturedVoucherListSchema } from "./schemas";
import { FEATURED_VOUCHER_LIST, listFeaturedVouchers } from "./service";

export const listFeaturedVouchersRoute = customerRoute({
  method: "get",
  path: "/checkout/featured-vouchers/",
  operationId: "listFeaturedVouchers",
  summary: "Featured Vouchers",
  tags: ["Customer app: checkout"],
  specId: "CA14",
  description:
    "The vouchers the store features at checkout that this customer can use now: enabled, in their window, " +
    "not used up, and under the customer's own limit. Apply one by its `code` to a cart.",
  request: { query: listQuerySchema(FEATURED_VOUCHER_LIST) },
  responses: { 200: jsonContent(FeaturedVoucherListSchema, "A page of featured vouchers.") },
});

export const featuredVouchersRouter = createRouter().openapi(listFeaturedVouchersRoute, async (c) =>
  c.json(
    envelopeOf(
      c,
      await listFeaturedVouchers(serviceContext(c), customerOf(c).customerId, listQueryOf(c, FEATURED_VOUCHER_LIST)),
    ),
    200,
  ),
);
