import { z } from "@hono/zod-openapi";
import { humanText, isoDate } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { OrderSchema } from "../../orders";
import { MEAL_ORDER_TYPES, MEAL_SUBSCRIPTION_STATUSES, SUBORDER_STATUSES } from "../tables";

const date = z.string().openapi({ format: "date" });
const nullableDate = z.string().nullable().openapi({ format: "date" });
const at = z.string().openapi({ format: "date-time" });

export const NamedRefSchema = z.object({ id: z.number().int(), name_en: z.string(), name_ar: z.string() });

export const WindowRefSchema = z
  .object({ id: z.number().int(), from_time: z.string(), to_time: z.string() })
  .openapi("MealDeliveryWindowRef");

/** The management fields (design-reference 14, FOUND names) and what the rules add. */
export const ManagementShape = {
  min_cancel_date: nullableDate.openapi({
    description: "The first date a cancellation may take effect from (the first delivery after the cutoff).",
  }),
  max_cancel_date: nullableDate.openapi({ description: "The last date a cancellation may take effect from." }),
  min_resume_date: nullableDate.openapi({ description: "While paused: the earliest resume date." }),
  max_resume_date: nullableDate.openapi({ description: "While paused: the latest resume date (pause credits)." }),
  cancel_credits: z.number().int().openapi({ description: "Deliveries cancelled by the customer and owed back." }),
  paused_days: z.number().int().openapi({ description: "Days paused so far." }),
  pause_attempts_credits: z.number().int().openapi({ description: "Pauses left." }),
  pause_credits: z.number().int().openapi({ description: "Days of pausing left." }),
  min_of_pause_days: z.number().int().openapi({ description: "The shortest pause, in days." }),
  cutoff_hours: z
    .number()
    .int()
    .openapi({ description: "Changes close this many hours before a delivery's day (restaurant time)." }),
  first_changeable_date: date.openapi({ description: "The first delivery date that can still be changed." }),
  can_change_location: z.boolean(),
  can_change_meals: z.boolean(),
  can_change_branch: z.boolean(),
  can_change_delivery_window: z.boolean(),
  can_pause: z.boolean(),
  can_resume: z.boolean(),
  can_cancel: z.boolean(),
};

export const SuborderRefSchema = z
  .object({
    id: z.number().int(),
    date,
    status: z.enum(SUBORDER_STATUSES),
    is_frozen: z.boolean(),
    is_postponed: z.boolean(),
  })
  .openapi("SuborderRef");

export const MealSubscriptionSchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    status: z.enum(MEAL_SUBSCRIPTION_STATUSES).openapi({
      description: "pending → active ⇄ paused; active|paused → cancelled; active → completed (every suborder final).",
    }),
    customer_id: z.number().int(),
    order_id: z.number().int().openapi({ description: "The order that bought it." }),
    restaurant: NamedRefSchema.extend({ logo: z.string(), time_zone: z.string() }),
    plan: NamedRefSchema.extend({ image: z.string() }),
    plan_version: z.object({ id: z.number().int(), num_of_days: z.number().int(), duration: z.string().nullable() }),
    start_date: date,
    end_date: date.openapi({ description: "The last delivery date: later after postponing or pausing." }),
    num_of_days: z.number().int(),
    is_pickup: z.boolean(),
    pickup_branch: NamedRefSchema.nullable(),
    delivery_window: WindowRefSchema.nullable(),
    primary_location_id: z.number().int().nullable(),
    secondary_location_id: z.number().int().nullable(),
    location: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The delivery address (a copy)." }),
    notes: z.string().nullable(),
    paused_from: nullableDate,
    resume_date: nullableDate,
    cancelled_at: at.nullable(),
    renewed_from_id: z.number().int().nullable(),
    channel_app_id: z.number().int().nullable().openapi({ description: "The sales channel store that sold it." }),
    channel_customer_id: z.number().int().nullable(),
    ...ManagementShape,
    suborders_summary: z.object({
      total: z.number().int(),
      delivered: z.number().int(),
      remaining: z.number().int().openapi({ description: "Still to be delivered (frozen ones included)." }),
      frozen: z.number().int(),
      postponed: z.number().int(),
      cancelled: z.number().int(),
      next_date: nullableDate.openapi({ description: "The next delivery date from today (restaurant time)." }),
    }),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    created_at: at,
    modified_at: at,
    deleted_at: at.nullable(),
    is_deleted: z.boolean(),
    ordering: z.number().int(),
  })
  .openapi("MealSubscription");
