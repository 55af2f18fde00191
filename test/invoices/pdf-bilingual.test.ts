import { correction, generate } from "lean-qr/nano";
import { beforeAll, describe, expect, it } from "vitest";
import { glyphText, visualOrder } from "../../src/core/pdf/arabic";
import { signStores } from "../../src/modules/orders/einvoices/signer";
import { zatcaQr } from "../../src/modules/orders/invoices/zatca";
import { db, tokenFor } from "../helpers/factories";
import { call, json } from "../helpers/request";
import { drawnText } from "../shipping-labels/helpers";
import { activeUnit, issue, pendingOrders, rowOf, SECRET, sellerStore } from "./e-invoice-chain-fixtures";
import { open } from "./fixtures";

/*
 * The bilingual tax invoice (`invoice_pdf`): English and Arabic on one page with the seller's
 * registration and national address; and the QR every PDF draws: the invoice's current `zatca_qr`,
 * Phase 2's once its e-invoice is signed.
 */
const STORE = 8771;
const INVOICES = "/order/v1/merchant/invoices/";

/** Arabic as the page draws it (visual order, one glyph's text each): what `drawnText` gives back. */
const drawnArabic = (text: string) => [...visualOrder(text, "rtl")].map(glyphText).join("");

/** The dark modules a page draws in its one path of squares, as "x,y" from the code's top left corner. */
function drawnModules(pdf: string): Set<string> {
  const paths = [...pdf.matchAll(/(?:^|\n)0 g ((?:[-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ re ?)+)f/g)];
  expect(paths).toHaveLength(1);
  const rects = [...paths[0]![1]!.matchAll(/([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re/g)].map((m) =>
    m.slice(1, 5).map(Number),
  );
  const cell = Math.min(...rects.map((r) => r[3]!));
  // The finder pattern puts a dark module in the top left corner: the code's origin.
  const left = Math.min(...rects.map((r) => r[0]!));
  const top = Math.max(...rects.map((r) => r[1]! + r[3]!));
  const out = new Set<string>();
  for (const [x, y, w] of rects) {
    const row = Math.round((top - (y! + cell)) / cell);
    for (let c = Math.round((x! - left) / cell); c < Math.round((x! + w! - left) / cell); c++) out.add(`${c},${row}`);
  }
  return out;
}

/** The dark modules of the QR code of `content`, as the PDFs make it. */
function qrModules(content: string): Set<string> {
  const code = generate(content, { minCorrectionLevel: correction.M });
  const out = new Set<string>();
  for (let y = 0; y < code.size; y++) for (let x = 0; x < code.size; x++) if (code.get(x, y)) out.add(`${x},${y}`);
  return out;
}

const pdfText = async (link: string) => {
  const res = await open(link);
  expect(res.status).toBe(200);
  return { res, pdf: new TextDecoder("latin1").decode(new Uint8Array(await res.arrayBuffer())) };
};

let token: string;
let invoice: { id: number; serial: string; issued_at: string; seller: string };
let pending: Record<string, unknown>;
/** The bilingual PDF read while the e-invoice waited for its signature. */
let pendingPdf: string;
let signed: Record<string, string | null> & { invoice_pdf: string; invoice_pdf_en: string; invoice_pdf_ar: string };

beforeAll(async () => {
  await sellerStore(STORE);
  await activeUnit(STORE);
  token = await tokenFor(STORE, ["can_read_order"]);
  const [orderId] = await pendingOrders(STORE, 1);
  await issue(STORE, orderId!);
  const row = await rowOf(
    STORE,
    "SELECT id, serial, issued_at, seller_name FROM invoices WHERE app_id = ? AND order_id = ?",
    STORE,
    orderId,
  );
  invoice = { id: row.id, serial: row.serial, issued_at: row.issued_at, seller: row.seller_name };
  const details = () => call(`${INVOICES}${invoice.id}/`, { token, appId: STORE }).then(json);
  pending = await details();
  pendingPdf = (await pdfText(pending.invoice_pdf as string)).pdf;
  await signStores(db(STORE), [STORE], SECRET);
  signed = await details();
});

describe("the bilingual tax invoice PDF", () => {
  it("is a third link beside the English and Arabic ones, which stay as they were", () => {
    for (const key of ["invoice_pdf", "invoice_pdf_en", "invoice_pdf_ar"] as const) {
      expect(signed[key]).toMatch(/^https?:\/\/.+\/order\/v1\/invoices\/\d+\/pdf\/\?/);
    }
    expect(new URL(signed.invoice_pdf).searchParams.get("lang")).toBe("bilingual");
    expect(new URL(signed.invoice_pdf_en).searchParams.get("lang")).toBe("en");
    expect(new URL(signed.invoice_pdf_ar).searchParams.get("lang")).toBe("ar");
  });

  it("draws both languages' labels, the seller's name, VAT number, CRN and national address", async () => {
    const { res, pdf } = await pdfText(signed.invoice_pdf);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${invoice.serial}-bilingual.pdf"`);
    const drawn = drawnText(pdf);
    for (const text of [
      "Simplified Tax Invoice",
      drawnArabic("فاتورة ضريبية مبسطة"),
      "Seller",
      drawnArabic("البائع"),
      invoice.seller,
      "VAT number",
      drawnArabic("الرقم الضريبي"),
      "399999999900003",
      "CR number",
      drawnArabic("السجل التجاري"),
      "1010010000",
      invoice.serial,
      "Total incl. VAT",
      drawnArabic("الإجمالي شامل الضريبة"),
      "11.50 SAR",
      "1.50 SAR",
    ]) {
      expect(drawn).toContain(text);
    }
    // The address, in one line or wrapped onto two.
    expect(drawn.replaceAll("\n", " ")).toContain("Prince Sultan 2322, Al-Murabba, Riyadh 23333");
  });
});

describe("the QR every invoice PDF draws", () => {
  it("is none while the e-invoice waits for its signature (zatca_qr null)", () => {
    expect(pending.zatca_qr).toBeNull();
    expect(drawnText(pendingPdf)).toContain(invoice.serial);
    expect(pendingPdf).not.toMatch(/ re .* re .* f/);
  });

  it("is the invoice's Phase 2 QR once signed, in all three documents, not Phase 1's", async () => {
    const phase2 = qrModules(signed.zatca_qr!);
    const phase1 = qrModules(
      zatcaQr({
        sellerName: invoice.seller,
        vatNumber: "399999999900003",
        timestamp: invoice.issued_at,
        totalMinor: 1150,
        vatMinor: 150,
      }),
    );
    expect(phase2).not.toEqual(phase1);
    for (const link of [signed.invoice_pdf, signed.invoice_pdf_en, signed.invoice_pdf_ar]) {
      const { pdf } = await pdfText(link);
      expect(drawnModules(pdf)).toEqual(phase2);
    }
  });
});
