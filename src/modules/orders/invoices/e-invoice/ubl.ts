/**
 * The UBL 2.1 document of an invoice or credit note, as the E-Invoice XML Implementation Standard
 * lays it out for KSA, WITHOUT the three parts the invoice hash leaves out (ext:UBLExtensions, the
 * QR's cac:AdditionalDocumentReference and cac:Signature): that body is exactly the canonical form
 * the hash is taken over. document.ts puts the three parts back in at the places `SLOTS` names.
 */
import { decimalOfMinor } from "../zatca.js";
import type { EInvoiceAddress, EInvoiceBuyer, EInvoiceInput, EInvoiceLine, EInvoiceSeller } from "./types.js";
import { el, leaf, NS } from "./xml.js";

/** BT-3: 388 tax invoice, 381 credit note (standard, section 11.2.1). */
export const TYPE_CODE = { invoice: "388", credit_note: "381" } as const;
/** KSA-2, "NNPNESB": 01 standard or 02 simplified, then no third-party, nominal, export, summary or self-billed flags. */
export const TRANSACTION_CODE = { standard: "0100000", simplified: "0200000" } as const;

/** Saudi Arabia keeps UTC+3 all year: the issue date and time are written as the receipt shows them. */
const RIYADH_OFFSET_MS = 3 * 3600_000;

/** IssueDate and IssueTime (BT-2, KSA-25) of an instant, in Riyadh time. */
export function issueDateTime(iso: string): { date: string; time: string } {
  const at = new Date(new Date(iso).getTime() + RIYADH_OFFSET_MS).toISOString();
  return { date: at.slice(0, 10), time: at.slice(11, 19) };
}

const amount = (name: string, minor: number, currency: string) =>
  leaf(name, decimalOfMinor(minor), { currencyID: currency });
const percent = (p: number) => p.toFixed(2);

function address(a: EInvoiceAddress): string {
  return el(
    "cac:PostalAddress",
    undefined,
    leaf("cbc:StreetName", a.street),
    leaf("cbc:BuildingNumber", a.buildingNumber),
    leaf("cbc:CitySubdivisionName", a.district),
    leaf("cbc:CityName", a.city),
    leaf("cbc:PostalZone", a.postalZone),
    el("cac:Country", undefined, leaf("cbc:IdentificationCode", a.country)),
  );
}

const vatScheme = el("cac:TaxScheme", undefined, leaf("cbc:ID", "VAT"));

function seller(s: EInvoiceSeller): string {
  return el(
    "cac:AccountingSupplierParty",
    undefined,
    el(
      "cac:Party",
      undefined,
      s.id && el("cac:PartyIdentification", undefined, leaf("cbc:ID", s.id.value, { schemeID: s.id.scheme })),
      address(s.address),
      el("cac:PartyTaxScheme", undefined, leaf("cbc:CompanyID", s.vatNumber), vatScheme),
      el("cac:PartyLegalEntity", undefined, leaf("cbc:RegistrationName", s.name)),
    ),
  );
}

function buyer(b: EInvoiceBuyer | undefined): string {
  return el(
    "cac:AccountingCustomerParty",
    undefined,
    el(
      "cac:Party",
      undefined,
      b?.id && el("cac:PartyIdentification", undefined, leaf("cbc:ID", b.id.value, { schemeID: b.id.scheme })),
      b?.address && address(b.address),
      b?.vatNumber && el("cac:PartyTaxScheme", undefined, leaf("cbc:CompanyID", b.vatNumber), vatScheme),
      b?.name && el("cac:PartyLegalEntity", undefined, leaf("cbc:RegistrationName", b.name)),
    ),
  );
}

/** One VAT breakdown (BG-23) per category and rate, as BR-S-08 and its peers ask. */
function breakdown(lines: EInvoiceLine[], currency: string): string {
  const groups = new Map<string, { line: EInvoiceLine; net: number; vat: number }>();
  for (const line of lines) {
    const key = `${line.category}|${line.vatPercent}|${line.exemption?.code ?? ""}`;
    const g = groups.get(key) ?? { line, net: 0, vat: 0 };
    g.net += line.netMinor;
    g.vat += line.vatMinor;
    groups.set(key, g);
  }
  return [...groups.values()]
    .map(({ line, net, vat }) =>
      el(
        "cac:TaxSubtotal",
        undefined,
        amount("cbc:TaxableAmount", net, currency),
        amount("cbc:TaxAmount", vat, currency),
        el(
          "cac:TaxCategory",
          undefined,
          leaf("cbc:ID", line.category, { schemeAgencyID: "6", schemeID: "UN/ECE 5305" }),
          leaf("cbc:Percent", percent(line.vatPercent)),
          line.exemption && leaf("cbc:TaxExemptionReasonCode", line.exemption.code),
          line.exemption && leaf("cbc:TaxExemptionReason", line.exemption.reason),
          el("cac:TaxScheme", undefined, leaf("cbc:ID", "VAT", { schemeAgencyID: "6", schemeID: "UN/ECE 5153" })),
        ),
      ),
    )
    .join("");
}

