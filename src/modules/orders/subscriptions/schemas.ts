import { z } from "@hono/zod-openapi";
import { humanText, hundredths, isoDate, MONEY_MAX } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { CustomerSchema } from "../../customers";
import { DURATION_UNITS, INVOICE_STATUSES, PAYMENT_PROVIDERS } from "../tables";
import { SUBSCRIPTION_STATUSES, SUBSCRIPTION_UPDATE_EFFECTS, SUBSCRIPTION_UPDATE_STATUSES } from "./tables";

const date = z.string().openapi({ format: "date", example: "2026-03-01" });

export const SubscriptionInvoiceSchema = z
  .object({
    id: z.number().int().nullable().openapi({ description: "Null on `next_invoice`: it is issued at renewal." }),
    serial: z.string().nullable(),
    amount: z.number().openapi({ description: "Major units, VAT included." }),
    status: z.enum([...INVOICE_STATUSES, "upcoming"]).openapi({
      description: "`upcoming` on `next_invoice` while the subscription is in good standing; `unpaid` when suspended.",
    }),
    payment_url: z.string().nullable(),
    created_at: z.string().nullable(),
    due_date: z.string().nullable(),
    payment_method: z.string().nullable(),
    payment_provider: z.enum(PAYMENT_PROVIDERS).nullable(),
  })
  .openapi("SubscriptionInvoice");

const changes = z.object({
  item_id: z.number().int().optional(),
  price: z.number().optional().openapi({ description: "The new unit price a period, major units." }),
  duration: z.number().int().optional(),
  duration_unit: z.enum(DURATION_UNITS).optional(),
  usage_limit: z.number().int().nullable().optional(),
});

export const SubscriptionUpdateSchema = z
  .object({
    id: z.number().int(),
    subscription_id: z.number().int(),
    changes,
    effective: z.enum(SUBSCRIPTION_UPDATE_EFFECTS),
    effective_at: date.nullable().openapi({ description: "The day it applies (applied: the day it did)." }),
    status: z.enum(SUBSCRIPTION_UPDATE_STATUSES),
    proration_amount: z.number().openapi({
      description:
        "Immediate price changes: what the rest of the period owes (+) or is credited (−), on the next renewal.",
    }),
    created_at: z.string(),
    applied_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
  })
  .openapi("SubscriptionUpdate");

/** The FOUND fields (design-reference 6.2) and the RECOMMENDED additions. */
export const SubscriptionSchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    customer_id: z.number().int(),
    item_id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    order: z.number().int().openapi({ description: "The checkout's order (its first period)." }),
    status: z.enum(SUBSCRIPTION_STATUSES),
    price: z
      .number()
      .openapi({ description: "What a period costs (unit price × quantity), major units, VAT included." }),
    quantity: z.number().int(),
    currency: z.string(),
    payment_provider: z.enum(PAYMENT_PROVIDERS).nullable(),
    duration: z.number().int(),
    duration_unit: z.enum(DURATION_UNITS),
    start_date: date.nullable(),
    end_date: date.nullable().openapi({
      description: "When it ends or ended: known once auto-renewal is off, cycles run out, or it is cancelled.",
    }),
    in_trial: z.boolean(),
    trial_start_date: date.nullable(),
    trial_end_date: date.nullable(),
    paused_at: z.string().nullable(),
    pause_resumes_at: date.nullable(),
    total_billing_cycles: z.number().int().nullable(),
    remaining_billing_cycles: z.number().int().nullable(),
    auto_renew: z.boolean(),
    cancel_at_period_end: z.boolean(),
    current_period_start_date: date.nullable(),
    current_period_end_date: date.nullable().openapi({ description: "The period's end: the day the next one starts." }),
    last_billing_date: date.nullable(),
    next_billing_date: date.nullable(),
    retry_date: date.nullable().openapi({ description: "Suspended: the day the unpaid renewal is tried again." }),
    usage_counter: z.number().int(),
    usage_limit: z.number().int().nullable(),
    usage_unit: z.string(),
    auto_increment_usage: z.boolean(),
    cancelled_at: z.string().nullable(),
    cancellation_reason: z.string().nullable(),
    created_at: z.string(),
    modified_at: z.string(),
    invoices: z.array(SubscriptionInvoiceSchema).openapi({ description: "Its invoices, newest first (the last 24)." }),
    next_invoice: z.union([SubscriptionInvoiceSchema, z.null()]).openapi({
      description: "The next renewal's amount and due date; null when none will be issued.",
    }),
    pending_update: z.union([SubscriptionUpdateSchema, z.null()]),
  })
  .openapi("Subscription");

