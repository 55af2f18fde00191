import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { UpdateVoucherUsageSchema, VoucherCodeParam, VoucherUsageSchema } from "./schemas";
import { updateVoucherUsage } from "./service";

export const updateVoucherUsageRoute = merchantRoute({
  method: "post",
  path: "/merchant/vouchers/{code}/usage/",
  operationId: "updateVoucherUsage",
  summary: "Update Voucher Usage",
  tags: ["Vouchers"],
  specId: "MV2",
  permission: "can_write_order",
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "Records (`use`) or gives back (`release`) the use of a voucher by one of the store's orders, and answers " +
    "the counts. A use is counted once per order: `use` again for the same order changes nothing. A use over " +
    "`usage_limit` or the customer's `per_customer_limit` is 409 `voucher_usage_limit_reached` (`limit` names " +
    "which); the check and the write are one batch, so concurrent uses never pass a limit. The voucher's status " +
    "and window are not checked (this is the merchant's own record). Emits `voucher.used` with `action` for each " +
    "change.",
  errors: { 404: ["voucher_not_found", "order_not_found", "customer_not_found"], 409: ["voucher_usage_limit_reached"] },
  request: { params: VoucherCodeParam, body: jsonBody(UpdateVoucherUsageSchema) },
  responses: { 200: jsonContent(VoucherUsageSchema, "The voucher's counts after the change.") },
});

export const voucherUsageRouter = createRouter().openapi(updateVoucherUsageRoute, async (c) =>
  c.json(await updateVoucherUsage(serviceContext(c), c.req.valid("param").code, c.req.valid("json")), 200),
);
