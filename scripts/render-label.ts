/**
 * Renders a sample shipping label as the Worker does (A6, with the font the assets carry) to a PDF
 * and a PNG picture (MuPDF, a dev dependency: nothing to install), to look at the layout, the Arabic
 * shaping and the barcode. `npx tsx scripts/render-label.ts [out-dir]` (default: the system's
 * temporary directory). test/node/label-pdf.test.ts checks the same document.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parsePdfFont } from "../src/core/pdf/font.js";
import { type LabelDocument, renderLabelPdf } from "../src/modules/shipping/labels/pdf.js";
import { invoiceFontJson } from "./invoice-font.js";
import { pagePng } from "./render-invoice.js";

/** A label of a cash-on-delivery order from a Riyadh store to a customer in Jeddah. */
export function sampleLabel(): LabelDocument {
  return {
    tracking_number: "FK00012345678",
    shipment_id: 318,
    order_reference: "#1042",
    courier: { en: "Fast Riders Delivery", ar: "توصيل فاست رايدرز" },
    service: "standard",
    sender: {
      name: { en: "Specialty Coffee Co. (Olaya branch)", ar: "شركة القهوة المختصة (فرع العليا)" },
      address: "King Fahd Road, Building 12",
      area: { en: "Al Olaya, Riyadh", ar: "العليا، الرياض" },
      phone: "+966 11 234 5678",
    },
    recipient: {
      name: { en: "سارة القحطاني", ar: "سارة القحطاني" },
      address: "شارع الأمير سلطان، مبنى ٤، شقة ٩",
      area: { en: "Al Rawdah, Jeddah", ar: "الروضة، جدة" },
      phone: "+966 53 450 1056",
    },
    cod_amount: 115,
    currency: "SAR",
    weight: 1.5,
    packages: 1,
    date: "2026-01-05",
  };
}

/** The sample's PDF, with the font the build script makes. */
export function sampleLabelPdf(label = sampleLabel()): Uint8Array {
  return renderLabelPdf(parsePdfFont(JSON.parse(invoiceFontJson())), label);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2] ?? tmpdir();
  mkdirSync(out, { recursive: true });
  const pdf = sampleLabelPdf();
  writeFileSync(path.join(out, "label.pdf"), pdf);
  // 4 × 72 dpi: the bars of a small module stay sharp.
  writeFileSync(path.join(out, "label.png"), pagePng(pdf, 4));
  process.stdout.write(`> ${path.join(out, "label.pdf")} (${pdf.length} bytes) and label.png\n`);
}
