/**
 * Renders a sample invoice as the Worker does, in English, Arabic and both, to PDF and PNG files (with
 * the font the assets carry, and MuPDF for the pictures), to look at the layout and the Arabic
 * shaping. `npx tsx scripts/render-invoice.ts [out-dir]` (default: the system's temporary directory).
 * test/node/invoice-pdf.test.ts checks the same documents.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as mupdf from "mupdf";
import { parsePdfFont } from "../src/core/pdf/font.js";
import {
  type InvoiceDocument,
  type InvoicePdfInput,
  renderInvoicePdf,
} from "../src/modules/orders/invoices/pdf/layout.js";
import { zatcaQr } from "../src/modules/orders/invoices/zatca.js";
import { invoiceFontJson } from "./invoice-font.js";

export const SAMPLE_SELLER = "شركة القهوة المختصة";

/** A paid invoice of two lines (one with a voucher discount), with a customer and the QR. */
export function sampleInvoice(): InvoiceDocument {
  const line = (id: number, en: string, ar: string, qty: number, amount: number, voucher: number) => {
    const total = amount - voucher;
    const excl = Math.round((total / 1.15) * 100) / 100;
    return {
      id,
      custom_fields: null,
      item: null,
      app_id: 1,
      created_at: "2026-01-05T09:30:00.000Z",
      item_id: id,
      name_en: en,
      name_ar: ar,
      refund_reason: null,
      refunded_qty: 0,
      amount,
      qty,
      net_amount: amount,
      voucher_discounts_amount: voucher,
      total_amount_excluding_tax: excl,
      tax_percentage: 15,
      tax_amount: Math.round((total - excl) * 100) / 100,
      total_amount: total,
      auto_renew: false,
      date: null,
      time: null,
      order_item: id,
      parent_invoice_item: null,
    };
  };
  // Built as the API answers it (InvoiceDetails), and read as the PDF reads it.
  const invoice = {
    id: 42,
    custom_fields: null,
    order_id: 7,
    customer: {
      id: 3,
      country_code: "966",
      username: "0534501056",
      mobile_number: "966534501056",
      email: null,
      name: "سارة القحطاني",
      lang: "ar",
      current_city_id: null,
      is_email_verified: false,
      is_mobile_verified: true,
      is_blocked: false,
      is_deleted: false,
      is_verified: true,
      national_id: null,
      secondary_mobile_number: null,
      date_of_birth: null,
      avatar: null,
      joined_at: "2026-01-01T00:00:00.000Z",
      custom_fields: null,
      created_at: "2026-01-01T00:00:00.000Z",
      modified_at: "2026-01-01T00:00:00.000Z",
    },
    invoice_pdf_en: "https://api.example.com/en.pdf",
    invoice_pdf_ar: "https://api.example.com/ar.pdf",
    serial: "INV-000042",
    refunded_invoice: null,
    app_id: 1,
    created_at: "2026-01-05T09:30:00.000Z",
    invoice_reference_id: null,
    invoice_reference_serial: null,
    type: "invoice" as const,
    status: "paid" as const,
    refund_reason: null,
    issued_at: "2026-01-05T09:30:00.000Z",
    due_at: null,
    sub_total_amount: 115,
    shipping_amount: 0,
    setup_amount: 0,
    net_amount: 115,
    sub_total_discounts_amount: 0,
    shipping_discounts_amount: 0,
    total_discounts_amount: 0,
    total_amount_excluding_tax: 100,
    tax_percentage: 15,
    tax_amount: 15,
    total_amount: 115,
    wallet_redeem_amount: 0,
    total_amount_with_redeem: 115,
    currency: "SAR",
    payment_method: "mada",
    payment_provider: "card",
    is_auto_renewal: false,
    invoice_provider: "internal",
    zatca_status: null,
    zatca_qr: zatcaQr({
      sellerName: SAMPLE_SELLER,
      vatNumber: "310122393500003",
      timestamp: "2026-01-05T09:30:00.000Z",
      totalMinor: 11500,
      vatMinor: 1500,
    }),
    invoice_error: null,
    items: [
      line(1, "Specialty coffee (large)", "قهوة مختصة (كبير)", 2, 46, 0),
      line(2, "Lemon cake", "كيكة الليمون", 1, 69, 0),
    ],
    transactions: [],
  };
  return invoice;
}

export function sampleInput(lang: "en" | "ar" | "bilingual"): InvoicePdfInput {
  return {
    lang,
    invoice: sampleInvoice(),
    storeName: { en: "Specialty Coffee Co.", ar: "شركة القهوة المختصة" },
    seller: {
      name: SAMPLE_SELLER,
      vatNumber: "310122393500003",
      crn: "1010010000",
      address: {
        street: "King Fahd Road",
        building_number: "1234",
        district: "Al Olaya",
        city: "Riyadh",
        postal_code: "12211",
      },
    },
    transaction: "simplified",
    footer: {
      en: "Thank you for your order. Prices include VAT.",
      ar: "شكراً لطلبك. الأسعار شاملة ضريبة القيمة المضافة.",
    },
    timezone: "Asia/Riyadh",
  };
}

/** The sample's PDF in `lang`, with the font the build script makes. */
export function samplePdf(lang: "en" | "ar" | "bilingual", input = sampleInput(lang)): Uint8Array {
  return renderInvoicePdf(parsePdfFont(JSON.parse(invoiceFontJson())), input);
}

/** The first page of a PDF as PNG, at `scale` × 72 dpi. */
export function pagePng(pdf: Uint8Array, scale = 2): Uint8Array {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
  return pixmap.asPNG();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2] ?? tmpdir();
  mkdirSync(out, { recursive: true });
  for (const lang of ["en", "ar", "bilingual"] as const) {
    const pdf = samplePdf(lang);
    writeFileSync(path.join(out, `invoice-${lang}.pdf`), pdf);
    writeFileSync(path.join(out, `invoice-${lang}.png`), pagePng(pdf));
    process.stdout.write(`> ${path.join(out, `invoice-${lang}.pdf`)} (${pdf.length} bytes) and .png\n`);
  }
}
