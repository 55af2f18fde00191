import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { createRouter, idParam, jsonBody, jsonContent, z } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { labelPdf } from "./render";
import { LABELS_PER_PURCHASE_MAX, LabelPurchaseSchema, PurchaseLabelsSchema, ShippingLabelListSchema } from "./schemas";
import { LABEL_LIST, LABEL_PDF_PATH, listLabels, purchaseLabels } from "./service";

const tags = ["Shipments"];

export const listShippingLabelsRoute = merchantRoute({
  tags,
  method: "get",
  path: "/merchant/shipments/labels/",
  operationId: "listShippingLabels",
  summary: "Shipping Labels",
  specId: "MH2",
  permission: "can_read_shipment",
  description:
    "The labels the store bought, newest first: the shipment, its courier and tracking number, what the store " +
    "wallet was charged, and `label_url`, the label as an A6 PDF. Filters on the shipment, order, courier, " +
    "tracking number, cost and purchase date; `search` matches the tracking number.",
  request: { query: listQuerySchema(LABEL_LIST) },
  responses: { 200: jsonContent(ShippingLabelListSchema, "A page of shipping labels.") },
});

export const purchaseShippingLabelsRoute = merchantRoute({
  tags,
  method: "post",
  path: "/merchant/shipments/labels/",
  operationId: "purchaseShippingLabels",
  summary: "Purchase Shipment Labels",
  specId: "MH3",
  permission: "can_write_shipment",
  idempotent: true,
  description:
    `Buys a label for each shipment named (1 to ${LABELS_PER_PURCHASE_MAX}), all or none: each must be the ` +
    "store's (404 `shipment_not_found`) and in status `created` (409 `invalid_state_transition` naming the first " +
    "that is not), and of `courier_id` when given (400). Each label costs the shipment's `cost` (its courier's " +
    "price), taken together from the store wallet: 409 `insufficient_balance` with `available` and `required` " +
    "when the balance does not cover them, and nothing is bought. Each shipment moves to `label_purchased` and " +
    "gets its `label_url`; emits `shipment.label_purchased` and `shipment.status_changed` per shipment. " +
    "A shipment holding a cancelled fulfillment gets no label: 409 `fulfillment_not_shippable` with its " +
    "`shipment_id` and `fulfillment_ids` (cancel it and ship the lines still due in a new one). " +
    "Send an `Idempotency-Key`: a retry is answered again, never charged twice.",
  request: { body: jsonBody(PurchaseLabelsSchema) },
  errors: {
    404: ["shipment_not_found"],
    409: ["invalid_state_transition", "fulfillment_not_shippable", "insufficient_balance"],
  },
  responses: { 201: jsonContent(LabelPurchaseSchema, "The labels bought, and what the wallet holds after.") },
});

export const getShippingLabelPdfRoute = merchantRoute({
  tags,
  method: "get",
  path: LABEL_PDF_PATH,
  operationId: "getShippingLabelPdf",
  summary: "Shipping Label PDF",
  beyondSpec: "The document a label's `label_url` leads to: the spec names labels, not their printable form.",
  permission: "can_read_shipment",
  description:
    "The label as an A6 PDF (105 x 148 mm) to print: the courier, the tracking number as a Code 128 barcode, " +
    "recipient and sender with Arabic and English headings, the order reference and the amount to collect " +
    "on delivery. Rendered on each request from the shipment as it is now: a label whose shipment was " +
    "cancelled (`voided_at`) is marked VOID across its barcode.",
  request: { params: idParam("label_id") },
  errors: { 404: ["shipping_label_not_found"] },
  responses: {
    200: {
      description: "The PDF.",
      content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
    },
  },
});

export const labelsMerchantRouter = createRouter();
labelsMerchantRouter.openapi(listShippingLabelsRoute, async (c) =>
  c.json(
    envelopeOf(c, await listLabels(serviceContext(c), listQueryOf(c, LABEL_LIST), new URL(c.req.url).origin)),
    200,
  ),
);
labelsMerchantRouter.openapi(purchaseShippingLabelsRoute, async (c) => {
  const bought = await purchaseLabels(serviceContext(c), c.req.valid("json"), new URL(c.req.url).origin);
  return c.json(
    {
      results: bought.labels,
      total_cost: toMajor(bought.totalMinor),
      currency: bought.currency,
      wallet_balance: toMajor(bought.balanceMinor),
    },
    201,
  );
});
labelsMerchantRouter.openapi(getShippingLabelPdfRoute, async (c) => {
  const pdf = await labelPdf(serviceContext(c), c.req.valid("param").label_id, c.env.ASSETS);
  return c.body(pdf.bytes, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${pdf.filename}"`,
    // The shipment's addresses may still change before pickup: no shared cache, a minute in the browser.
    "Cache-Control": "private, max-age=60",
  });
});
