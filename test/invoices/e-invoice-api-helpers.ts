/**
 * The e-invoicing API adapter on a fresh local fake of ZATCA's API, and the signed documents the
 * tests send it: built and signed by the core with the SDK's key, which is the pair of the
 * certificate the fake issues (as ZATCA's developer portal does).
 */
import { expect } from "vitest";
import { SAMPLE_BUYER } from "../../src/modules/orders/einvoices/compliance-samples";
import {
  type Credentials,
  httpEInvoicingApi,
  type SubmittedDocument,
} from "../../src/modules/orders/invoices/e-invoice/api";
import { parseCertificate, privateKeyFromSec1 } from "../../src/modules/orders/invoices/e-invoice/certificate";
import { type CsrFields, unitCsr } from "../../src/modules/orders/invoices/e-invoice/csr";
import { signEInvoice } from "../../src/modules/orders/invoices/e-invoice/document";
import { FAKE_ZATCA_URL, fakeZatca } from "../../src/modules/orders/invoices/e-invoice/fake";
import { FIRST_PIH } from "../../src/modules/orders/invoices/e-invoice/hash";
import { newUnitKey } from "../../src/modules/orders/invoices/e-invoice/keys";
import type { EInvoiceInput } from "../../src/modules/orders/invoices/e-invoice/types";
import { SDK_CERTIFICATE, SDK_PRIVATE_KEY, simplifiedInput } from "./e-invoice-fixtures";

/** 30 minutes after simplifiedInput()'s issue instant: inside the 24-hour reporting window. */
export const SOON_AFTER_ISSUE = Date.parse("2026-01-05T10:00:00Z");

export const UNIT_FIELDS: CsrFields = {
  environment: "developer-portal",
  commonName: "TST-886431145-399999999900003",
  organization: "Al Mathaq Co",
  organizationUnit: "Riyadh Branch",
  unit: { solution: "Commerce", model: "1.0", serial: "6f1c2a8e-4b7d-4e0a-9c3f-2d5e8a1b7c40" },
  vatNumber: "399999999900003",
  invoiceTypes: "1100",
  address: "RRRD2929",
  industry: "Food and drink",
};

const stamp = { privateKey: privateKeyFromSec1(SDK_PRIVATE_KEY), certificate: parseCertificate(SDK_CERTIFICATE) };

/** One document of each kind a unit of type 1100 issues. */
export const KINDS = {
  simplifiedInvoice: {},
  simplifiedCreditNote: {
    kind: "credit_note",
    number: "CRN-000001",
    creditNote: { invoiceNumber: "INV-000123", reason: "Returned: wrong item" },
  },
  standardInvoice: { transaction: "standard", buyer: SAMPLE_BUYER },
  standardCreditNote: {
    transaction: "standard",
    buyer: SAMPLE_BUYER,
    kind: "credit_note",
    number: "CRN-000002",
    creditNote: { invoiceNumber: "INV-000124", reason: "Price corrected" },
  },
} satisfies Record<string, Partial<EInvoiceInput>>;

/** A signed document as the API takes it, with its fields. */
export function signed(over: Partial<EInvoiceInput> = {}): SubmittedDocument & { qr: string } {
  const input = simplifiedInput({ uuid: crypto.randomUUID(), ...over });
  const s = signEInvoice(input, stamp);
  return { invoiceHash: s.invoiceHash, uuid: input.uuid, xml: s.xml, qr: s.qr };
}

/** The chain of documents `kinds` make, ICV 1, 2... from the first PIH. */
export function chain(...kinds: Partial<EInvoiceInput>[]): SubmittedDocument[] {
  let pih = FIRST_PIH;
  return kinds.map((over, i) => {
    const doc = signed({ ...over, icv: i + 1, pih });
    pih = doc.invoiceHash;
    return doc;
  });
}

/**
 * The adapter on a fresh fake, its clock at `now`; `fixedCertificate`: the fake issues the SDK's
 * certificate, as the developer portal does (for units whose fixture signs with the SDK's key).
 */
export function onFake(now = SOON_AFTER_ISSUE, options: { fixedCertificate?: boolean } = {}) {
  const fake = fakeZatca({ now: () => now, ...options });
  const api = httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: fake.fetch });
  return { fake, api };
}

let otp = 100_000;
/** An OTP the fake has not seen (each is good once). */
export const nextOtp = () => String(otp++);

/** A unit taken through onboarding: compliance CSID, its four checks, production CSID. */
export async function onboarded(now = SOON_AFTER_ISSUE, options: { fixedCertificate?: boolean } = {}) {
  const { fake, api } = onFake(now, options);
  const compliance = await api.complianceCsid(nextOtp(), unitCsr(UNIT_FIELDS, newUnitKey()));
  if (compliance.kind !== "issued") throw new Error(`compliance CSID: ${JSON.stringify(compliance)}`);
  for (const kind of Object.values(KINDS)) {
    const checked = await api.complianceInvoice(compliance.csid, signed(kind));
    expect(checked.kind).toBe("passed");
  }
  const production = await api.productionCsid(compliance.csid, compliance.csid.requestId);
  if (production.kind !== "issued") throw new Error(`production CSID: ${JSON.stringify(production)}`);
  return { fake, api, compliance: compliance.csid, production: production.csid as Credentials };
}
