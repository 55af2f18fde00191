import { z } from "@hono/zod-openapi";
import { humanText, hundredths } from "../../core/fields";
import { toMajor } from "../../core/money";
import { nationalAddressFields, vatNumber } from "../account";
import type { StoredBuyer } from "./buyer";

/** Basis points as the percentage the API shows (1500 → 15). */
export const percentOfBp = (bp: number) => bp / 100;

/** An amount the client sends in major units, parsed to minor units by the one money rule (core/fields). */
export const amountMinor = (max = 99_999_999_999, min = 0) =>
  hundredths({ min, max, description: "In major units, at most 2 decimals.", example: 10.5 });

/** The totals of a cart, a checkout, an order or an invoice (the FOUND names). */
export const TotalsFields = {
  sub_total_amount: z.number().openapi({ description: "The lines at their prices (VAT included), before vouchers." }),
  shipping_amount: z.number(),
  setup_amount: z.number(),
  net_amount: z.number().openapi({ description: "sub_total + shipping + setup." }),
  sub_total_discounts_amount: z.number().openapi({ description: "Voucher discounts on the lines." }),
  shipping_discounts_amount: z.number(),
  total_discounts_amount: z.number(),
  total_amount: z.number().openapi({ description: "net − discounts: what is owed, VAT included." }),
  wallet_redeem_amount: z.number().openapi({ description: "Paid from the customer's cashback." }),
  total_amount_with_redeem: z.number().openapi({ description: "total − wallet_redeem: what the provider is paid." }),
  total_amount_excluding_tax: z.number(),
  tax_amount: z.number().openapi({ description: "The sum of the lines' VAT (rounded per line)." }),
  tax_percentage: z.number(),
  currency: z.string(),
};

export type TotalsSource = {
  subTotalMinor: number;
  shippingMinor: number;
  setupMinor: number;
  subTotalDiscountsMinor: number;
  shippingDiscountsMinor: number;
  totalMinor: number;
  walletRedeemMinor: number;
  taxMinor: number;
  taxPercentageBp: number;
  currency: string;
};

export function totalsView(t: TotalsSource) {
  const net = t.subTotalMinor + t.shippingMinor + t.setupMinor;
  return {
    sub_total_amount: toMajor(t.subTotalMinor),
    shipping_amount: toMajor(t.shippingMinor),
    setup_amount: toMajor(t.setupMinor),
    net_amount: toMajor(net),
    sub_total_discounts_amount: toMajor(t.subTotalDiscountsMinor),
    shipping_discounts_amount: toMajor(t.shippingDiscountsMinor),
    total_discounts_amount: toMajor(t.subTotalDiscountsMinor + t.shippingDiscountsMinor),
    total_amount: toMajor(t.totalMinor),
    wallet_redeem_amount: toMajor(t.walletRedeemMinor),
    total_amount_with_redeem: toMajor(t.totalMinor - t.walletRedeemMinor),
    total_amount_excluding_tax: toMajor(t.totalMinor - t.taxMinor),
    tax_amount: toMajor(t.taxMinor),
    tax_percentage: percentOfBp(t.taxPercentageBp),
    currency: t.currency,
  };
}

/** A line's modifier values and bundle choices, as requests send them. */
export const lineChoices = {
  modifier_values: z
    .array(z.number().int().positive())
    .max(50)
    .refine((v) => new Set(v).size === v.length, "Values must not repeat.")
    .optional(),
  bundle_selections: z
    .array(
      z
        .object({
          bundle_category_id: z.number().int().positive(),
          item_ids: z.array(z.number().int().positive()).max(100),
        })
        .strict(),
    )
    .max(50)
    .optional(),
};

export const LineRequestSchema = z
  .object({
    item_id: z.number().int().positive(),
    qty: z.number().int().min(1).max(10_000),
    ...lineChoices,
  })
  .strict()
  .openapi("OrderLineRequest");

export type LineRequest = z.infer<typeof LineRequestSchema>;

export const linesOf = (lines: LineRequest[]) =>
  lines.map((l, i) => ({
    key: i,
    itemId: l.item_id,
    qty: l.qty,
    modifierValueIds: l.modifier_values ?? [],
    bundleSelections: l.bundle_selections ?? [],
  }));

/**
 * A business that buys with its VAT number (B2B, docs/zatca.md): its invoices are standard tax
 * invoices, which ZATCA clears before they are shared, naming it with its national address.
 */
export const BuyerSchema = z
  .object({
    name: humanText(200).min(1),
    vat_number: vatNumber,
    address: z.object(nationalAddressFields).strict().openapi("BuyerAddress", {
      description: "The buyer's national address on its standard e-invoices.",
    }),
  })
  .strict()
  .openapi("Buyer", {
    description:
      "A VAT-registered business buying: its invoices are standard tax invoices, cleared by ZATCA before they " +
      "are shared. Null for a consumer (simplified invoices, reported).",
  });

export type Buyer = z.infer<typeof BuyerSchema>;

// buyer.ts spells the stored buyer out (tables.ts must not import this file): the two stay the same type.
true satisfies Buyer extends StoredBuyer ? (StoredBuyer extends Buyer ? true : false) : false;
