/**
 * What an e-invoice is built from: plain values, not rows, so that the builder, the future
 * consumer that signs in ICV order and the local fake share one shape. Amounts are minor units
 * (halalas); names follow the E-Invoice XML Implementation Standard (BT-/KSA- terms).
 */

/** A party's national address (BG-5 / BG-8): street, building number, district, city, postal code. */
export type EInvoiceAddress = {
  street: string;
  /** Four digits in a Saudi national address (BR-KSA-37). */
  buildingNumber: string;
  /** District (KSA-3 / KSA-4). */
  district: string;
  city: string;
  postalZone: string;
  /** ISO 3166 alpha-2; SA unless the buyer is abroad. */
  country: string;
};

export type EInvoiceSeller = {
  /** Registration name (BT-27). */
  name: string;
  /** VAT registration number (BT-31): 15 digits, first and last 3. */
  vatNumber: string;
  /** Other seller ID (BT-29) with its scheme: CRN (commercial registration) by default. */
  id?: { scheme: "CRN" | "MOM" | "MLS" | "700" | "SAG" | "OTH"; value: string };
  address: EInvoiceAddress;
};

export type EInvoiceBuyer = {
  name?: string;
  /** Buyer VAT number (BT-48): required on a standard invoice to a VAT-registered buyer. */
  vatNumber?: string;
  /** Other buyer ID (BT-46), e.g. NAT (national ID) or CRN. */
  id?: { scheme: string; value: string };
  address?: EInvoiceAddress;
};

/** VAT category (BT-151): S standard, Z zero rated, E exempt, O out of scope (BR-KSA-18). */
export type VatCategory = "S" | "Z" | "E" | "O";

export type EInvoiceLine = {
  name: string;
  /** Quantity as a decimal string ("2", "0.5"): the invoice's own, never through a float. */
  quantity: string;
  /**
   * Net price of one unit (BT-146), excluding VAT, as a decimal string: the line's net over its
   * quantity may need more than two decimals (prices include VAT here), and BT-146 allows them.
   */
  unitPrice: string;
  /** Line net amount (BT-131): excluding VAT, after the line's discount. */
  netMinor: number;
  /** Line VAT amount (KSA-11), rounded per line as our invoices are. */
  vatMinor: number;
  /** Rate in percent (BT-152), e.g. 15. */
  vatPercent: number;
  category: VatCategory;
  /** Exemption reason code and text (BT-121 / BT-120): required for Z, E and O. */
  exemption?: { code: string; reason: string };
};

export type EInvoiceInput = {
  /** 388 tax invoice or 381 credit note (BT-3). */
  kind: "invoice" | "credit_note";
  /** KSA-2's first two digits: 01 standard (B2B, cleared), 02 simplified (B2C, reported). */
  transaction: "standard" | "simplified";
  /** Invoice number (BT-1): our serial. */
  number: string;
  /** KSA-1: the UUID that names this document to ZATCA. */
  uuid: string;
  /** When it was issued: an ISO 8601 instant; written as IssueDate/IssueTime in UTC. */
  issuedAt: string;
  /** Invoice counter value (KSA-16): this unit's next counter. */
  icv: number;
  /** Previous invoice hash (KSA-13): base64; FIRST_PIH for a unit's first document. */
  pih: string;
  /** ISO 4217 (BT-5); the tax currency (BT-6) is SAR. */
  currency: string;
  seller: EInvoiceSeller;
  buyer?: EInvoiceBuyer;
  lines: EInvoiceLine[];
  /** The invoice's own totals: the builder refuses a document whose lines do not add up to them. */
  totals: { netMinor: number; vatMinor: number; grossMinor: number };
  /** Payment means (BT-81, UNTDID 4461): 10 cash, 30 credit transfer, 48 card, 1 not defined. */
  paymentMeansCode: string;
  /** A credit note's preceding invoice (BG-3 / BT-25) and its reason (KSA-10). */
  creditNote?: { invoiceNumber: string; reason: string };
  /** Supply date (KSA-5): required on standard invoices; the issue date when left out. */
  supplyDate?: string;
};
