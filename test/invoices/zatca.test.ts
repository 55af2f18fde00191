import { describe, expect, it } from "vitest";
import { decimalOfMinor, decodeZatcaQr, zatcaQr, zatcaTimestamp } from "../../src/modules/orders/invoices/zatca";

const bytesOf = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

describe("ZATCA QR (TLV, base64)", () => {
  // The published examples of a widely used implementation (SallaApp/ZATCA's README and tests).
  it("matches the published example with a Latin seller name", () => {
    const qr = zatcaQr({
      sellerName: "Salla",
      vatNumber: "1234567891",
      timestamp: "2021-07-12T14:25:09Z",
      totalMinor: 10_000,
      vatMinor: 1_500,
    });
    expect(qr).toBe("AQVTYWxsYQIKMTIzNDU2Nzg5MQMUMjAyMS0wNy0xMlQxNDoyNTowOVoEBjEwMC4wMAUFMTUuMDA=");
  });

  it("matches the published example with an Arabic seller name: lengths count UTF-8 bytes", () => {
    const qr = zatcaQr({
      sellerName: "سلة",
      vatNumber: "1234567891",
      timestamp: "2021-07-12T14:25:09.000Z",
      totalMinor: 10_000,
      vatMinor: 1_500,
    });
    expect(qr).toBe("AQbYs9mE2KkCCjEyMzQ1Njc4OTEDFDIwMjEtMDctMTJUMTQ6MjU6MDlaBAYxMDAuMDAFBTE1LjAw");
    const bytes = bytesOf(qr);
    // Tag 1, then 6 bytes: three Arabic letters of two bytes each.
    expect([bytes[0], bytes[1]]).toEqual([1, 6]);
    expect(new TextDecoder().decode(bytes.subarray(2, 8))).toBe("سلة");
  });

  it("decodes to the five fields: seller, VAT number, UTC time with Z, total with VAT and VAT as decimals", () => {
    const seller = "شركة القهوة المختصة";
    const qr = zatcaQr({
      sellerName: seller,
      vatNumber: "310122393500003",
      timestamp: "2026-01-05T12:30:00+03:00",
      totalMinor: 11_500,
      vatMinor: 1_500,
    });
    expect(decodeZatcaQr(qr)).toEqual({
      1: seller,
      2: "310122393500003",
      3: "2026-01-05T09:30:00Z",
      4: "115.00",
      5: "15.00",
    });
    const bytes = bytesOf(qr);
    expect(bytes[1]).toBe(new TextEncoder().encode(seller).length);
    expect(bytes[1]).toBe(36);
    expect(seller.length).toBe(19);
    // The fields follow each other with nothing after the last.
    let at = 0;
    for (const tag of [1, 2, 3, 4, 5]) {
      expect(bytes[at]).toBe(tag);
      at += 2 + bytes[at + 1]!;
    }
    expect(at).toBe(bytes.length);
  });

  it("writes amounts with two decimals, whatever the minor units", () => {
    expect(decimalOfMinor(11_500)).toBe("115.00");
    expect(decimalOfMinor(1_035)).toBe("10.35");
    expect(decimalOfMinor(7)).toBe("0.07");
    expect(decimalOfMinor(0)).toBe("0.00");
    expect(decimalOfMinor(-1_500)).toBe("-15.00");
    expect(zatcaTimestamp("2026-01-05T09:30:00.123Z")).toBe("2026-01-05T09:30:00Z");
  });

  it("refuses a value longer than one length byte can say, and a truncated QR", () => {
    const base = { vatNumber: "1", timestamp: "2026-01-01T00:00:00Z", totalMinor: 1, vatMinor: 0 };
    // 128 Arabic letters are 256 bytes.
    expect(() => zatcaQr({ ...base, sellerName: "ب".repeat(128) })).toThrow(RangeError);
    expect(zatcaQr({ ...base, sellerName: "ب".repeat(127) })).toBeTruthy();
    const qr = zatcaQr({ ...base, sellerName: "Shop" });
    const cut = btoa(String.fromCharCode(...bytesOf(qr).subarray(0, 10)));
    expect(() => decodeZatcaQr(cut)).toThrow(/truncated/);
  });
});
