import { z } from "@hono/zod-openapi";
import { humanText, isoDate, nonEmpty, timeOfDay } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { ItemSchema } from "../../items";
import { FULFILLMENT_STATES, FULFILLMENT_TYPES } from "./tables";

/** In a list of every fulfillment, tickets (their own table and operations) are one more type. */
export const LISTED_TYPES = [...FULFILLMENT_TYPES, "ticket"] as const;
/** A ticket keeps its own statuses (`confirmed`, `checked_in`); the list shows them as they are. */
export const LISTED_STATUSES = [...FULFILLMENT_STATES, "confirmed", "checked_in"] as const;
export const NOTES_MAX = 2000;

const at = z.string().nullable().openapi({ format: "date-time" });

export const FulfillmentSchema = z
  .object({
    id: z.number().int().openapi({ description: "The fulfillment's id; for `type: ticket`, the ticket's id." }),
    app_id: z.number().int(),
    type: z.enum(LISTED_TYPES).openapi({
      description:
        "`delivery` (shipped to the customer's location), `pickup` (collected at a pickup location), `digital`, " +
        "`service`, or `ticket` (a ticket: read and changed through the tickets operations).",
    }),
    status: z.enum(LISTED_STATUSES).openapi({
      description:
        "pending → processing → shipped → delivered; pending or processing → cancelled. A ticket shows its own " +
        "status (pending, confirmed, checked_in, cancelled).",
    }),
    order_id: z.number().int().nullable().openapi({ description: "Null only for a ticket not sold through an order." }),
    order_item_id: z.number().int().nullable().openapi({ description: "The order line this fulfils." }),
    invoice_item_id: z.number().int().nullable().openapi({ description: "A ticket's invoice line; null otherwise." }),
    item: z.union([ItemSchema, z.null()]),
    name_en: z.string(),
    name_ar: z.string(),
    qty: z.number().int(),
    total_amount: z.number().openapi({ description: "The line's total in major units, VAT included." }),
    date: z.string().nullable().openapi({ format: "date", description: "The day it is due, in the store's calendar." }),
    time: z.string().nullable().openapi({ description: "HH:MM:SS, or null for any time of the day." }),
    location: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The delivery address as copied from the customer's location." }),
    location_id: z.number().int().nullable().openapi({ description: "The customer location it was copied from." }),
    pickup_location_id: z.number().int().nullable(),
    shipment_id: z.number().int().nullable(),
    tracking_number: z.string().nullable(),
    fulfilled_at: at.openapi({ description: "When it was shipped (or a ticket checked in)." }),
    delivered_at: at,
    cancelled_at: at,
    notes: z.string().nullable(),
    customer_id: z.number().int().nullable(),
    customer_name: z.string().nullable(),
    customer_email: z.string().nullable(),
    customer_phone: z.string().nullable(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Fulfillment");
export type Fulfillment = z.infer<typeof FulfillmentSchema>;

export const FulfillmentListSchema = envelopeSchema(FulfillmentSchema, "FulfillmentList");

const countsOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.object(Object.fromEntries(values.map((v) => [v, z.number().int()])) as Record<T[number], z.ZodNumber>);

const DayCounts = z.object({
  total: z.number().int(),
  by_status: countsOf(LISTED_STATUSES),
});

export const FulfillmentsOverviewSchema = z
  .object({
    today: isoDate.openapi({ description: "Today in the store's time zone." }),
    total: z.number().int().openapi({ description: "Every live fulfillment, tickets included." }),
    by_status: countsOf(LISTED_STATUSES),
    by_type: countsOf(LISTED_TYPES),
    due_today: DayCounts.openapi({ description: "Those whose `date` is today." }),
    upcoming: DayCounts.openapi({ description: "Those whose `date` is after today." }),
    overdue: z.number().int().openapi({
      description: "Still pending or processing (a ticket: pending or confirmed) with a `date` before today.",
    }),
    upcoming_days: z
      .array(z.object({ date: isoDate, count: z.number().int() }))
      .openapi({ description: "The next 7 days from today, each with how many fulfillments are due." }),
  })
  .openapi("FulfillmentsOverview");
export type FulfillmentsOverview = z.infer<typeof FulfillmentsOverviewSchema>;

const scheduleFields = {
  date: isoDate.optional(),
  time: timeOfDay.nullable().optional().openapi({ description: "HH:MM or HH:MM:SS; null for any time of the day." }),
  location_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().openapi({
    description: "One of the order's customer's locations; its address is copied into `location`.",
  }),
  notes: humanText(NOTES_MAX, "lines").nullable().optional(),
};

export const UpdateFulfillmentSchema = nonEmpty(
  z
    .object({
      status: z
        .enum(FULFILLMENT_STATES)
        .optional()
        .openapi({
          description:
            "The status to move to: pending → processing → shipped → delivered, pending|processing → cancelled. " +
            "Another move is a 409 `invalid_state_transition` naming the current status and `allowed_actions`.",
        }),
      ...scheduleFields,
    })
    .strict(),
).openapi("UpdateFulfillment");
export type UpdateFulfillment = z.infer<typeof UpdateFulfillmentSchema>;

export const UpdateMyFulfillmentSchema = nonEmpty(z.object(scheduleFields).strict()).openapi("UpdateMyFulfillment");
