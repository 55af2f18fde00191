import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { glyphText, visualOrder } from "../../src/core/pdf/arabic";
import { invoicePdfLink } from "../../src/modules/orders/invoices/links";
import { tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { open, seedInvoices } from "./fixtures";

const APP = 6164;
const SECRET = (env as unknown as Env).LINK_SIGNING_SECRET;
let seed: Awaited<ReturnType<typeof seedInvoices>>;
let invoice: { invoice_pdf_en: string; invoice_pdf_ar: string };

beforeAll(async () => {
  seed = await seedInvoices(APP, "P");
  const token = await tokenFor(APP, ["can_read_order"]);
  invoice = await json(await call(`/order/v1/merchant/invoices/${seed.paid.id}/`, { token, appId: APP }));
});

const text = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);
const hexOf = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")).join("");

/** The glyph codes the page draws, and the text each stands for (from the ToUnicode map). */
function drawnText(pdf: string): string {
  const map = new Map<string, string>();
  for (const m of pdf.matchAll(/<([0-9A-F]{4})> <([0-9A-F]+)>/g)) {
    const chars = m[2]!.match(/.{4}/g)!.map((h) => String.fromCharCode(Number.parseInt(h, 16)));
    map.set(m[1]!, chars.join(""));
  }
  const runs = [...pdf.matchAll(/<([0-9A-F]+)> Tj/g)].map((m) =>
    m[1]!
      .match(/.{4}/g)!
      .map((code) => map.get(code) ?? "?")
      .join(""),
  );
  return runs.join("\n");
}

describe("Invoice PDF links", () => {
  it("the English link serves an A4 PDF: header, trailer, the invoice's words and numbers", async () => {
    const res = await open(invoice.invoice_pdf_en);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="INV-P-1-en.pdf"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const pdf = text(bytes);
    expect(pdf.startsWith("%PDF-1.7")).toBe(true);
    expect(pdf.endsWith("%%EOF\n")).toBe(true);
    expect(pdf).toContain("/MediaBox [0 0 595.28 841.89]");
    expect(pdf).toContain("/FontFile2");
    const drawn = drawnText(pdf);
    for (const word of [
      "Simplified Tax Invoice",
      "INV-P-1",
      "310122393500003",
      "Lemon cake",
      "115.00 SAR",
      "110.00 SAR",
    ]) {
      expect(drawn).toContain(word);
    }
    // The store's seller name is Arabic even on the English document: shaped and in visual order, and
    // read right to left it is the name again (its lam-alef included).
    const seller = [...visualOrder("متجر الاختبار")].map(glyphText).join("");
    expect(drawn).toContain(seller);
    expect([...seller].reverse().join("")).toBe("متجر الاختبار");
    // The xref offsets point at the objects.
    const start = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(start, start + 4)).toBe("xref");
    const offsets = [...pdf.slice(start).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets.length).toBeGreaterThan(8);
    for (const [i, offset] of offsets.entries())
      expect(pdf.startsWith(`${i + 1} 0 obj\n`, offset), `object ${i + 1}`).toBe(true);
  });

  it("the Arabic link serves the Arabic document: its words drawn in presentation forms, right to left", async () => {
    const res = await open(invoice.invoice_pdf_ar);
    expect(res.status).toBe(200);
    const pdf = text(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.startsWith("%PDF-")).toBe(true);
    expect(pdf.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(pdf).toContain(`/Lang <FEFF${hexOf("ar")}>`);
    const drawn = drawnText(pdf);
    // "فاتورة ضريبية مبسطة", drawn last letter first; the ToUnicode map gives back the base letters.
    expect(drawn).toContain("ةطسبم ةيبيرض ةروتاف");
    expect(drawn).toContain("كيكة الليمون".split("").reverse().join(""));
    expect(drawn).toContain("INV-P-1");
    expect(drawn).toContain("115.00 SAR");
    // The glyphs are the joined forms: initial feh, final alef, initial teh, final waw; reh and teh marbuta stand alone.
    expect(visualOrder("فاتورة")).toBe("\uFE93\uFEAD\uFEEE\uFE97\uFE8E\uFED3");
  });

  it("refuses a changed link with 403 invalid_link_signature", async () => {
    const link = new URL(invoice.invoice_pdf_en);
    const cases: [string, string][] = [
      ["signature", `${link.searchParams.get("signature")!.slice(0, -2)}AA`],
      ["lang", "ar"],
      ["app_id", "1"],
      ["expires", String(Number(link.searchParams.get("expires")) + 3600)],
    ];
    for (const [name, value] of cases) {
      const changed = new URL(link);
      changed.searchParams.set(name, value);
      const res = await open(changed.toString());
      expect(res.status, name).toBe(403);
      expect((await problem(res)).code).toBe("invalid_link_signature");
    }
    const otherInvoice = new URL(link);
    otherInvoice.pathname = `/order/v1/invoices/${seed.unpaid.id}/pdf/`;
    expect((await open(otherInvoice.toString())).status).toBe(403);
  });

  it("refuses an expired link with 403 link_expired", async () => {
    const eightDaysAgo = Date.now() - 8 * 86_400_000;
    const expired = await invoicePdfLink(SECRET, "https://api.test", APP, seed.paid.id, "en", eightDaysAgo);
    const res = await open(expired);
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("link_expired");
    const fresh = await invoicePdfLink(
      SECRET,
      "https://api.test",
      APP,
      seed.paid.id,
      "en",
      Date.now() - 6 * 86_400_000,
    );
    expect((await open(fresh)).status).toBe(200);
  });

  it("answers a missing or malformed query with 400, and a signed link to a missing invoice with 404", async () => {
    const bare = await open(`/order/v1/invoices/${seed.paid.id}/pdf/`);
    expect(bare.status).toBe(400);
    expect(Object.keys((await problem(bare)).errors ?? {})).toEqual(expect.arrayContaining(["lang", "signature"]));
    const french = new URL(invoice.invoice_pdf_en);
    french.searchParams.set("lang", "fr");
    expect((await open(french.toString())).status).toBe(400);
    const gone = await invoicePdfLink(SECRET, "https://api.test", APP, 987_654, "en");
    const res = await open(gone);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("invoice_not_found");
  });

  it("an unpaid invoice's PDF says Invoice, carries no serial and no QR", async () => {
    const link = await invoicePdfLink(SECRET, "https://api.test", APP, seed.unpaid.id, "en");
    const pdf = text(new Uint8Array(await (await open(link)).arrayBuffer()));
    const drawn = drawnText(pdf);
    expect(drawn).toContain("Invoice");
    expect(drawn).not.toContain("Simplified Tax Invoice");
    expect(drawn).toContain("Amount due");
    expect(pdf).not.toMatch(/ re .* re .* f/);
  });
});
