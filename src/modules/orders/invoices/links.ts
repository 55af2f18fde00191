import { signLink, verifyLink } from "../../../core/crypto";

/**
 * The links to an invoice's PDF: no token (a customer opens them from an e-mail or the app), so the
 * store, the invoice, the language and the expiry are signed with LINK_SIGNING_SECRET.
 */

/** English, Arabic (right to left), or both on one page (`bilingual`, as Saudi tax invoices are printed). */
export const PDF_LANGS = ["en", "ar", "bilingual"] as const;
export type PdfLang = (typeof PDF_LANGS)[number];

/** Where the orders module's public router is mounted (app.ts `PREFIXES.customerCommerce`). */
const ORDERS_PREFIX = "/order/v1";
/** The public route's path, as the router declares it. */
export const PDF_ROUTE_PATH = "/invoices/{invoice_id}/pdf/";

const HOUR = 3600;
/** A link works for 7 days; its expiry is rounded up to the hour so that reads within the hour give the same link. */
export const PDF_LINK_TTL_SECONDS = 7 * 24 * HOUR;

const parts = (appId: number, invoiceId: number, lang: PdfLang, expires: number) =>
  ["invoice-pdf", appId, invoiceId, lang, expires] as const;

/** The signed link to an invoice's PDF in `lang`, valid for at least 7 days from `nowMs`. */
export async function invoicePdfLink(
  secret: string,
  origin: string,
  appId: number,
  invoiceId: number,
  lang: PdfLang,
  nowMs = Date.now(),
): Promise<string> {
  const expires = Math.ceil((nowMs / 1000 + PDF_LINK_TTL_SECONDS) / HOUR) * HOUR;
  const signature = await signLink(secret, ...parts(appId, invoiceId, lang, expires));
  const query = new URLSearchParams({ lang, app_id: String(appId), expires: String(expires), signature });
  return `${origin}${ORDERS_PREFIX}${PDF_ROUTE_PATH.replace("{invoice_id}", String(invoiceId))}?${query}`;
}

/** Whether a PDF link's signature is this Worker's and the link has not expired. */
export async function checkInvoicePdfLink(
  secret: string,
  link: { appId: number; invoiceId: number; lang: PdfLang; expires: number; signature: string },
  nowMs = Date.now(),
): Promise<"valid" | "expired" | "invalid"> {
  const signed = await verifyLink(
    secret,
    link.signature,
    ...parts(link.appId, link.invoiceId, link.lang, link.expires),
  );
  if (!signed) return "invalid";
  return link.expires * 1000 <= nowMs ? "expired" : "valid";
}
