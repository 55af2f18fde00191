import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../../core/listing";
import { STORE_WALLET_SOURCES } from "../tables";

/** One movement of the store wallet's ledger. */
export const StoreWalletEntrySchema = z
  .object({
    id: z.number().int(),
    type: z.enum(["credit", "debit"]),
    source: z.enum(STORE_WALLET_SOURCES).openapi({
      description:
        "`charge`: a paid top-up; `fee`: a service fee; `refund`: money given back; `adjustment`: a correction; " +
        "`label`: a shipping label bought from the wallet.",
    }),
    amount: z.number().openapi({ description: "Signed, in major units: positive in, negative out.", example: 100 }),
    balance_after: z.number().openapi({ description: "The balance after this entry, in major units." }),
    order_id: z.number().int().nullable().openapi({ description: "The order behind it (the top-up's order)." }),
    reference: z.string().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("StoreWalletEntry");

export type StoreWalletEntry = z.infer<typeof StoreWalletEntrySchema>;

export const StoreWalletEntryListSchema = envelopeSchema(StoreWalletEntrySchema, "StoreWalletEntryList");

export const StoreWalletSchema = z
  .object({
    balance: z.number().openapi({ description: "Major units; never below zero.", example: 250 }),
    currency: z.string().openapi({ example: "SAR" }),
    pending_amount: z.number().openapi({
      description: "Top-ups ordered but not paid yet (pending top-up orders), in major units; not in `balance`.",
      example: 100,
    }),
    updated_at: z.string().nullable().openapi({
      format: "date-time",
      description: "When the latest entry was written; null for a wallet without one.",
    }),
    recent_entries: z
      .array(StoreWalletEntrySchema)
      .openapi({ description: "The 20 latest entries, newest first; List Store Wallet Transactions has them all." }),
  })
  .openapi("StoreWallet");

export type StoreWallet = z.infer<typeof StoreWalletSchema>;
