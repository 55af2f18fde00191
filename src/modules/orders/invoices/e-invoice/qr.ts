/**
 * The Phase 2 QR (Security Features Implementation Standard, section 4): TLV, then base64. Tags
 * 1-5 as in Phase 1; 6 the invoice hash and 7 the signature as their base64 text (the SDK's
 * samples, which the validator compares them with); 8 the public key as SubjectPublicKeyInfo DER;
 * 9, for simplified invoices and their notes, the CA's signature of the stamp's certificate (DER).
 */
import { decimalOfMinor } from "../zatca.js";
import { fromBase64, toBase64, utf8 } from "./encoding.js";

export type QrFields = {
  sellerName: string;
  vatNumber: string;
  /** IssueDate + "T" + IssueTime, exactly as the XML writes them. */
  timestamp: string;
  grossMinor: number;
  vatMinor: number;
  invoiceHash: string;
  signature: string;
  publicKeyInfo: Uint8Array;
  /** Simplified documents only. */
  caSignature?: Uint8Array;
};

function tlv(tag: number, value: Uint8Array): Uint8Array {
  // One length byte (section 4.1): every field here is far below 256 bytes.
  if (value.length > 255) throw new RangeError(`QR tag ${tag}: the value is longer than 255 bytes`);
  return Uint8Array.of(tag, value.length, ...value);
}

export function phase2Qr(f: QrFields): string {
  const parts = [
    tlv(1, utf8(f.sellerName)),
    tlv(2, utf8(f.vatNumber)),
    tlv(3, utf8(f.timestamp)),
    tlv(4, utf8(decimalOfMinor(f.grossMinor))),
    tlv(5, utf8(decimalOfMinor(f.vatMinor))),
    tlv(6, utf8(f.invoiceHash)),
    tlv(7, utf8(f.signature)),
    tlv(8, f.publicKeyInfo),
    ...(f.caSignature ? [tlv(9, f.caSignature)] : []),
  ];
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return toBase64(all);
}

/** A QR's TLV fields by tag, as bytes; throws on a truncated one. */
export function decodeQr(b64: string): Map<number, Uint8Array> {
  const bytes = fromBase64(b64);
  const out = new Map<number, Uint8Array>();
  for (let i = 0; i < bytes.length; ) {
    const tag = bytes[i]!;
    const length = bytes[i + 1];
    if (length === undefined || i + 2 + length > bytes.length) throw new RangeError(`QR: tag ${tag} is truncated`);
    out.set(tag, bytes.subarray(i + 2, i + 2 + length));
    i += 2 + length;
  }
  return out;
}