export const MerchantSubscriptionSchema = SubscriptionSchema.extend({
  customer: z.union([CustomerSchema, z.null()]),
}).openapi("MerchantSubscription");

export const SubscriptionListSchema = envelopeSchema(SubscriptionSchema, "SubscriptionList");
export const MerchantSubscriptionListSchema = envelopeSchema(MerchantSubscriptionSchema, "MerchantSubscriptionList");

export const SubscriptionStatisticsSchema = z
  .object({
    from: date,
    to: date,
    total: z.number().int(),
    by_status: z.object(
      Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, z.number().int()])) as {
        [K in (typeof SUBSCRIPTION_STATUSES)[number]]: z.ZodNumber;
      },
    ),
    auto_renew_on: z.number().int(),
    auto_renew_off: z.number().int(),
    new_in_period: z.number().int(),
    cancelled_in_period: z.number().int(),
    renewals_due_7d: z.number().int(),
    mrr: z
      .number()
      .openapi({ description: "Monthly recurring revenue of active and trialing subscriptions, major units." }),
  })
  .openapi("SubscriptionStatistics");

export const StatisticsQuerySchema = z
  .object({
    from: isoDate.optional().openapi({ description: "First day (default: 30 days before `to`)." }),
    to: isoDate.optional().openapi({ description: "Last day (default: today)." }),
  })
  .strict();

const reason = humanText(500, "lines").min(1);

export const CancelSubscriptionSchema = z
  .object({
    at_period_end: z.boolean().default(false).openapi({ description: "True: as Cancel Auto Renewal." }),
    reason: reason.optional(),
    refund: z.enum(["none", "prorated", "full"]).default("none").openapi({
      description:
        "Of the current period's paid invoice, through Refund Invoice: `prorated` gives back the unused days' share.",
    }),
  })
  .strict()
  .openapi("CancelSubscription");

export const UsageChangeSchema = z
  .object({
    quantity: z.number().int().min(1).max(1_000_000),
    reason: reason.optional(),
    reference: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .openapi("UsageChange");

export const UsageSchema = z
  .object({
    id: z.number().int(),
    usage_counter: z.number().int(),
    usage_limit: z.number().int().nullable(),
    usage_unit: z.string(),
    remaining: z.number().int().nullable(),
  })
  .openapi("SubscriptionUsage");

export const BULK_MAX = 100;
const ids = z
  .array(z.number().int().positive())
  .min(1)
  .max(BULK_MAX)
  .refine((a) => new Set(a).size === a.length, "Ids must not repeat.");

export const BulkPauseSchema = z
  .object({
    subscription_ids: ids,
    resumes_at: isoDate.optional().openapi({ description: "A later day: resumed then by the scheduled run." }),
    reason: reason.optional(),
  })
  .strict()
  .openapi("BulkPauseSubscriptions");

export const BulkResumeSchema = z
  .object({
    subscription_ids: ids,
    resume_on: isoDate.optional().openapi({ description: "A later day to resume on; today or absent: now." }),
  })
  .strict()
  .openapi("BulkResumeSubscriptions");

export const BulkResultSchema = z
  .object({
    results: z.array(
      z.object({
        id: z.number().int(),
        success: z.boolean(),
        error: z.object({ code: z.string(), detail: z.string() }).nullable(),
      }),
    ),
    succeeded_count: z.number().int(),
    failed_count: z.number().int(),
  })
  .openapi("BulkSubscriptionResult");

export const CreateSubscriptionUpdateSchema = z
  .object({
    item_id: z.number().int().positive().optional(),
    price: hundredths({ min: 0, max: MONEY_MAX, description: "The new unit price a period, major units." }).optional(),
    duration: z.number().int().min(1).max(365).optional(),
    duration_unit: z.enum(DURATION_UNITS).optional(),
    usage_limit: z.number().int().min(0).max(1_000_000_000).nullable().optional(),
    effective: z.enum(SUBSCRIPTION_UPDATE_EFFECTS),
  })
  .strict()
  .refine((b) => Object.keys(b).some((k) => k !== "effective"), {
    message: "Give at least one change (item_id, price, duration, duration_unit, usage_limit).",
    path: ["effective"],
  })
  .openapi("CreateSubscriptionUpdate");

export type Subscription = z.infer<typeof SubscriptionSchema>;
export type MerchantSubscription = z.infer<typeof MerchantSubscriptionSchema>;
export type SubscriptionInvoice = z.infer<typeof SubscriptionInvoiceSchema>;
export type SubscriptionUpdate = z.infer<typeof SubscriptionUpdateSchema>;
export type CancelSubscription = z.infer<typeof CancelSubscriptionSchema>;
export type CreateSubscriptionUpdate = z.infer<typeof CreateSubscriptionUpdateSchema>;
