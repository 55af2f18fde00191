/**
 * The CSR of an e-invoicing unit (Security Features Implementation Standard, 2.2, Table 1): PKCS#10
 * (RFC 2986) with the subject C, OU, O, CN; an extension request holding the certificate template
 * name (1.3.6.1.4.1.311.20.2, PrintableString, per environment) and a subjectAltName whose dirName
 * carries SN (the unit: `1-<solution>|2-<model or version>|3-<serial>`), UID (the VAT number),
 * title (the invoice types), registeredAddress and businessCategory; signed ECDSA-SHA256 with the
 * unit's secp256k1 key. ZATCA takes it as base64 of the PEM text (API, compliance CSID).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import {
  bitString,
  children,
  type Der,
  octetString,
  oid,
  oidText,
  printableString,
  readDer,
  sequence,
  set,
  smallInteger,
  tagged,
  utf8String,
} from "./der.js";
import { fromBase64, toBase64 } from "./encoding.js";
import { CERTIFICATE_TEMPLATES, type EInvoicingEnvironment } from "./environments.js";
import { publicKeyOf } from "./keys.js";

const OID = {
  C: "2.5.4.6",
  OU: "2.5.4.11",
  O: "2.5.4.10",
  CN: "2.5.4.3",
  SN: "2.5.4.4",
  UID: "0.9.2342.19200300.100.1.1",
  title: "2.5.4.12",
  registeredAddress: "2.5.4.26",
  businessCategory: "2.5.4.15",
  extensionRequest: "1.2.840.113549.1.9.14",
  templateName: "1.3.6.1.4.1.311.20.2",
  subjectAltName: "2.5.29.17",
  ecPublicKey: "1.2.840.10045.2.1",
  secp256k1: "1.3.132.0.10",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
} as const;

export type CsrFields = {
  environment: EInvoicingEnvironment;
  /** CN: the unit's name, unique to the taxpayer. */
  commonName: string;
  /** O: the taxpayer's name. */
  organization: string;
  /** OU: the branch; for a VAT group member, its 10-digit TIN. */
  organizationUnit: string;
  /** SN's three parts: the solution's name, its model or version, the unit's serial (our unit's UUID). */
  unit: { solution: string; model: string; serial: string };
  /** UID: the VAT registration number, 15 digits, first and last 3. */
  vatNumber: string;
  /** title: four digits of 0 and 1 for standard, simplified and two reserved ("1100": both). */
  invoiceTypes: string;
  /** registeredAddress: the branch's address. */
  address: string;
  /** businessCategory: the industry. */
  industry: string;
};

/** CSR fields that cannot be sent, each with what is wrong in plain words. */
export class CsrFieldsError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(`CSR fields refused: ${Object.keys(errors).join(", ")}`);
  }
}

/** What is wrong with the fields, by field (empty when nothing is). */
export function csrFieldProblems(f: CsrFields): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const texts: [string, string][] = [
    ["commonName", f.commonName],
    ["organization", f.organization],
    ["organizationUnit", f.organizationUnit],
    ["address", f.address],
    ["industry", f.industry],
    ["unit.solution", f.unit.solution],
    ["unit.model", f.unit.model],
    ["unit.serial", f.unit.serial],
  ];
  for (const [field, value] of texts) {
    if (!value.trim()) add(field, "Must not be empty.");
    else if (value !== value.trim()) add(field, "Must not start or end with a space.");
    else if (value.length > 128) add(field, "Must be at most 128 characters.");
  }
  for (const [field, value] of texts.slice(5))
    if (value.includes("|")) add(field, 'Must not contain "|", which separates the parts of SN.');
  if (!/^3\d{13}3$/.test(f.vatNumber)) add("vatNumber", "Must be 15 digits, starting and ending with 3.");
  // The 11th digit 1 marks a VAT group, whose members' units name the member by its TIN (Table 1).
  else if (f.vatNumber[10] === "1" && !/^\d{10}$/.test(f.organizationUnit))
    add("organizationUnit", "A VAT group member's unit must give the member's 10-digit TIN.");
  if (!/^[01]{4}$/.test(f.invoiceTypes) || !/1/.test(f.invoiceTypes.slice(0, 2)))
    add("invoiceTypes", 'Must be four digits of 0 and 1 with standard or simplified on, e.g. "1100".');
  return errors;
}

const attribute = (type: string, value: Uint8Array) => set(sequence(oid(type), value));

/** The DER of the unit's CSR. */
export function csrDer(fields: CsrFields, secretKey: Uint8Array): Uint8Array {
  const errors = csrFieldProblems(fields);
  if (Object.keys(errors).length) throw new CsrFieldsError(errors);
  const subject = sequence(
    attribute(OID.C, printableString("SA")),
    attribute(OID.OU, utf8String(fields.organizationUnit)),
    attribute(OID.O, utf8String(fields.organization)),
    attribute(OID.CN, utf8String(fields.commonName)),
  );
  const { solution, model, serial } = fields.unit;
  const unitName = sequence(
    attribute(OID.SN, utf8String(`1-${solution}|2-${model}|3-${serial}`)),
    attribute(OID.UID, utf8String(fields.vatNumber)),
    attribute(OID.title, utf8String(fields.invoiceTypes)),
    attribute(OID.registeredAddress, utf8String(fields.address)),
    attribute(OID.businessCategory, utf8String(fields.industry)),
  );
  const extensions = sequence(
    sequence(oid(OID.templateName), octetString(printableString(CERTIFICATE_TEMPLATES[fields.environment]))),
    // GeneralNames with one directoryName ([4], explicit: Name is a CHOICE).
    sequence(oid(OID.subjectAltName), octetString(sequence(tagged(4, unitName)))),
  );
  const publicKeyInfo = sequence(sequence(oid(OID.ecPublicKey), oid(OID.secp256k1)), bitString(publicKeyOf(secretKey)));
  const info = sequence(
    smallInteger(0),
    subject,
    publicKeyInfo,
    tagged(0, sequence(oid(OID.extensionRequest), set(extensions))),
  );
  // ECDSA with SHA-256 over the request info (the library hashes the message).
  const signature = secp256k1.sign(info, secretKey, { format: "der" });
  return sequence(info, sequence(oid(OID.ecdsaWithSha256)), bitString(signature));
}

