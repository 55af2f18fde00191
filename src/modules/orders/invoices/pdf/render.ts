import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../../../core/context";
import { ApiError } from "../../../../core/errors";
import { type AssetFetcher, loadPdfFont } from "../../../../core/pdf/font";
import { apps } from "../../../../core/tenancy";
import { invoiceConfig, invoices } from "../../tables";
import type { PdfLang } from "../links";
import { refuseUncleared, standardSql } from "../service";
import { loadInvoices } from "../views";
import { renderInvoicePdf } from "./layout";

/** The zone invoice dates are printed in (the store settings' default zone). */
const STORE_TIMEZONE = "Asia/Riyadh";

export type InvoicePdf = { bytes: Uint8Array<ArrayBuffer>; filename: string };

/**
 * The invoice `id` of the store as a PDF in `lang`; 404 `invoice_not_found`. The font comes from
 * the static assets (`assets`, the ASSETS binding).
 */
export async function invoicePdf(
  ctx: ServiceContext,
  id: number,
  lang: PdfLang,
  env: { origin: string; secret: string; assets: AssetFetcher },
): Promise<InvoicePdf> {
  const { db, appId } = ctx;
  const [font, views, [seller, store, config]] = await Promise.all([
    loadPdfFont(env.assets),
    loadInvoices(ctx, [id], { origin: env.origin, secret: env.secret, withItems: true }),
    db.batch([
      db
        .select({
          name: invoices.sellerName,
          vatNumber: invoices.vatNumber,
          zatcaStatus: invoices.zatcaStatus,
          standard: standardSql,
        })
        .from(invoices)
        .where(eq(invoices.id, id)),
      db.select({ nameEn: apps.nameEn, nameAr: apps.nameAr }).from(apps).where(eq(apps.id, appId)),
      db
        .select({ en: invoiceConfig.footerEn, ar: invoiceConfig.footerAr })
        .from(invoiceConfig)
        .where(eq(invoiceConfig.appId, appId)),
    ]),
  ]);
  const invoice = views.get(id);
  if (!invoice) throw ApiError.notFound("invoice_not_found", `Invoice ${id}`);
  if (seller[0]) refuseUncleared(id, seller[0]);
  const storeName = (lang === "en" ? store[0]?.nameEn : store[0]?.nameAr) ?? "";
  const bytes = renderInvoicePdf(font, {
    lang,
    invoice,
    storeName,
    sellerName: seller[0]?.name ?? null,
    vatNumber: seller[0]?.vatNumber ?? null,
    footer: (lang === "en" ? config[0]?.en : config[0]?.ar) ?? null,
    timezone: STORE_TIMEZONE,
  });
  const name = invoice.serial === "-" ? `invoice-${invoice.id}` : invoice.serial;
  return { bytes, filename: `${name.replace(/[^A-Za-z0-9-]/g, "")}-${lang}.pdf` };
}
