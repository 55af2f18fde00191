/**
 * Checks of a signed e-invoice the way ZATCA's validator makes them (hash, stamp, QR, chain),
 * for the local fake and the tests: each failure is one message with the code ZATCA's API gives
 * it where its documentation shows one (`invalid-invoice-hash`, `invoiceHash_QRCODE_INVALID`...).
 */

import { type Element, find, findAll, parseXml, textOf } from "./canonical.js";
import { parseCertificate } from "./certificate.js";
import { invoiceHash as hashOf } from "./hash.js";
import { decodeQr } from "./qr.js";
import { certificateDigest, signedPropertiesDigest, verifyInvoiceHash } from "./stamp.js";

export type Problem = { code: string; message: string };

export type Verified = {
  problems: Problem[];
  /** The hash recomputed from the document (whatever its Reference says). */
  invoiceHash: string;
  uuid?: string;
  icv?: number;
  pih?: string;
  /** 388 or 381, and the KSA-2 transaction code. */
  typeCode?: string;
  transactionCode?: string;
  /** A credit note's BillingReference (BT-25). */
  billingReference?: string;
};

const text = (root: Element, ...path: string[]) => {
  const e = find(root, ...path);
  return e ? textOf(e) : undefined;
};

/** The AdditionalDocumentReference whose cbc:ID is `id`. */
const docRef = (root: Element, id: string) =>
  findAll(root, "AdditionalDocumentReference").find((r) => text(r, "ID") === id);

const bytesEqual = (a: Uint8Array | undefined, b: Uint8Array) =>
  !!a && a.length === b.length && a.every((x, i) => x === b[i]);

export function verifyEInvoice(xml: string): Verified {
  const problems: Problem[] = [];
  const fail = (code: string, message: string) => problems.push({ code, message });
  const root = parseXml(xml);
  const invoiceHash = hashOf(xml);
  const icvText = text(docRef(root, "ICV") ?? root, "UUID");
  const typeCode = find(root, "InvoiceTypeCode");
  const result: Verified = {
    problems,
    invoiceHash,
    uuid: text(root, "UUID"),
    icv: icvText && /^\d+$/.test(icvText) ? Number(icvText) : undefined,
    pih: text(docRef(root, "PIH") ?? root, "Attachment", "EmbeddedDocumentBinaryObject"),
    typeCode: typeCode && textOf(typeCode),
    transactionCode: typeCode?.attrs.find(([k]) => k === "name")?.[1],
    billingReference: text(root, "BillingReference", "InvoiceDocumentReference", "ID"),
  };
  const signature = find(root, "UBLExtensions", "Signature");
  if (!signature) {
    fail("signature-missing", "The document carries no cryptographic stamp.");
    return result;
  }
  const refs = findAll(signature, "Reference");
  const invoiceRef = refs.find((r) => r.attrs.some(([k, v]) => k === "Id" && v === "invoiceSignedData"));
  if (text(invoiceRef ?? signature, "DigestValue") !== invoiceHash)
    fail("invalid-invoice-hash", "The invoice hash in the stamp does not match the (calculated) hash of the XML.");

  const cert = parseCertificate(text(signature, "KeyInfo", "X509Data", "X509Certificate") ?? "");
  const props = find(signature, "Object", "QualifyingProperties", "SignedProperties");
  const values = {
    signingTime: (props && text(props, "SignedSignatureProperties", "SigningTime")) ?? "",
    certDigest:
      (props && text(props, "SignedSignatureProperties", "SigningCertificate", "Cert", "CertDigest", "DigestValue")) ??
      "",
    issuerName:
      (props &&
        text(props, "SignedSignatureProperties", "SigningCertificate", "Cert", "IssuerSerial", "X509IssuerName")) ??
      "",
    serialNumber:
      (props &&
        text(props, "SignedSignatureProperties", "SigningCertificate", "Cert", "IssuerSerial", "X509SerialNumber")) ??
      "",
  };
  if (values.certDigest !== certificateDigest(cert))
    fail("certificate-hash-invalid", "The certificate's digest in the signed properties is not the certificate's.");
  if (values.issuerName !== cert.issuerName || values.serialNumber !== cert.serialNumber)
    fail("certificate-issuer-serial-invalid", "The signed properties name another certificate's issuer or serial.");
  const propsRef = refs.find((r) => r.attrs.some(([k, v]) => k === "URI" && v === "#xadesSignedProperties"));
  if (text(propsRef ?? signature, "DigestValue") !== signedPropertiesDigest(values))
    fail("signed-properties-hash-invalid", "The signed properties' digest is wrong.");
  const signatureValue = text(signature, "SignatureValue") ?? "";
  if (!verifyInvoiceHash(invoiceHash, signatureValue, cert.publicKey))
    fail("signature-invalid", "The signature does not verify against the invoice hash with the certificate's key.");

  checkQr(root, { invoiceHash, signatureValue, cert, result, fail });
  return result;
}

function checkQr(
  root: Element,
  c: {
    invoiceHash: string;
    signatureValue: string;
    cert: ReturnType<typeof parseCertificate>;
    result: Verified;
    fail: (code: string, message: string) => void;
  },
): void {
  const qrText = text(docRef(root, "QR") ?? root, "Attachment", "EmbeddedDocumentBinaryObject");
  if (!qrText) {
    c.fail("qrcode-missing", "The document carries no QR code.");
    return;
  }
  const qr = decodeQr(qrText);
  const str = (tag: number) => new TextDecoder().decode(qr.get(tag) ?? new Uint8Array());
  const supplier = find(root, "AccountingSupplierParty", "Party");
  const total = (name: string) => find(root, "LegalMonetaryTotal", name);
  const expected: [number, string | undefined, string][] = [
    [1, supplier && text(supplier, "PartyLegalEntity", "RegistrationName"), "seller name"],
    [2, supplier && text(supplier, "PartyTaxScheme", "CompanyID"), "VAT number"],
    [3, `${text(root, "IssueDate")}T${text(root, "IssueTime")}`, "timestamp"],
    [4, total("TaxInclusiveAmount") && textOf(total("TaxInclusiveAmount")!), "total with VAT"],
    [5, text(root, "TaxTotal", "TaxAmount"), "VAT total"],
    [6, c.invoiceHash, "invoice hash"],
    [7, c.signatureValue, "signature"],
  ];
  for (const [tag, want, what] of expected) {
    // Amounts compare as numbers: "4.6" and "4.60" are one amount.
    const same = tag === 4 || tag === 5 ? want !== undefined && Number(want) === Number(str(tag)) : str(tag) === want;
    if (!same)
      c.fail(
        tag === 6 ? "invoiceHash_QRCODE_INVALID" : "qrcode-invalid",
        `QR tag ${tag} (${what}) does not match the document.`,
      );
  }
  if (!bytesEqual(qr.get(8), c.cert.publicKeyInfo))
    c.fail("qrcode-invalid", "QR tag 8 is not the certificate's public key.");
  const simplified = c.result.transactionCode?.startsWith("02");
  if (simplified && !bytesEqual(qr.get(9), c.cert.caSignature))
    c.fail("qrcode-invalid", "QR tag 9 is not the certificate's signature by the CA.");
}
