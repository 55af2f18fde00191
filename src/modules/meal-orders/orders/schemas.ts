import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../../core/listing";
import { CustomerSchema } from "../../customers";
import { MEAL_ORDER_TYPES } from "../tables";

const Named = { name_en: z.string(), name_ar: z.string() };

/** A meal order: the orders module's order (status, payment, money) with what it bought (peer-notes fields). */
export const MealOrderSchema = z
  .object({
    id: z.number().int().openapi({ description: "The order's id (the same as the orders module's)." }),
    app_id: z.number().int().openapi({ description: "The provider store that sold it." }),
    type: z.enum(MEAL_ORDER_TYPES),
    status: z
      .string()
      .openapi({ description: "The order's status: pending, completed, cancelled, expired, refunded." }),
    payment_status: z.string(),
    payment_provider: z.string().nullable(),
    payment_method: z.string().nullable(),
    payment_url: z.string().nullable().openapi({ description: "Where a pending card order is paid; null otherwise." }),
    reference: z.string().nullable(),
    channel_app_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The sales channel that placed it; null for the store's own app." }),
    customer_profile: z.union([CustomerSchema, z.null()]),
    restaurant_id: z.number().int(),
    plan_id: z.number().int().nullable(),
    plan_version_id: z.number().int().nullable(),
    subscription: z
      .object({ id: z.number().int().nullable(), ...Named, num_of_days: z.number().int() })
      .nullable()
      .openapi({
        description:
          "The meal subscription it started (null until paid), renews or adds to; with the plan's names and the term's days.",
      }),
    branch: z
      .object({ id: z.number().int(), ...Named })
      .nullable()
      .openapi({ description: "The pickup branch (null for a delivery)." }),
    start_date: z.string().nullable(),
    end_date: z.string().nullable(),
    num_of_days: z.number().int().openapi({ description: "Deliveries bought (0 for add-ons)." }),
    is_pickup: z.boolean(),
    delivery_window_id: z.number().int().nullable(),
    primary_location_id: z.number().int().nullable(),
    secondary_location_id: z.number().int().nullable(),
    location: z.record(z.string(), z.unknown()).nullable(),
    notes: z.string().nullable(),
    add_ons: z
      .array(z.object({ suborder_id: z.number().int(), product_id: z.number().int(), qty: z.number().int() }))
      .openapi({ description: "An add-on order's products and the suborders they go to (empty otherwise)." }),
    cart_amount: z.number(),
    voucher_code: z.string().nullable(),
    cart_amount_voucher_discounts: z.number(),
    delivery_fee: z.number(),
    total_discounts: z.number(),
    total_amount: z.number().openapi({ description: "cart_amount + delivery_fee − total_discounts." }),
    wallet_discounts: z.number(),
    total_amount_with_redeem: z.number(),
    tax_amount: z.number(),
    currency: z.string(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("MealOrder");

export type MealOrder = z.infer<typeof MealOrderSchema>;
export const MealOrderListSchema = envelopeSchema(MealOrderSchema, "MealOrderList");
