import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../../core/listing";
import { NamedRefSchema, WindowRefSchema } from "../subscriptions/schemas";
import { SUBORDER_STATUSES } from "../tables";

const at = z.string().openapi({ format: "date-time" });
const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const MealChoiceSchema = z
  .object({
    plan_category_id: id.openapi({ description: "A category of the suborder's plan day." }),
    option_ids: z
      .array(id)
      .min(1)
      .max(50)
      .refine((a) => new Set(a).size === a.length, "Options must not repeat.")
      .openapi({ description: "Active options of that category, at most its `max_selected_options`." }),
  })
  .strict()
  .openapi("MealChoice");

export const SuborderSchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    subscription_id: z.number().int(),
    customer_id: z.number().int(),
    restaurant_id: z.number().int(),
    date: z.string().openapi({ format: "date", description: "The delivery date (a frozen one keeps its last)." }),
    original_date: z.string().openapi({ format: "date", description: "The date it was first planned for." }),
    status: z.enum(SUBORDER_STATUSES).openapi({
      description:
        "new → confirmed → on_delivery → delivered | not_received_by_customer; new|confirmed → cancelled_by_customer; " +
        "new|confirmed|on_delivery → cancelled_by_operation.",
    }),
    is_frozen: z.boolean().openapi({ description: "Held by a pause: no date until the subscription resumes." }),
    is_postponed: z.boolean().openapi({ description: "Moved to a later date by the customer." }),
    is_changeable: z.boolean().openapi({
      description: "Meals, location, window or branch can still be changed (open, and before the cutoff).",
    }),
    plan_day_id: z.number().int().nullable(),
    is_pickup: z.boolean(),
    pickup_branch: NamedRefSchema.nullable(),
    delivery_window: WindowRefSchema.nullable(),
    location_id: z.number().int().nullable(),
    location: z.record(z.string(), z.unknown()).nullable(),
    meals: z.array(MealChoiceSchema),
    add_ons: z.array(z.object({ product_id: z.number().int(), qty: z.number().int(), order_id: z.number().int() })),
    captain_id: z.number().int().nullable(),
    notes: z.string().nullable(),
    delivered_at: at.nullable(),
    created_at: at,
    modified_at: at,
    deleted_at: at.nullable(),
    is_deleted: z.boolean(),
    ordering: z.number().int(),
  })
  .openapi("Suborder");
export type Suborder = z.infer<typeof SuborderSchema>;
export const SuborderListSchema = envelopeSchema(SuborderSchema, "SuborderList");

export const SUBORDER_STATES = ["frozen", "postponed"] as const;

const location_id = id.openapi({ description: "One of the customer's locations (copied onto the suborder)." });
const delivery_window_id = id.openapi({ description: "A delivery window of the suborder's restaurant." });
const pickup_branch_id = id.openapi({ description: "A pickup branch of the suborder's restaurant." });
const meals = z
  .array(MealChoiceSchema)
  .min(1)
  .max(50)
  .refine((a) => new Set(a.map((m) => m.plan_category_id)).size === a.length, "Categories must not repeat.")
  .openapi({ description: "The choices of the categories given; the others keep theirs." });

export const ChangeSuborderLocationSchema = z.object({ location_id }).strict().openapi("ChangeSuborderLocation");
export const ChangeSuborderWindowSchema = z
  .object({ delivery_window_id })
  .strict()
  .openapi("ChangeSuborderDeliveryWindow");
export const ChangeSuborderMealsSchema = z.object({ meals }).strict().openapi("ChangeSuborderMeals");

export const BULK_MAX = 100;
const suborder_ids = z
  .array(id)
  .min(1)
  .max(BULK_MAX)
  .refine((a) => new Set(a).size === a.length, "Ids must not repeat.")
  .openapi({ description: `At most ${BULK_MAX} of the customer's suborders.` });

export const BulkSuborderLocationSchema = z
  .object({ suborder_ids, location_id })
  .strict()
  .openapi("BulkChangeSuborderLocation");
export const BulkSuborderWindowSchema = z
  .object({ suborder_ids, delivery_window_id })
  .strict()
  .openapi("BulkChangeSuborderDeliveryWindow");
export const BulkSuborderBranchSchema = z
  .object({ suborder_ids, pickup_branch_id })
  .strict()
  .openapi("BulkChangeSuborderPickupBranch");

export const PreOrderSchema = z
  .object({
    items: z
      .array(z.object({ suborder_id: id, meals }).strict())
      .min(1)
      .max(BULK_MAX)
      .refine((a) => new Set(a.map((i) => i.suborder_id)).size === a.length, "Suborders must not repeat."),
  })
  .strict()
  .openapi("PreOrderMeals");

/** What one suborder of a bulk change or pre-order can be refused with (suborders/changes.ts, rules.ts). */
export const SUBORDER_CHANGE_CODES = [
  "suborder_not_found",
  "suborder_not_changeable",
  "suborder_past_cutoff",
  "suborder_is_pickup",
  "suborder_not_pickup",
  "delivery_window_not_of_restaurant",
  "pickup_branch_not_of_restaurant",
  "location_not_served",
  "meal_selection_skipped",
  "validation_error",
  "concurrent_update",
] as const;
export type SuborderChangeCode = (typeof SUBORDER_CHANGE_CODES)[number];

export const SuborderBulkResultSchema = z
  .object({
    results: z.array(
      z.object({
        id: z.number().int(),
        success: z.boolean(),
        error: z
          .object({
            code: z.enum(SUBORDER_CHANGE_CODES),
            detail: z.string(),
            first_valid_date: z.string().nullable().optional(),
          })
          .nullable(),
      }),
    ),
    succeeded_count: z.number().int(),
    failed_count: z.number().int(),
  })
  .openapi("SuborderBulkResult");
export type SuborderBulkResult = z.infer<typeof SuborderBulkResultSchema>;
