/**
 * The QR code of a simplified tax invoice (ZATCA e-invoicing, phase 1): five TLV fields, each
 * tag (1 byte), length of the value in BYTES (1 byte) and the value in UTF-8, the whole in base64.
 * An Arabic seller name is two bytes a letter, so the length is never the string's `length`.
 */

const TAG = { sellerName: 1, vatNumber: 2, timestamp: 3, total: 4, vat: 5 } as const;
const utf8 = new TextEncoder();

export type ZatcaFields = {
  sellerName: string;
  vatNumber: string;
  /** When the invoice was issued: any ISO 8601 instant; written in UTC to the second, with `Z`. */
  timestamp: string;
  /** The invoice total with VAT, in minor units (halalas). */
  totalMinor: number;
  /** The VAT amount, in minor units. */
  vatMinor: number;
};

/** Minor units as the QR writes amounts: a decimal string with two places ("115.00", "-15.00"). */
export function decimalOfMinor(minor: number): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** `2026-01-05T09:30:00Z`: UTC, whole seconds. */
export const zatcaTimestamp = (iso: string): string => new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z");

function field(tag: number, value: string): Uint8Array {
  const bytes = utf8.encode(value);
  // One length byte: the value must fit in 255 bytes (ZATCA bounds the seller name to far less).
  if (bytes.length > 255) throw new RangeError(`ZATCA QR tag ${tag}: the value is longer than 255 bytes`);
  return Uint8Array.of(tag, bytes.length, ...bytes);
}

/** The base64 TLV of the invoice's QR code. */
export function zatcaQr(f: ZatcaFields): string {
  const parts = [
    field(TAG.sellerName, f.sellerName),
    field(TAG.vatNumber, f.vatNumber),
    field(TAG.timestamp, zatcaTimestamp(f.timestamp)),
    field(TAG.total, decimalOfMinor(f.totalMinor)),
    field(TAG.vat, decimalOfMinor(f.vatMinor)),
  ];
  let binary = "";
  for (const part of parts) for (const b of part) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The fields of a QR's base64 TLV, by tag; throws on a truncated or malformed one. */
export function decodeZatcaQr(b64: string): Record<number, string> {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const out: Record<number, string> = {};
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  for (let i = 0; i < bytes.length; ) {
    const tag = bytes[i]!;
    const length = bytes[i + 1];
    if (length === undefined || i + 2 + length > bytes.length)
      throw new RangeError(`ZATCA QR: tag ${tag} is truncated`);
    out[tag] = text.decode(bytes.subarray(i + 2, i + 2 + length));
    i += 2 + length;
  }
  return out;
}
