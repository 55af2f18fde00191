import type { NationalAddress } from "../buyer";
import { FIRST_PIH } from "../invoices/e-invoice/hash";
import type { EInvoiceAddress, EInvoiceInput } from "../invoices/e-invoice/types";
import { type InvoiceType, typesOf } from "./units";

/**
 * The documents a unit signs for ZATCA's compliance checks (docs/zatca.md, "Flow"): an invoice and a
 * credit note of each type its CSR enables, from the store's own seller details and one line of
 * 10.00 SAR + 15% VAT. They stand alone (no chain: ZATCA does not chain compliance samples).
 */

/** The seller details the samples (and the CSR) take from the store's settings. */
export type Seller = {
  name: string;
  vatNumber: string;
  commercialRegistration: string | null;
  address: NationalAddress;
};

/** A B2B buyer for the standard samples: ZATCA's own sample buyer (its SDK's samples name it). */
export const SAMPLE_BUYER = {
  name: "Fatoora Samples LTD",
  vatNumber: "399999999800003",
  address: {
    street: "Salah Al-Din",
    buildingNumber: "1111",
    district: "Al-Murooj",
    city: "Riyadh",
    postalZone: "12222",
    country: "SA",
  },
};

export function complianceSamples(seller: Seller, title: string, issuedAt: string): EInvoiceInput[] {
  const address: EInvoiceAddress = {
    street: seller.address.street,
    buildingNumber: seller.address.building_number,
    district: seller.address.district,
    city: seller.address.city,
    postalZone: seller.address.postal_code,
    country: "SA",
  };
  const types: InvoiceType[] = typesOf(title);
  return types.flatMap((transaction, t) =>
    (["invoice", "credit_note"] as const).map((kind, k): EInvoiceInput => {
      const n = t * 2 + k + 1;
      return {
        kind,
        transaction,
        number: `CHECK-${n}`,
        uuid: crypto.randomUUID(),
        issuedAt,
        icv: n,
        pih: FIRST_PIH,
        currency: "SAR",
        seller: {
          name: seller.name,
          vatNumber: seller.vatNumber,
          ...(seller.commercialRegistration && {
            id: { scheme: "CRN" as const, value: seller.commercialRegistration },
          }),
          address,
        },
        ...(transaction === "standard" && { buyer: SAMPLE_BUYER }),
        lines: [
          {
            name: "Compliance check",
            quantity: "1",
            unitPrice: "10.00",
            netMinor: 1000,
            vatMinor: 150,
            vatPercent: 15,
            category: "S",
          },
        ],
        totals: { netMinor: 1000, vatMinor: 150, grossMinor: 1150 },
        paymentMeansCode: "10",
        ...(kind === "credit_note" && { creditNote: { invoiceNumber: `CHECK-${n - 1}`, reason: "Compliance check" } }),
      };
    }),
  );
}
