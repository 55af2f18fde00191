import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../../core/listing";
import { CustomerSchema } from "../../customers";
import { CartItemSchema } from "../carts/schemas";
import { CART_PROVIDERS, DURATION_UNITS, ORDER_STATUSES, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from "../tables";
import { RECURRING_CHARGE_STATUSES, RECURRING_STATUSES } from "./tables";

const date = z.string().openapi({ format: "date", example: "2026-03-01" });

/** The FOUND list fields of a recurring purchase (design-reference 5.2), and a few of our own. */
export const RecurringPurchaseSchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    customer_id: z.number().int(),
    customer: z.union([CustomerSchema, z.null()]),
    customer_details: z
      .object({
        name: z.string().nullable(),
        mobile_number: z.string(),
        email: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: "The customer's contact details, for lists that do not show the whole customer." }),
    cart_id: z.number().int().openapi({ description: "The saved cart each cycle orders again." }),
    cart_provider: z.enum(CART_PROVIDERS),
    total_cart_price: z.number().openapi({
      description: "What a cycle costs: in the list, as the cart was last priced; in the details, priced now.",
    }),
    duration: z.number().int(),
    duration_unit: z.enum(DURATION_UNITS),
    status: z.enum(RECURRING_STATUSES).openapi({
      description:
        "`pending` until the first order is paid, `active` while cycles are ordered, `inactive` once stopped " +
        "(by the merchant, the customer, or three failed cycles in a row: `inactive_reason`).",
    }),
    payment_provider: z.enum(PAYMENT_PROVIDERS).nullable().openapi({
      description: "What each cycle is paid with: `wallet` cycles are charged to the customer's cashback.",
    }),
    next_order_date: date.nullable().openapi({ description: "The store's calendar day the next cycle is ordered." }),
    last_order_date: date.nullable(),
    last_charge_date: date.nullable().openapi({ description: "The day of the last charge, paid or failed." }),
    charge_attempts: z.number().int().openapi({ description: "Failed cycles in a row (0 after a paid one)." }),
    inactive_reason: z.string().nullable(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("RecurringPurchase");

export const RecurringChargeSchema = z
  .object({
    id: z.number().int(),
    cycle_date: date,
    created_at: z.string(),
    status: z.enum(RECURRING_CHARGE_STATUSES).openapi({ description: "`pending` only while the cycle is charged." }),
    order_id: z.number().int().nullable(),
    amount: z.number().openapi({ description: "Major units: the order's total, or what the cycle would have cost." }),
    error_message: z.string().nullable(),
  })
  .openapi("RecurringCharge");

export const RecurringOrderSchema = z
  .object({
    id: z.number().int(),
    total_amount: z.number(),
    status: z.enum(ORDER_STATUSES),
    payment_status: z.enum(PAYMENT_STATUSES),
    payment_provider: z.enum(PAYMENT_PROVIDERS).nullable(),
    payment_method: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("RecurringPurchaseOrder");

/** Embedded histories hold the newest of each, at most this many (the orders list has them all). */
export const HISTORY_MAX = 50;

export const RecurringPurchaseDetailsSchema = RecurringPurchaseSchema.extend({
  cart_items: z.array(CartItemSchema).openapi({ description: "The saved cart's lines, priced now." }),
  charge_history: z
    .array(RecurringChargeSchema)
    .openapi({ description: `The cycles charged, newest first (the last ${HISTORY_MAX}).` }),
  orders: z
    .array(RecurringOrderSchema)
    .openapi({ description: `Its orders, the first one included, newest first (the last ${HISTORY_MAX}).` }),
}).openapi("RecurringPurchaseDetails");

export const RecurringPurchaseListSchema = envelopeSchema(RecurringPurchaseSchema, "RecurringPurchaseList");

export const UpdateRecurringPurchaseSchema = z
  .object({
    status: z.enum(["inactive"]).openapi({
      description: "The only change: stop it. Payment activates a purchase; an inactive one stays inactive.",
    }),
  })
  .strict()
  .openapi("UpdateRecurringPurchase");

export type RecurringPurchase = z.infer<typeof RecurringPurchaseSchema>;
export type RecurringPurchaseDetails = z.infer<typeof RecurringPurchaseDetailsSchema>;
export type UpdateRecurringPurchase = z.infer<typeof UpdateRecurringPurchaseSchema>;
