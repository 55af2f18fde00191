import type { Context } from "hono";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent, z } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import type { AppEnv } from "../../../env";
import { readInvoiceConfig, updateInvoiceConfig } from "./config";
import { InvoiceConfigSchema, InvoiceDetailsSchema, InvoiceListSchema, UpdateInvoiceConfigSchema } from "./schemas";
import { getInvoice, INVOICE_LIST, listInvoices, signedEInvoice } from "./service";

/**
 * Invoices (MO7) and Invoice Config (MO6). `/merchant/invoices/config/` is a fixed path: it is
 * registered before `/merchant/invoices/{invoice_id}/`, which would take it.
 */
const INVOICES = "/merchant/invoices/";
const CONFIG = `${INVOICES}config/`;
const tags = ["Invoices"];

/** What the views need of the request: where the PDF links point, and the secret that signs them. */
const linksOf = (c: Context<AppEnv>) => ({ origin: new URL(c.req.url).origin, secret: c.env.LINK_SIGNING_SECRET });

const getInvoiceConfigRoute = merchantRoute({
  method: "get",
  path: CONFIG,
  operationId: "getInvoiceConfig",
  summary: "Invoice Config",
  tags,
  specId: "MO6",
  permission: "can_retrieve_app_config",
  description: "The store's invoice settings: serial prefix, due days, PDF footers, ZATCA QR (defaults until changed).",
  responses: { 200: jsonContent(InvoiceConfigSchema, "The settings.") },
});

const updateInvoiceConfigRoute = merchantRoute({
  method: "post",
  path: CONFIG,
  operationId: "updateInvoiceConfig",
  summary: "Update Invoice Config",
  tags,
  specId: "MO6",
  permission: "can_update_app_config",
  description:
    "Changes some of the settings (POST, as the peer's configs do); the others keep their values. A new serial " +
    "prefix applies to serials assigned from now on; an empty footer removes it.",
  request: { body: jsonBody(UpdateInvoiceConfigSchema) },
  responses: { 200: jsonContent(InvoiceConfigSchema, "The settings as they are now.") },
});

const listInvoicesRoute = merchantRoute({
  method: "get",
  path: INVOICES,
  operationId: "listInvoices",
  summary: "List Invoices",
  tags,
  specId: "MO7",
  permission: "can_read_order",
  description:
    "The store's invoices and refund invoices, newest first. Filter by `status`, `type`, `order_id`, " +
    "`customer_id`, `issued_at__gte`/`__lte` and more; `search` matches the serial, the customer's name or mobile.",
  request: { query: listQuerySchema(INVOICE_LIST) },
  responses: { 200: jsonContent(InvoiceListSchema, "A page of invoices.") },
});

const invoiceDetailsRoute = merchantRoute({
  method: "get",
  path: `${INVOICES}{invoice_id}/`,
  operationId: "getInvoice",
  summary: "Invoice Details",
  tags,
  specId: "MO7",
  permission: "can_read_order",
  description: "One invoice with its lines (`items`, each with the item) and its payment or refund `transactions`.",
  request: { params: idParam("invoice_id") },
  errors: { 404: ["invoice_not_found"] },
  responses: { 200: jsonContent(InvoiceDetailsSchema, "The invoice.") },
});

const downloadEInvoiceRoute = merchantRoute({
  method: "get",
  path: `${INVOICES}{invoice_id}/e-invoice/`,
  operationId: "downloadEInvoice",
  summary: "Download E-Invoice",
  tags,
  beyondSpec: "ZATCA Phase 2: the signed UBL e-invoice of an invoice, which Saudi merchants must be able to produce.",
  permission: "can_read_order",
  description:
    "The invoice's signed ZATCA e-invoice (UBL 2.1 with the KSA extensions, its cryptographic stamp and QR), as " +
    "sent to ZATCA. `signed_einvoice_not_found` for the moment between issuing and signing; `einvoice_not_found` when " +
    "the invoice has none (`zatca_status` `not_required`, or no serial yet). A standard (B2B) invoice's is " +
    "the document ZATCA cleared, shared only once cleared: 409 `einvoice_not_cleared` before.",
  request: { params: idParam("invoice_id") },
  errors: {
    404: ["invoice_not_found", "einvoice_not_found", "signed_einvoice_not_found"],
    409: ["einvoice_not_cleared"],
  },
  responses: {
    200: {
      description: "The signed XML document.",
      content: { "application/xml": { schema: z.string().openapi({ format: "binary" }) } },
    },
  },
});

export const invoicesMerchantRouter = createRouter()
  .openapi(getInvoiceConfigRoute, async (c) => c.json(await readInvoiceConfig(c.get("db"), c.get("appId")), 200))
  .openapi(updateInvoiceConfigRoute, async (c) =>
    c.json(await updateInvoiceConfig(serviceContext(c), c.req.valid("json")), 200),
  )
  .openapi(listInvoicesRoute, async (c) => {
    const page = await listInvoices(serviceContext(c), listQueryOf(c, INVOICE_LIST), linksOf(c));
    return c.json(envelopeOf(c, page), 200);
  })
  .openapi(invoiceDetailsRoute, async (c) =>
    c.json(await getInvoice(serviceContext(c), c.req.valid("param").invoice_id, linksOf(c)), 200),
  )
  .openapi(downloadEInvoiceRoute, async (c) => {
    const { xml, filename } = await signedEInvoice(serviceContext(c), c.req.valid("param").invoice_id);
    return c.body(xml, 200, {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
    });
  });
