/**
 * A signed e-invoice from its plain input: the body (ubl.ts) is already the canonical form, so
 * its hash is taken as written; then the stamp over that hash, the QR that carries both, and the
 * three left-out parts put back in. Pure and synchronous: the caller gives the ICV and PIH it took
 * in the chain, the unit's key and its CSID's certificate, and keeps the hash as the next PIH.
 */
import type { CsidCertificate } from "./certificate.js";
import { invoiceHashOfCanonical } from "./hash.js";
import { phase2Qr } from "./qr.js";
import { certificateDigest, signInvoiceHash, ublExtensions, ublSignature } from "./stamp.js";
import type { EInvoiceInput } from "./types.js";
import { issueDateTime, ublBody } from "./ubl.js";
import { el, leaf } from "./xml.js";

export type Stamp = {
  /** The unit's secp256k1 secret (32 bytes), decrypted for this signing only. */
  privateKey: Uint8Array;
  certificate: CsidCertificate;
};

export type SignedEInvoice = {
  /** The document, with an XML declaration, UTF-8. */
  xml: string;
  /** base64 SHA-256 of the canonical form: the next document's PIH, and the API's `invoiceHash`. */
  invoiceHash: string;
  /** The cryptographic stamp's signature value, DER in base64. */
  signature: string;
  /** The Phase 2 QR's base64 TLV. */
  qr: string;
};

/** The QR's AdditionalDocumentReference (left out of the hash, since it carries the hash). */
const qrReference = (qr: string) =>
  el(
    "cac:AdditionalDocumentReference",
    undefined,
    leaf("cbc:ID", "QR"),
    el("cac:Attachment", undefined, leaf("cbc:EmbeddedDocumentBinaryObject", qr, { mimeCode: "text/plain" })),
  );

/**
 * Build, hash, sign. `signingTime` defaults to the issue instant, so that the same input, key and
 * certificate give the same document (ECDSA here is deterministic, RFC 6979).
 */
export function signEInvoice(input: EInvoiceInput, stamp: Stamp, signingTime = input.issuedAt): SignedEInvoice {
  const { rootStart, head, tail } = ublBody(input);
  const invoiceHash = invoiceHashOfCanonical(`${rootStart}${head}${tail}</Invoice>`);
  const signature = signInvoiceHash(invoiceHash, stamp.privateKey);
  const { date, time } = issueDateTime(input.issuedAt);
  const qr = phase2Qr({
    sellerName: input.seller.name,
    vatNumber: input.seller.vatNumber,
    timestamp: `${date}T${time}`,
    grossMinor: input.totals.grossMinor,
    vatMinor: input.totals.vatMinor,
    invoiceHash,
    signature,
    publicKeyInfo: stamp.certificate.publicKeyInfo,
    caSignature: input.transaction === "simplified" ? stamp.certificate.caSignature : undefined,
  });
  const extensions = ublExtensions({
    invoiceHash,
    signature,
    certificate: stamp.certificate,
    properties: {
      signingTime: new Date(signingTime).toISOString().slice(0, 19),
      certDigest: certificateDigest(stamp.certificate),
      issuerName: stamp.certificate.issuerName,
      serialNumber: stamp.certificate.serialNumber,
    },
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${rootStart}${extensions}${head}${qrReference(qr)}${ublSignature}${tail}</Invoice>`;
  return { xml, invoiceHash, signature, qr };
}