function line(l: EInvoiceLine, index: number, currency: string): string {
  return el(
    "cac:InvoiceLine",
    undefined,
    leaf("cbc:ID", String(index + 1)),
    leaf("cbc:InvoicedQuantity", l.quantity, { unitCode: "PCE" }),
    amount("cbc:LineExtensionAmount", l.netMinor, currency),
    el(
      "cac:TaxTotal",
      undefined,
      amount("cbc:TaxAmount", l.vatMinor, currency),
      // KSA-12: the line amount with VAT.
      amount("cbc:RoundingAmount", l.netMinor + l.vatMinor, currency),
    ),
    el(
      "cac:Item",
      undefined,
      leaf("cbc:Name", l.name),
      el(
        "cac:ClassifiedTaxCategory",
        undefined,
        leaf("cbc:ID", l.category),
        leaf("cbc:Percent", percent(l.vatPercent)),
        vatScheme,
      ),
    ),
    el("cac:Price", undefined, leaf("cbc:PriceAmount", l.unitPrice, { currencyID: currency })),
  );
}

/** Throws unless the lines add up to the invoice's own totals (BR-CO-10, BR-CO-14, BR-CO-15). */
export function checkTotals(input: EInvoiceInput): void {
  const net = input.lines.reduce((s, l) => s + l.netMinor, 0);
  const vat = input.lines.reduce((s, l) => s + l.vatMinor, 0);
  const { netMinor, vatMinor, grossMinor } = input.totals;
  if (net !== netMinor || vat !== vatMinor || netMinor + vatMinor !== grossMinor)
    throw new RangeError(
      `e-invoice ${input.number}: the lines (net ${net}, VAT ${vat}) do not add up to the totals (net ${netMinor}, VAT ${vatMinor}, gross ${grossMinor})`,
    );
  if (input.lines.some((l) => !/^\d+(\.\d+)?$/.test(l.unitPrice) || !/^\d+(\.\d+)?$/.test(l.quantity)))
    throw new RangeError(`e-invoice ${input.number}: quantities and prices are plain positive decimals`);
  if (input.lines.some((l) => l.netMinor < 0 || l.vatMinor < 0))
    throw new RangeError(`e-invoice ${input.number}: amounts are positive (a credit note is one by its type code)`);
  if (input.currency !== "SAR") throw new RangeError(`e-invoice ${input.number}: only SAR invoices are built`);
  if (input.kind === "credit_note" && !input.creditNote)
    throw new RangeError(
      `e-invoice ${input.number}: a credit note names its invoice and its reason (BR-KSA-17, BR-KSA-56)`,
    );
}

/**
 * The body in three pieces: the root's start tag, what comes before the QR's reference and what
 * comes after cac:Signature. UBLExtensions go right after the start tag, the QR's reference and
 * cac:Signature between `head` and `tail` (the order of UBL's schema and the standard's samples);
 * `rootStart + head + tail + "</Invoice>"` is the canonical form the invoice hash is taken over.
 */
export function ublBody(input: EInvoiceInput): { rootStart: string; head: string; tail: string } {
  checkTotals(input);
  const { date, time } = issueDateTime(input.issuedAt);
  const c = input.currency;
  const rootStart = `<Invoice xmlns="${NS.invoice}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}" xmlns:ext="${NS.ext}">`;
  const head = [
    leaf("cbc:ProfileID", "reporting:1.0"),
    leaf("cbc:ID", input.number),
    leaf("cbc:UUID", input.uuid),
    leaf("cbc:IssueDate", date),
    leaf("cbc:IssueTime", time),
    leaf("cbc:InvoiceTypeCode", TYPE_CODE[input.kind], { name: TRANSACTION_CODE[input.transaction] }),
    leaf("cbc:DocumentCurrencyCode", c),
    leaf("cbc:TaxCurrencyCode", "SAR"),
    input.creditNote &&
      el(
        "cac:BillingReference",
        undefined,
        el("cac:InvoiceDocumentReference", undefined, leaf("cbc:ID", input.creditNote.invoiceNumber)),
      ),
    el("cac:AdditionalDocumentReference", undefined, leaf("cbc:ID", "ICV"), leaf("cbc:UUID", String(input.icv))),
    el(
      "cac:AdditionalDocumentReference",
      undefined,
      leaf("cbc:ID", "PIH"),
      el("cac:Attachment", undefined, leaf("cbc:EmbeddedDocumentBinaryObject", input.pih, { mimeCode: "text/plain" })),
    ),
  ].join("");
  const tail = [
    seller(input.seller),
    buyer(input.buyer),
    el("cac:Delivery", undefined, leaf("cbc:ActualDeliveryDate", input.supplyDate ?? date)),
    el(
      "cac:PaymentMeans",
      undefined,
      leaf("cbc:PaymentMeansCode", input.paymentMeansCode),
      input.creditNote && leaf("cbc:InstructionNote", input.creditNote.reason),
    ),
    // BR-KSA-EN16931-09 wants the VAT total in the tax currency once on its own, then with its breakdown.
    el("cac:TaxTotal", undefined, amount("cbc:TaxAmount", input.totals.vatMinor, "SAR")),
    el("cac:TaxTotal", undefined, amount("cbc:TaxAmount", input.totals.vatMinor, c), breakdown(input.lines, c)),
    el(
      "cac:LegalMonetaryTotal",
      undefined,
      amount("cbc:LineExtensionAmount", input.totals.netMinor, c),
      amount("cbc:TaxExclusiveAmount", input.totals.netMinor, c),
      amount("cbc:TaxInclusiveAmount", input.totals.grossMinor, c),
      amount("cbc:AllowanceTotalAmount", 0, c),
      amount("cbc:PrepaidAmount", 0, c),
      amount("cbc:PayableAmount", input.totals.grossMinor, c),
    ),
    ...input.lines.map((l, i) => line(l, i, c)),
  ].join("");
  return { rootStart, head, tail };
}
