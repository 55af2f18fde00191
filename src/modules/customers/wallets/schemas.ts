import { z } from "@hono/zod-openapi";
import { DATE_TIME_WORDS, humanText, hundredths, hundredthsOf } from "../../../core/fields";
import { isIsoDateTime } from "../../../core/time";
import { WALLET_ENTRY_TYPES, WALLET_KINDS } from "../tables";

/** Points in one movement: whole units. */
export const MAX_POINTS = 1_000_000_000;
/** Cashback in one movement, in major units. */
export const MAX_CASHBACK = 10_000_000;

const points = z
  .number()
  .int("Must be a whole number of points.")
  .min(1)
  .max(MAX_POINTS)
  .openapi({ description: "Points, a whole number.", example: 150 });

/** Money in major units, at least 0.01 → minor units (core/fields' `hundredths`). */
const cashback = hundredths({
  min: 0.01,
  max: MAX_CASHBACK,
  description: "Money in major units (SAR), more than 0, at most 2 decimals.",
  example: 25.5,
});

const reason = humanText(200, "lines").min(1).openapi({ example: "Birthday gift" });
const reference = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .openapi({ description: "Your own reference (an order number, a campaign).", example: "CAMPAIGN-7" });
/** When the deposited amount lapses; in the future. Stored in UTC so that it compares as text. */
const expiresAt = z
  .string()
  .max(40)
  .transform((s, ctx) => {
    if (!isIsoDateTime(s)) {
      ctx.addIssue({ code: "custom", message: DATE_TIME_WORDS });
      return z.NEVER;
    }
    const at = new Date(s).toISOString();
    if (at <= new Date().toISOString()) {
      ctx.addIssue({ code: "custom", message: "Must be in the future." });
      return z.NEVER;
    }
    return at;
  })
  .openapi({
    type: "string",
    format: "date-time",
    maxLength: 40,
    description: "When what is left of this deposit lapses; in the future.",
    example: "2027-01-01T00:00:00Z",
  });

export const DepositPointsSchema = z
  .object({ amount: points, reason, reference: reference.optional(), expires_at: expiresAt.optional() })
  .strict()
  .openapi("DepositPoints");

export const DepositCashbackSchema = z
  .object({ amount: cashback, reason, reference: reference.optional(), expires_at: expiresAt.optional() })
  .strict()
  .openapi("DepositCashback");

export const RedeemFromWalletSchema = z
  .object({
    kind: z.enum(WALLET_KINDS).openapi({ description: "Which balance to take from." }),
    amount: z
      .number()
      .gt(0)
      .max(MAX_POINTS)
      .openapi({
        description:
          "By `kind`: points (a whole number), or cashback money in major units (at most 2 decimals, at most " +
          `${MAX_CASHBACK}).`,
        example: 10,
      }),
    order_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().openapi({ example: 1042 }),
    reference: reference.optional(),
    reason: reason.optional(),
  })
  .strict()
  .transform((body, ctx) => {
    // The unit of `amount` depends on `kind`: whole points, or money read as minor units as every amount is.
    const units =
      body.kind === "points"
        ? Number.isInteger(body.amount)
          ? body.amount
          : { message: "Must be a whole number of points." }
        : hundredthsOf(body.amount, { min: 0.01, max: MAX_CASHBACK });
    if (typeof units !== "number") {
      ctx.addIssue({ code: "custom", path: ["amount"], message: units.message });
      return z.NEVER;
    }
    return { ...body, units };
  })
  .openapi("RedeemFromWallet");

export type DepositPoints = z.output<typeof DepositPointsSchema>;
export type DepositCashback = z.output<typeof DepositCashbackSchema>;
export type RedeemFromWallet = z.output<typeof RedeemFromWalletSchema>;

const amountDoc = "Points for `points`; money in major units for `cashback`.";

/** One movement of the ledger, as the API shows it. */
export const WalletEntrySchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(WALLET_KINDS),
    type: z.enum(WALLET_ENTRY_TYPES),
    amount: z.number().openapi({ description: `Signed: positive in, negative out. ${amountDoc}`, example: -10 }),
    balance_after: z.number().openapi({ description: `The balance of \`kind\` after this entry. ${amountDoc}` }),
    reason: z.string().nullable(),
    reference: z.string().nullable(),
    order_id: z.number().int().nullable(),
    expires_at: z.string().nullable().openapi({ format: "date-time" }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("WalletEntry");

const balances = {
  customer_id: z.number().int(),
  points_balance: z.number().int().openapi({ example: 150 }),
  cashback_balance: z.number().openapi({ description: "Money in major units.", example: 25.5 }),
  currency: z.string().openapi({ example: "SAR" }),
};

export const WalletSchema = z
  .object({
    ...balances,
    expiring: z
      .array(
        z.object({
          kind: z.enum(WALLET_KINDS),
          amount: z.number().openapi({ description: amountDoc }),
          expires_at: z.string().openapi({ format: "date-time" }),
        }),
      )
      .openapi({
        description:
          "What of the balances lapses, soonest first: the part of each deposit with an `expires_at` still " +
          "unspent (redemptions use the soonest-lapsing amounts first).",
      }),
    recent_entries: z.array(WalletEntrySchema).openapi({ description: "The last 20 entries, newest first." }),
  })
  .openapi("CustomerWallet");

export const WalletUpdateSchema = z
  .object({ entry: WalletEntrySchema, ...balances })
  .openapi("CustomerWalletUpdate", { description: "The new ledger entry and the balances after it." });

export type Wallet = z.infer<typeof WalletSchema>;
export type WalletEntry = z.infer<typeof WalletEntrySchema>;
export type WalletUpdate = z.infer<typeof WalletUpdateSchema>;