/** The PEM text of a DER CSR, 64 characters a line. */
export function csrPem(der: Uint8Array): string {
  const lines = toBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join("\n")}\n-----END CERTIFICATE REQUEST-----\n`;
}

/** The CSR as the compliance CSID call takes it: base64 of the PEM text. */
export const unitCsr = (fields: CsrFields, secretKey: Uint8Array): string => btoa(csrPem(csrDer(fields, secretKey)));

export type ParsedCsr = {
  /** Subject attributes by short name (C, OU, O, CN). */
  subject: Record<string, string>;
  /** The certificate template name, or null when the request has none. */
  templateName: string | null;
  /** The subjectAltName dirName's attributes by name (SN, UID, title, registeredAddress, businessCategory). */
  unit: Record<string, string>;
  /** The uncompressed secp256k1 point. */
  publicKey: Uint8Array;
  /** Whether the request's signature verifies with its own key (proof of the key's possession). */
  signatureValid: boolean;
};

const NAMES: Record<string, string> = Object.fromEntries(Object.entries(OID).map(([name, id]) => [id, name]));

function attributesOf(name: Der): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rdn of children(name))
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      const id = oidText(type!.body);
      out[NAMES[id] ?? id] = new TextDecoder().decode(value!.body);
    }
  return out;
}

/**
 * A CSR read back from base64 of its PEM (as sent), its PEM or its base64 DER: what the local fake
 * checks before issuing a CSID. Throws RangeError when it is not a secp256k1 PKCS#10 request.
 */
export function parseCsr(text: string): ParsedCsr {
  const trimmed = text.trim();
  const pem = trimmed.startsWith("-----") ? trimmed : atob(trimmed.replace(/\s+/g, ""));
  const body = pem.includes("-----") ? pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "") : trimmed;
  const der = fromBase64(body);
  const [info, algorithm, signature] = children(readDer(der, 0));
  if (!info || !algorithm || !signature || signature.tag !== 0x03) throw new RangeError("not a PKCS#10 request");
  const [version, subject, spki, attributes] = children(info);
  if (version?.tag !== 0x02 || !subject || !spki || attributes?.tag !== 0xa0)
    throw new RangeError("not a PKCS#10 request");
  const [keyAlgorithm, point] = children(spki);
  const curve = keyAlgorithm && children(keyAlgorithm).map((n) => oidText(n.body));
  if (curve?.[0] !== OID.ecPublicKey || curve[1] !== OID.secp256k1 || !point)
    throw new RangeError("not a secp256k1 key");
  if (oidText(children(algorithm)[0]!.body) !== OID.ecdsaWithSha256) throw new RangeError("not signed ECDSA-SHA256");
  const publicKey = point.body.slice(1);
  let templateName: string | null = null;
  let unit: Record<string, string> = {};
  for (const attr of children(attributes)) {
    const [type, values] = children(attr);
    if (oidText(type!.body) !== OID.extensionRequest) continue;
    for (const ext of children(children(values!)[0]!)) {
      const parts = children(ext);
      const id = oidText(parts[0]!.body);
      const value = readDer(parts[parts.length - 1]!.body, 0);
      if (id === OID.templateName) templateName = new TextDecoder().decode(value.body);
      if (id === OID.subjectAltName) {
        const dirName = children(value).find((n) => n.tag === 0xa4);
        if (dirName) unit = attributesOf(children(dirName)[0]!);
      }
    }
  }
  let signatureValid = false;
  try {
    signatureValid = secp256k1.verify(signature.body.slice(1), info.whole, publicKey, { format: "der", lowS: false });
  } catch {
    signatureValid = false;
  }
  return { subject: attributesOf(subject), templateName, unit, publicKey, signatureValid };
}

/**
 * The subjectAltName dirName of a CSID certificate (base64 DER), as `ParsedCsr.unit` reads a CSR's:
 * the unit a certificate was issued to (its SN), and the invoice types it may issue (its title).
 * Throws RangeError when it is not an X.509 v3 certificate.
 */
export function certificateUnit(base64Der: string): Record<string, string> {
  const [tbs] = children(readDer(fromBase64(base64Der), 0));
  const extensions = tbs && children(tbs).find((n) => n.tag === 0xa3);
  if (!extensions) throw new RangeError("not an X.509 v3 certificate");
  for (const ext of children(children(extensions)[0]!)) {
    const parts = children(ext);
    if (oidText(parts[0]!.body) !== OID.subjectAltName) continue;
    const dirName = children(readDer(parts[parts.length - 1]!.body, 0)).find((n) => n.tag === 0xa4);
    if (dirName) return attributesOf(children(dirName)[0]!);
  }
  return {};
}
