import { describe, expect, it } from "vitest";
import { EInvoiceNotBuildable, einvoiceInputOf, unitPriceOf } from "../../src/modules/orders/einvoices/input";
import { checkTotals } from "../../src/modules/orders/invoices/e-invoice/ubl";
import type { invoiceItems, invoices } from "../../src/modules/orders/tables";

/* How an invoice's rows become the e-invoice builder's input (einvoices/input.ts). */

const invoice = (over: Partial<typeof invoices.$inferSelect> = {}) =>
  ({
    id: 7,
    type: "invoice",
    serial: "INV-202600007",
    issuedAt: "2026-01-05T09:30:00.000Z",
    currency: "SAR",
    sellerName: "Al Mathaq Co",
    vatNumber: "399999999900003",
    // 2 × 11.50 of items and 15.00 of delivery, VAT 15% included.
    totalMinor: 3_800,
    totalExcludingTaxMinor: 3_304,
    taxMinor: 496,
    taxPercentageBp: 1_500,
    shippingMinor: 1_500,
    setupMinor: 0,
    paymentProvider: "card",
    refundedInvoiceId: null,
    refundReason: null,
    orderId: 3,
    ...over,
  }) as typeof invoices.$inferSelect;

const line = {
  invoiceId: 7,
  nameEn: "Bowl",
  nameAr: "وعاء",
  qty: 2,
  totalExcludingTaxMinor: 2_000,
  taxMinor: 300,
  taxPercentageBp: 1_500,
} as typeof invoiceItems.$inferSelect;
const address = {
  street: "Olaya",
  building_number: "1234",
  district: "Al Olaya",
  city: "Riyadh",
  postal_code: "12211",
};
const settings = { commercialRegistration: "1010010000", sellerAddress: address, defaultLang: "en" as const };
const chain = { icv: 4, uuid: "3cf5ee18-ee25-44ea-a444-2c37ba7f28be", pih: "x" };

describe("an invoice's rows as an e-invoice's input", () => {
  it("unit prices: exact when net ÷ qty ends, else 6 decimals rounded half up; at least 2", () => {
    expect(unitPriceOf(1_305, 1)).toBe("13.05");
    expect(unitPriceOf(4_000, 2)).toBe("20.00");
    expect(unitPriceOf(100, 3)).toBe("0.333333");
    expect(unitPriceOf(200, 3)).toBe("0.666667");
    expect(unitPriceOf(1, 8)).toBe("0.00125");
  });

  it("delivery beyond the item lines is a line of its own, so the document adds up to the invoice", () => {
    const input = einvoiceInputOf({
      invoice: invoice(),
      lines: [line],
      order: { receiver: { name: "Sara" } },
      creditedSerial: null,
      settings,
      chain,
    });
    expect(input.lines.map((l) => [l.name, l.quantity, l.unitPrice, l.netMinor, l.vatMinor])).toEqual([
      ["Bowl", "2", "10.00", 2_000, 300],
      ["Delivery", "1", "13.04", 1_304, 196],
    ]);
    expect(() => checkTotals(input)).not.toThrow();
    expect(input).toMatchObject({
      kind: "invoice",
      transaction: "simplified",
      paymentMeansCode: "48",
      buyer: { name: "Sara" },
    });
    expect(input.seller).toMatchObject({
      id: { scheme: "CRN", value: "1010010000" },
      address: { buildingNumber: "1234", postalZone: "12211", country: "SA" },
    });
  });

  it("a refund invoice is a credit note naming its invoice and its reason", () => {
    const refund = invoice({
      type: "refund",
      refundedInvoiceId: 6,
      refundReason: "Late",
      totalMinor: 2_300,
      totalExcludingTaxMinor: 2_000,
      taxMinor: 300,
      shippingMinor: 0,
    });
    const input = einvoiceInputOf({
      invoice: refund,
      lines: [line],
      order: undefined,
      creditedSerial: "INV-202600006",
      settings,
      chain,
    });
    expect(input).toMatchObject({
      kind: "credit_note",
      creditNote: { invoiceNumber: "INV-202600006", reason: "Late" },
    });
    expect(input.buyer).toBeUndefined();
  });

  it("refuses, with a code, what the store's settings cannot yet make a document of", () => {
    const build = (over: Partial<Parameters<typeof einvoiceInputOf>[0]>) => {
      try {
        einvoiceInputOf({
          invoice: invoice(),
          lines: [line],
          order: undefined,
          creditedSerial: null,
          settings,
          chain,
          ...over,
        });
        return null;
      } catch (error) {
        return error instanceof EInvoiceNotBuildable ? error.code : String(error);
      }
    };
    expect(build({ settings: { ...settings, sellerAddress: null } })).toBe("seller-address-missing");
    expect(build({ invoice: invoice({ vatNumber: null }) })).toBe("seller-vat-missing");
    expect(build({ invoice: invoice({ totalExcludingTaxMinor: 1_000, taxMinor: 150, totalMinor: 1_150 }) })).toBe(
      "invoice-discount-unsupported",
    );
  });
});
