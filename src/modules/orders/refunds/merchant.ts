import { serviceContext } from "../../../core/context";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { linksOf } from "../http";
import { InvoiceDetailsSchema } from "../invoices/schemas";
import { PROVIDER_UNAVAILABLE_RESPONSE } from "../payments/public";
import { RefundInvoiceSchema } from "./schemas";
import { refundInvoice } from "./service";

export const refundInvoiceRoute = merchantRoute({
  method: "post",
  path: "/merchant/invoices/{invoice_id}/refund/",
  operationId: "refundInvoice",
  summary: "Refund Invoice",
  tags: ["Invoices"],
  specId: "MO8",
  permission: "can_write_order",
  idempotent: true,
  description:
    "Refunds a paid invoice by issuing a new invoice of type `refund` that points at it (`refunded_invoice`), " +
    "never an edit: by lines and quantities (`items`), by `amount` (spread over the lines), or whole (neither). " +
    "Each refund line carries its VAT split and `parent_invoice_item`. The money goes back the way it came: the " +
    "provider's part first (a card through its gateway; a bank transfer or cash is recorded as paid back by the " +
    "merchant), then the customer's cashback for what the wallet paid. The sum refunded never exceeds the sum " +
    "captured, under concurrency too (409 `refund_exceeds_captured` with `refundable_amount`). A refund of " +
    "everything moves the order to `refunded`. Emits `invoice.refunded`, `transaction.refunded`, and " +
    "`order.refunded` when whole.",
  request: { params: idParam("invoice_id"), body: jsonBody(RefundInvoiceSchema) },
  errors: {
    404: ["invoice_not_found"],
    409: ["invalid_state_transition", "nothing_to_refund", "refund_exceeds_captured", "payment_failed"],
  },
  responses: {
    201: jsonContent(InvoiceDetailsSchema, "The refund invoice with its lines and transactions."),
    ...PROVIDER_UNAVAILABLE_RESPONSE,
  },
});

export const refundsRouter = createRouter();
refundsRouter.openapi(refundInvoiceRoute, async (c) => {
  const links = linksOf(c);
  const { details } = await refundInvoice(
    serviceContext(c),
    c.env,
    c.req.valid("param").invoice_id,
    c.req.valid("json"),
    {
      origin: links.origin,
      secret: links.secret,
      withItems: true,
    },
  );
  return c.json(details!, 201);
});
