import { makeServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { createRoute, createRouter, idParam, problemResponsesFor, z } from "../../../core/openapi";
import { checkInvoicePdfLink, PDF_LINK_TTL_SECONDS, PDF_ROUTE_PATH } from "./links";
import { invoicePdf } from "./pdf/render";
import { PdfQuerySchema } from "./schemas";

/**
 * The invoice as a PDF, for the links in `invoice_pdf_en`, `invoice_pdf_ar` and `invoice_pdf` (both
 * languages on one page). Opened by a browser, so it takes no header at all: the store, the invoice,
 * the language and the expiry are in the signed query string.
 */
const invoicePdfRoute = createRoute({
  method: "get",
  path: PDF_ROUTE_PATH,
  operationId: "getInvoicePdf",
  summary: "Invoice PDF",
  tags: ["Invoices"],
  security: [],
  "x-audience": "public",
  "x-beyond-spec":
    "The documents `invoice_pdf_en` and `invoice_pdf_ar` link to (the spec names the links, not where they lead), " +
    "and the bilingual one of `invoice_pdf`, beyond the spec.",
  description:
    "The invoice as an A4 PDF in English, Arabic (right to left) or both side by side (`bilingual`), with the " +
    "seller's VAT number, CRN and national address and the invoice's ZATCA QR code (Phase 2's once its e-invoice " +
    "is signed). " +
    `Needs no token and no \`app-id\`: only a link from an invoice, which works for ${PDF_LINK_TTL_SECONDS / 86400} days. ` +
    "A standard (B2B) invoice is shared only once ZATCA cleared it: 409 `einvoice_not_cleared` before.",
  request: { params: idParam("invoice_id"), query: PdfQuerySchema },
  responses: {
    200: {
      description: "The PDF.",
      content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...problemResponsesFor({
      400: ["validation_error"],
      403: ["invalid_link_signature", "link_expired"],
      404: ["invoice_not_found"],
      409: ["einvoice_not_cleared"],
      500: ["internal_error"],
    }),
  },
});

export const invoicesPublicRouter = createRouter().openapi(invoicePdfRoute, async (c) => {
  const { invoice_id: invoiceId } = c.req.valid("param");
  const q = c.req.valid("query");
  const secret = c.env.LINK_SIGNING_SECRET;
  const link = { appId: q.app_id, invoiceId, lang: q.lang, expires: q.expires, signature: q.signature };
  const check = await checkInvoicePdfLink(secret, link);
  if (check === "invalid") {
    throw ApiError.forbidden(
      "The link's signature does not match it: use the invoice's own link.",
      "invalid_link_signature",
    );
  }
  if (check === "expired") {
    throw ApiError.forbidden("The link expired: read the invoice again for a fresh one.", "link_expired");
  }
  const ctx = makeServiceContext(c.get("db"), q.app_id, c.env, (p) => c.executionCtx.waitUntil(p));
  const origin = new URL(c.req.url).origin;
  const pdf = await invoicePdf(ctx, invoiceId, q.lang, { origin, secret, assets: c.env.ASSETS });
  return c.body(pdf.bytes, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${pdf.filename}"`,
    // The invoice changes when it is paid or refunded: a browser may keep it a minute, no shared cache at all.
    "Cache-Control": "private, max-age=60",
  });
});
