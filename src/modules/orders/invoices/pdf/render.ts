import { eq } from "drizzle-orm";
import type { AssetFetcher } from "../../../../core/assets";
import type { ServiceContext } from "../../../../core/context";
import { ApiError } from "../../../../core/errors";
import { loadPdfFont } from "../../../../core/pdf/font";
import { storeSettingsOf, storeSettingsQuery } from "../../../account";
import { invoiceConfig, invoices } from "../../tables";
import type { PdfLang } from "../links";
import { refuseUncleared, standardSql } from "../service";
import { loadInvoices } from "../views";
import { renderInvoicePdf } from "./layout";

/** The zone invoice dates are printed in (the store settings' default zone). */
const STORE_TIMEZONE = "Asia/Riyadh";

export type InvoicePdf = { bytes: Uint8Array<ArrayBuffer>; filename: string };

/**
 * The invoice `id` of the store as a PDF in `lang` (`bilingual`: English and Arabic on one page);
 * 404 `invoice_not_found`. The seller's name and VAT number are the invoice's (fixed when it was
 * issued), its CRN and national address the store's settings; the QR is the invoice's current
 * `zatca_qr` (Phase 2's once its e-invoice is signed). The font comes from the static assets
 * (`assets`, the ASSETS binding).
 */
export async function invoicePdf(
  ctx: ServiceContext,
  id: number,
  lang: PdfLang,
  env: { origin: string; secret: string; assets: AssetFetcher },
): Promise<InvoicePdf> {
  const { db, appId } = ctx;
  const [font, views, [seller, settingsRows, config]] = await Promise.all([
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
      storeSettingsQuery(db, appId),
      db
        .select({ en: invoiceConfig.footerEn, ar: invoiceConfig.footerAr })
        .from(invoiceConfig)
        .where(eq(invoiceConfig.appId, appId)),
    ]),
  ]);
  const invoice = views.get(id);
  if (!invoice) throw ApiError.notFound("invoice_not_found", `Invoice ${id}`);
  if (seller[0]) refuseUncleared(id, seller[0]);
  const settings = storeSettingsOf(appId, settingsRows);
  const bytes = renderInvoicePdf(font, {
    lang,
    invoice,
    storeName: { en: settings.nameEn, ar: settings.nameAr },
    seller: {
      name: seller[0]?.name ?? null,
      vatNumber: seller[0]?.vatNumber ?? null,
      crn: settings.commercialRegistration,
      address: settings.sellerAddress,
    },
    // Standard when the order names a VAT-registered buyer, as its e-invoice is (einvoices/input.ts).
    transaction: seller[0]?.standard ? "standard" : "simplified",
    footer: { en: config[0]?.en ?? null, ar: config[0]?.ar ?? null },
    timezone: STORE_TIMEZONE,
  });
  const name = invoice.serial === "-" ? `invoice-${invoice.id}` : invoice.serial;
  return { bytes, filename: `${name.replace(/[^A-Za-z0-9-]/g, "")}-${lang}.pdf` };
}
