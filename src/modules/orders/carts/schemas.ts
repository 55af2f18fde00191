import { z } from "@hono/zod-openapi";
import { customFields, humanText, nonEmpty } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { CustomerSchema } from "../../customers";
import { ItemSchema } from "../../items";
import { amountMinor, BuyerSchema, LineRequestSchema, TotalsFields } from "../shared";
import { CART_PROVIDERS, CART_STATUSES, DURATION_UNITS } from "../tables";

export const CartItemSchema = z
  .object({
    id: z.number().int(),
    item_id: z.number().int(),
    item: z.union([ItemSchema, z.null()]).openapi({ description: "The item as it is now; null if it was deleted." }),
    qty: z.number().int(),
    modifier_values: z.array(z.number().int()),
    bundle_selections: z.array(z.object({ bundle_category_id: z.number().int(), item_ids: z.array(z.number().int()) })),
    price: z.number().openapi({ description: "The unit price now, after the item's discount." }),
    total: z.number().openapi({ description: "price × qty." }),
    is_available: z
      .boolean()
      .openapi({ description: "False when the line cannot be ordered now (`unavailable_reason`)." }),
    unavailable_reason: z.string().nullable(),
  })
  .openapi("CartItem");

export const CartSchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    customer_id: z.number().int(),
    customer: z.union([CustomerSchema, z.null()]),
    status: z.enum(CART_STATUSES),
    cart_provider: z.enum(CART_PROVIDERS),
    cart_items: z.array(CartItemSchema),
    total_cart_price: z.number().openapi({ description: "What the customer pays now (total_amount_with_redeem)." }),
    voucher_code: z.string().nullable(),
    voucher_error: z.string().nullable().openapi({ description: "Why the voucher does not apply now, or null." }),
    location_id: z.number().int().nullable(),
    pickup_location_id: z.number().int().nullable(),
    courier_id: z.number().int().nullable(),
    notes: z.string().nullable(),
    receiver: z.record(z.string(), z.unknown()).nullable(),
    buyer: BuyerSchema.nullable(),
    is_recurring: z.boolean(),
    duration: z.number().int().nullable(),
    duration_unit: z.enum(DURATION_UNITS).nullable(),
    order_id: z.number().int().nullable(),
    cart_price_updated: z.boolean().openapi({
      description: "True when the total moved since the customer last saw it (prices or discounts changed).",
    }),
    ...TotalsFields,
    checked_out_at: z.string().nullable(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("Cart");

export type Cart = z.infer<typeof CartSchema>;
export const CartListSchema = envelopeSchema(CartSchema, "CartList");

const receiver = z
  .object({
    name: humanText(200).min(1),
    mobile: z.string().trim().min(5).max(20),
    message: humanText(500, "lines").optional(),
  })
  .strict()
  .nullable()
  .openapi({ description: "Who receives the order when it is a gift; null for the customer." });

const cartFields = {
  items: z.array(LineRequestSchema).min(1).max(100),
  voucher_code: z.string().trim().min(1).max(32).nullable(),
  location_id: z.number().int().positive().nullable().openapi({ description: "One of the customer's own locations." }),
  wallet_redeem_amount: amountMinor().openapi({
    description:
      "Cashback to spend on this cart, in major units (capped at the total; checked against the balance at checkout).",
  }),
  notes: humanText(1000, "lines").nullable(),
  receiver,
  buyer: BuyerSchema.nullable(),
  is_recurring: z.boolean(),
  duration: z.number().int().min(1).max(365).nullable(),
  duration_unit: z.enum(DURATION_UNITS).nullable(),
  cart_provider: z.enum(CART_PROVIDERS),
  custom_fields: customFields,
};

const recurringComplete = (b: { is_recurring?: boolean; duration?: number | null; duration_unit?: string | null }) =>
  !b.is_recurring || (b.duration != null && b.duration_unit != null);

export const CreateCartSchema = z
  .object(cartFields)
  .partial()
  .required({ items: true })
  .strict()
  .refine(recurringComplete, { message: "A recurring cart needs `duration` and `duration_unit`.", path: ["duration"] })
  .openapi("CreateCart");

export const UpdateCartSchema = nonEmpty(z.object(cartFields).partial().strict()).openapi("UpdateCart");

export type CreateCart = z.infer<typeof CreateCartSchema>;
export type UpdateCart = z.infer<typeof UpdateCartSchema>;
