/**
 * What the local fake of ZATCA's API checks in a submitted document, answered as ZATCA words it
 * (`validationResults` messages: type, code, category, message, status): the body's hash and UUID
 * against the XML, the stamp and the QR (verify.ts), and the chain: the PIH must be the hash of
 * the unit's previous document.
 */
import type { ZatcaMessage } from "./api.js";
import { find, parseXml, textOf } from "./canonical.js";
import { fromBase64 } from "./encoding.js";
import { type Verified, verifyEInvoice } from "./verify.js";

/** ZATCA's categories of the codes verify.ts gives (as its answers show them). */
function categoryOf(code: string): string {
  if (code === "invalid-invoice-hash") return "INVOICE_HASHING_ERRORS";
  if (/qrcode/i.test(code)) return "QRCODE_VALIDATION";
  if (code.startsWith("certificate")) return "CERTIFICATE_ERRORS";
  if (code.startsWith("signature") || code.startsWith("signed-properties")) return "SIGNATURE_ERRORS";
  return "KSA";
}

export const zatcaMessage = (
  type: "ERROR" | "WARNING" | "INFO",
  code: string,
  message: string,
  category = categoryOf(code),
): ZatcaMessage => ({
  type,
  code,
  category,
  message,
  status: type === "INFO" ? "PASS" : type,
});

/** The info message of a document that parsed (the API's own words). */
export const XSD_VALID = zatcaMessage(
  "INFO",
  "XSD_ZATCA_VALID",
  "Complied with UBL 2.1 standards in line with ZATCA specifications",
  "XSD validation",
);

export type DocumentChecks = {
  /** Null when the XML could not be read at all. */
  verified: Verified | null;
  errors: ZatcaMessage[];
  warnings: ZatcaMessage[];
  /** IssueDate and IssueTime as an instant (written in Riyadh time, UTC+3), when present. */
  issuedAt: number | null;
};

/** 24 hours: the time a simplified document has to be reported (BR-KSA-98 warns after). */
const REPORTING_WINDOW_MS = 24 * 3600_000;

/**
 * The checks of one submitted document. `expectedPih`: the hash of the unit's previous document,
 * or undefined where the chain is not checked (compliance samples stand alone).
 */
export function checkDocument(
  body: { invoiceHash?: unknown; uuid?: unknown; invoice?: unknown },
  expectedPih: string | undefined,
  now: number,
): DocumentChecks {
  const errors: ZatcaMessage[] = [];
  const warnings: ZatcaMessage[] = [];
  if (typeof body.invoiceHash !== "string" || typeof body.uuid !== "string" || typeof body.invoice !== "string") {
    errors.push(
      zatcaMessage("ERROR", "Invalid-Request", "The body must carry invoiceHash, uuid and invoice.", "REQUEST"),
    );
    return { verified: null, errors, warnings, issuedAt: null };
  }
  let xml: string;
  let verified: Verified;
  let issuedAt: number | null = null;
  try {
    xml = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(fromBase64(body.invoice));
    verified = verifyEInvoice(xml);
    const root = parseXml(xml);
    const date = find(root, "IssueDate");
    const time = find(root, "IssueTime");
    if (date && time) issuedAt = Date.parse(`${textOf(date)}T${textOf(time)}+03:00`);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    errors.push(
      zatcaMessage(
        "ERROR",
        "XSD_ZATCA_INVALID",
        `Schema validation failed; the invoice could not be read: ${why}`,
        "XSD validation",
      ),
    );
    return { verified: null, errors, warnings, issuedAt: null };
  }
  for (const p of verified.problems) errors.push(zatcaMessage("ERROR", p.code, p.message));
  if (body.invoiceHash !== verified.invoiceHash)
    errors.push(
      zatcaMessage(
        "ERROR",
        "invalid-invoice-hash",
        "The invoice hash API body does not match the (calculated) Hash of the XML",
      ),
    );
  if (body.uuid !== verified.uuid)
    errors.push(
      zatcaMessage(
        "ERROR",
        "INVOICE_UUID_VALIDATION",
        "The UUID in the API body does not match the invoice's UUID (KSA-1).",
        "UUID",
      ),
    );
  if (expectedPih !== undefined && verified.pih !== expectedPih)
    errors.push(
      zatcaMessage(
        "ERROR",
        "invalid-previous-invoice-hash",
        "The previous invoice hash (KSA-13) is not the hash of this unit's previous document.",
      ),
    );
  const simplified = verified.transactionCode?.startsWith("02");
  if (simplified && issuedAt !== null && now - issuedAt > REPORTING_WINDOW_MS)
    warnings.push(
      zatcaMessage(
        "WARNING",
        "BR-KSA-98",
        "The simplified invoice should be submitted within 24 hours of issuing the invoice.",
      ),
    );
  return { verified, errors, warnings, issuedAt };
}

/** `validationResults` as the API writes it. */
export const validationResults = (errors: ZatcaMessage[], warnings: ZatcaMessage[], parsed: boolean) => ({
  infoMessages: parsed ? [XSD_VALID] : [],
  warningMessages: warnings,
  errorMessages: errors,
  status: errors.length ? "ERROR" : warnings.length ? "WARNING" : "PASS",
});
