/**
 * The cryptographic stamp (Security Features Implementation Standard, section 2.3.3): XAdES
 * signed properties naming the CSID's certificate, a SignedInfo with the invoice's and the signed
 * properties' digests, and the ECDSA (secp256k1, SHA-256) signature, in ext:UBLExtensions.
 * Three forms here follow the SDK's signed samples, where the standard's prose leaves them open:
 * - the signature is taken over the invoice hash's 32 bytes (ECDSA with SHA-256 over them), not
 *   over the canonical SignedInfo: the samples' SignatureValue verifies that way only;
 * - the certificate's digest is over its base64 TEXT, written as base64 of the digest's hex;
 * - the signed properties' digest is over the fixed layout `signedProperties` writes (that
 *   whitespace included), base64 of the hex too: it gives the samples' published digests.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import type { CsidCertificate } from "./certificate.js";
import { fromBase64, sha256Base64OfHex, toBase64, utf8 } from "./encoding.js";
import { el, escapeText, leaf, NS } from "./xml.js";

const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
const XPATH = "http://www.w3.org/TR/1999/REC-xpath-19991116";
const C14N11 = "http://www.w3.org/2006/12/xml-c14n11";
/** The three transforms of the standard's Reference to the invoice (section 2.3.3, 1.3.1). */
export const TRANSFORMS = [
  "not(//ancestor-or-self::ext:UBLExtensions)",
  "not(//ancestor-or-self::cac:Signature)",
  "not(//ancestor-or-self::cac:AdditionalDocumentReference[cbc:ID='QR'])",
];

export type SignedPropertiesValues = {
  /** xades:SigningTime: the signing instant, to the second, without a zone (as the samples). */
  signingTime: string;
  certDigest: string;
  issuerName: string;
  serialNumber: string;
};

/** The certificate's digest as xades:CertDigest carries it. */
export const certificateDigest = (cert: CsidCertificate): string => sha256Base64OfHex(utf8(cert.base64));

/** xades:SignedProperties in the one layout whose digest the validator recomputes. */
export function signedProperties(v: SignedPropertiesValues): string {
  const ds = `xmlns:ds="${NS.ds}"`;
  const at = (n: number, s: string) => `\n${" ".repeat(n)}${s}`;
  return [
    `<xades:SignedProperties xmlns:xades="${NS.xades}" Id="xadesSignedProperties">`,
    at(36, "<xades:SignedSignatureProperties>"),
    at(40, `<xades:SigningTime>${escapeText(v.signingTime)}</xades:SigningTime>`),
    at(40, "<xades:SigningCertificate>"),
    at(44, "<xades:Cert>"),
    at(48, "<xades:CertDigest>"),
    at(52, `<ds:DigestMethod ${ds} Algorithm="${SHA256}"/>`),
    at(52, `<ds:DigestValue ${ds}>${v.certDigest}</ds:DigestValue>`),
    at(48, "</xades:CertDigest>"),
    at(48, "<xades:IssuerSerial>"),
    at(52, `<ds:X509IssuerName ${ds}>${escapeText(v.issuerName)}</ds:X509IssuerName>`),
    at(52, `<ds:X509SerialNumber ${ds}>${v.serialNumber}</ds:X509SerialNumber>`),
    at(48, "</xades:IssuerSerial>"),
    at(44, "</xades:Cert>"),
    at(40, "</xades:SigningCertificate>"),
    at(36, "</xades:SignedSignatureProperties>"),
    at(32, "</xades:SignedProperties>"),
  ].join("");
}

export const signedPropertiesDigest = (v: SignedPropertiesValues): string =>
  sha256Base64OfHex(utf8(signedProperties(v)));

/** The ECDSA signature (DER, base64) of an invoice hash with the unit's private key. */
export const signInvoiceHash = (invoiceHash: string, privateKey: Uint8Array): string =>
  toBase64(secp256k1.sign(fromBase64(invoiceHash), privateKey, { format: "der" }));

/** Whether `signature` (DER, base64) is the key's over `invoiceHash`; any S accepted, as DER allows. */
export function verifyInvoiceHash(invoiceHash: string, signature: string, publicKey: Uint8Array): boolean {
  try {
    return secp256k1.verify(fromBase64(signature), fromBase64(invoiceHash), publicKey, { format: "der", lowS: false });
  } catch {
    return false;
  }
}

/** ext:UBLExtensions with the signature: what the invoice hash leaves out, so written once signed. */
export function ublExtensions(p: {
  invoiceHash: string;
  signature: string;
  certificate: CsidCertificate;
  properties: SignedPropertiesValues;
}): string {
  const ds = (name: string, attrs: Record<string, string> | undefined, ...c: string[]) => el(`ds:${name}`, attrs, ...c);
  const reference = (attrs: Record<string, string>, digest: string, ...transforms: string[]) =>
    ds("Reference", attrs, ...transforms, ds("DigestMethod", { Algorithm: SHA256 }), leaf("ds:DigestValue", digest));
  const signature = ds(
    "Signature",
    { "xmlns:ds": NS.ds, Id: "signature" },
    ds(
      "SignedInfo",
      undefined,
      ds("CanonicalizationMethod", { Algorithm: C14N11 }),
      ds("SignatureMethod", { Algorithm: "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256" }),
      reference(
        { Id: "invoiceSignedData", URI: "" },
        p.invoiceHash,
        ds(
          "Transforms",
          undefined,
          ...TRANSFORMS.map((x) => ds("Transform", { Algorithm: XPATH }, leaf("ds:XPath", x))),
          ds("Transform", { Algorithm: C14N11 }),
        ),
      ),
      reference(
        { Type: "http://www.w3.org/2000/09/xmldsig#SignatureProperties", URI: "#xadesSignedProperties" },
        signedPropertiesDigest(p.properties),
      ),
    ),
    leaf("ds:SignatureValue", p.signature),
    ds("KeyInfo", undefined, ds("X509Data", undefined, leaf("ds:X509Certificate", p.certificate.base64))),
    ds(
      "Object",
      undefined,
      el(
        "xades:QualifyingProperties",
        { "xmlns:xades": NS.xades, Target: "signature" },
        signedProperties(p.properties),
      ),
    ),
  );
  return el(
    "ext:UBLExtensions",
    undefined,
    el(
      "ext:UBLExtension",
      undefined,
      leaf("ext:ExtensionURI", "urn:oasis:names:specification:ubl:dsig:enveloped:xades"),
      el(
        "ext:ExtensionContent",
        undefined,
        el(
          "sig:UBLDocumentSignatures",
          { "xmlns:sac": NS.sac, "xmlns:sbc": NS.sbc, "xmlns:sig": NS.sig },
          el(
            "sac:SignatureInformation",
            undefined,
            leaf("cbc:ID", "urn:oasis:names:specification:ubl:signature:1"),
            leaf("sbc:ReferencedSignatureID", "urn:oasis:names:specification:ubl:signature:Invoice"),
            signature,
          ),
        ),
      ),
    ),
  );
}

/** cac:Signature, which names the enveloped XAdES signature (left out of the hash). */
export const ublSignature = el(
  "cac:Signature",
  undefined,
  leaf("cbc:ID", "urn:oasis:names:specification:ubl:signature:Invoice"),
  leaf("cbc:SignatureMethod", "urn:oasis:names:specification:ubl:dsig:enveloped:xades"),
);