export type MealSubscription = z.infer<typeof MealSubscriptionSchema>;

export const MealSubscriptionDetailsSchema = MealSubscriptionSchema.extend({
  upcoming_suborders: z
    .array(SuborderRefSchema)
    .openapi({ description: "The next deliveries from today (at most 7), then the frozen ones." }),
}).openapi("MealSubscriptionDetails");
export type MealSubscriptionDetails = z.infer<typeof MealSubscriptionDetailsSchema>;

export const MealSubscriptionListSchema = envelopeSchema(MealSubscriptionSchema, "MealSubscriptionList");

export const ChangeLocationSchema = z
  .object({
    location_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).openapi({
      description: "One of the customer's locations; its address is copied onto the deliveries.",
    }),
  })
  .strict()
  .openapi("ChangeMealLocation");

export const SUBORDER_ACTIONS = ["postpone", "pause", "resume"] as const;

const datesList = z
  .array(isoDate)
  .min(1)
  .max(100)
  .refine((d) => new Set(d).size === d.length, "Dates must not repeat.");

export const SuborderActionSchema = z
  .discriminatedUnion("action", [
    z
      .object({
        action: z.literal("postpone"),
        dates: datesList.openapi({ description: "Delivery dates to move to the end of the subscription." }),
      })
      .strict(),
    z
      .object({
        action: z.literal("pause"),
        from_date: isoDate.openapi({ description: "The pause's first day (a changeable date)." }),
        to_date: isoDate.optional().openapi({
          description:
            "The pause's last day: the deliveries get new dates from the day after at once. Without it, " +
            "the subscription stays paused until resumed.",
        }),
      })
      .strict()
      .refine((b) => !b.to_date || b.to_date >= b.from_date, {
        message: "Must be on or after from_date.",
        path: ["to_date"],
      }),
    z
      .object({
        action: z.literal("resume"),
        resume_date: isoDate.openapi({ description: "Within min_resume_date..max_resume_date." }),
      })
      .strict(),
  ])
  .openapi("MealSuborderAction");
export type SuborderAction = z.infer<typeof SuborderActionSchema>;

export const CancelMealSubscriptionSchema = z
  .object({
    from_date: isoDate.optional().openapi({
      description: "Deliveries from this date are cancelled (min_cancel_date..max_cancel_date; default the first).",
    }),
    reason: humanText(500, "lines").optional(),
  })
  .strict()
  .openapi("CancelMealSubscription");

export const SubscriptionOrderSchema = z
  .object({
    id: z.number().int().openapi({ description: "The meal order's id." }),
    order_id: z.number().int().openapi({ description: "The order (of the orders module) it is." }),
    type: z.enum(MEAL_ORDER_TYPES).openapi({
      description: "`subscription` (the first term), `add_on` (add-ons for some deliveries) or `renewal`.",
    }),
    subscription_id: z.number().int().nullable(),
    plan_id: z.number().int().nullable(),
    plan_version_id: z.number().int().nullable(),
    start_date: nullableDate,
    end_date: nullableDate,
    channel_app_id: z.number().int().nullable(),
    order: OrderSchema.nullable().openapi({ description: "The order: status, payment, totals, invoices." }),
    created_at: at,
  })
  .openapi("MealSubscriptionOrder");
export type SubscriptionOrder = z.infer<typeof SubscriptionOrderSchema>;
export const SubscriptionOrderListSchema = envelopeSchema(SubscriptionOrderSchema, "MealSubscriptionOrderList");
