import type { StoreSettings } from "../../account";
import type { EInvoiceInput, EInvoiceLine } from "../invoices/e-invoice/types";
import type { invoiceItems, invoices, orders } from "../tables";

/**
 * An invoice's rows as the e-invoice builder takes them (docs/zatca.md, "The e-invoice"): the
 * seller from the invoice (name and VAT number fixed with its serial) and the store's settings
 * (registration and national address), the buyer from the order, the lines and totals from the
 * invoice, a credit note's reference and reason from the refund invoice. Pure: the signer reads
 * the rows, this shapes them.
 */

type InvoiceRow = typeof invoices.$inferSelect;
type LineRow = typeof invoiceItems.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/** What the document takes of the store's settings (the seller's name and VAT number are the invoice's). */
export type SellerSettings = Pick<StoreSettings, "commercialRegistration" | "sellerAddress" | "defaultLang">;

export type InvoiceForEInvoice = {
  invoice: InvoiceRow;
  lines: LineRow[];
  order: (Pick<OrderRow, "receiver"> & Partial<Pick<OrderRow, "buyer">>) | undefined;
  /** A refund invoice's original's serial. */
  creditedSerial: string | null;
  settings: SellerSettings;
  /** The e-invoice row's counter and UUID, and the PIH the chain gives it. */
  chain: { icv: number; uuid: string; pih: string };
};

/** Why a document cannot be built yet: the chain waits at it until the merchant fixes the store's settings. */
export class EInvoiceNotBuildable extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** UNTDID 4461 by provider: 10 cash, 30 credit transfer, 48 card, 1 not defined (wallet, free). */
const PAYMENT_MEANS: Record<string, string> = { cash_on_delivery: "10", bank_transfer: "30", card: "48" };

/**
 * A line's net price of one unit (BT-146) as a decimal string: exact when net ÷ qty terminates within
 * 6 decimals, else rounded half up to 6 (1 SAR over 3 is "0.333333"); at least 2 decimals.
 */
export function unitPriceOf(netMinor: number, qty: number): string {
  const scaled = (BigInt(netMinor) * 10_000n * 2n + BigInt(qty)) / (BigInt(qty) * 2n); // millionths, half up
  const whole = scaled / 1_000_000n;
  const fraction = (scaled % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${whole}.${fraction}`;
}

const percentOf = (bp: number) => bp / 100;

function lineOf(l: LineRow, lang: "ar" | "en"): EInvoiceLine {
  // A refund by amount gives back part of a line without a quantity: one unit of that amount.
  const qty = Math.max(l.qty, 1);
  return {
    name: (lang === "ar" ? l.nameAr : l.nameEn) || l.nameEn || l.nameAr,
    quantity: String(qty),
    unitPrice: unitPriceOf(l.totalExcludingTaxMinor, qty),
    netMinor: l.totalExcludingTaxMinor,
    vatMinor: l.taxMinor,
    vatPercent: percentOf(l.taxPercentageBp),
    category: "S",
  };
}

/**
 * What the invoice charges beyond its item lines (delivery, setup) as one line of its own, so that
 * the lines add up to the invoice's totals as the builder requires. Null when nothing is left.
 */
function chargesLine(invoice: InvoiceRow, lines: EInvoiceLine[]): EInvoiceLine | null {
  const net = invoice.totalExcludingTaxMinor - lines.reduce((s, l) => s + l.netMinor, 0);
  const vat = invoice.taxMinor - lines.reduce((s, l) => s + l.vatMinor, 0);
  if (net === 0 && vat === 0) return null;
  if (net < 0 || vat < 0)
    throw new EInvoiceNotBuildable(
      "invoice-discount-unsupported",
      `Invoice ${invoice.serial}'s lines come to more than its total: document-level discounts are not carried yet.`,
    );
  const name =
    invoice.shippingMinor > 0 && invoice.setupMinor > 0
      ? "Delivery and setup"
      : invoice.setupMinor > 0
        ? "Setup"
        : "Delivery";
  return {
    name,
    quantity: "1",
    unitPrice: unitPriceOf(net, 1),
    netMinor: net,
    vatMinor: vat,
    vatPercent: percentOf(invoice.taxPercentageBp),
    category: "S",
  };
}

export function einvoiceInputOf(d: InvoiceForEInvoice): EInvoiceInput {
  const { invoice, settings } = d;
  const address = settings.sellerAddress;
  if (!invoice.vatNumber || !invoice.sellerName)
    throw new EInvoiceNotBuildable(
      "seller-vat-missing",
      `Invoice ${invoice.serial} names no seller VAT number: set the store's vat_number, then the chain goes on.`,
    );
  if (!address)
    throw new EInvoiceNotBuildable(
      "seller-address-missing",
      "The store has no seller_address (its national address): set it in the store's settings, then the chain goes on.",
    );
  if (!invoice.serial || !invoice.issuedAt)
    throw new EInvoiceNotBuildable("invoice-not-issued", `Invoice ${invoice.id} has no serial.`);
  const lines = d.lines.map((l) => lineOf(l, settings.defaultLang));
  const charges = chargesLine(invoice, lines);
  if (charges) lines.push(charges);
  const receiverName = d.order?.receiver?.name;
  const buyer = d.order?.buyer;
  const refund = invoice.type === "refund";
  if (refund && !d.creditedSerial)
    throw new EInvoiceNotBuildable(
      "credit-note-reference-missing",
      `Refund invoice ${invoice.serial} names no invoice.`,
    );
  return {
    kind: refund ? "credit_note" : "invoice",
    // Standard (B2B, cleared) when the order names a VAT-registered buyer; a refund invoice shares its original's order.
    transaction: buyer ? "standard" : "simplified",
    number: invoice.serial,
    uuid: d.chain.uuid,
    issuedAt: invoice.issuedAt,
    icv: d.chain.icv,
    pih: d.chain.pih,
    currency: invoice.currency,
    seller: {
      name: invoice.sellerName,
      vatNumber: invoice.vatNumber,
      ...(settings.commercialRegistration && {
        id: { scheme: "CRN" as const, value: settings.commercialRegistration },
      }),
      address: {
        street: address.street,
        buildingNumber: address.building_number,
        district: address.district,
        city: address.city,
        postalZone: address.postal_code,
        country: "SA",
      },
    },
    ...(buyer
      ? {
          buyer: {
            name: buyer.name,
            vatNumber: buyer.vat_number,
            address: {
              street: buyer.address.street,
              buildingNumber: buyer.address.building_number,
              district: buyer.address.district,
              city: buyer.address.city,
              postalZone: buyer.address.postal_code,
              country: "SA",
            },
          },
        }
      : typeof receiverName === "string" && receiverName.trim() && { buyer: { name: receiverName.trim() } }),
    lines,
    totals: {
      netMinor: invoice.totalExcludingTaxMinor,
      vatMinor: invoice.taxMinor,
      grossMinor: invoice.totalMinor,
    },
    paymentMeansCode: PAYMENT_MEANS[invoice.paymentProvider ?? ""] ?? "1",
    ...(refund && {
      creditNote: { invoiceNumber: d.creditedSerial ?? "", reason: invoice.refundReason || "Refund" },
    }),
  };
}
