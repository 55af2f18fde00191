import { z } from "@hono/zod-openapi";
import { humanText, isoDate } from "../../../core/fields";
import { CHECKOUT_PROVIDERS } from "../../orders";
import { VoucherResultSchema } from "../../vouchers";

const id = z.number().int().positive();

const returnUrl = z
  .string()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//.test(u), "Must be an http(s) URL.")
  .openapi({ description: "Where the card gateway sends the customer back." });

export const MealChoiceSchema = z
  .object({
    plan_category_id: id.openapi({ description: "A category of the plan day serving the date." }),
    option_ids: z
      .array(id)
      .min(1)
      .max(20)
      .refine((ids) => new Set(ids).size === ids.length, "Options must not repeat.")
      .openapi({ description: "Options of that category, at most its `max_selected_options`." }),
  })
  .strict()
  .openapi("MealChoice");

export const DateChoiceSchema = z
  .object({
    date: isoDate.openapi({ description: "One of the order's delivery dates." }),
    options: z.array(MealChoiceSchema).max(50),
  })
  .strict()
  .openapi("MealDateChoice");

/** What the customer buys: a plan version from a start date, delivered to a location in a window, or picked up. */
const cartFields = {
  plan_version_id: id.openapi({
    description: "The plan version bought (the peer's `cart.items[].subscription.plan_id`, which is a version id).",
  }),
  start_date: isoDate.openapi({
    description:
      "The first delivery date: on or after the first the version and the restaurant's notice allow, not after " +
      "the version's `max_start_date`, on a delivery day (a 409 names the first valid date).",
  }),
  dates: z
    .array(DateChoiceSchema)
    .max(400)
    .optional()
    .openapi({
      description:
        "The meals of each delivery date: every date and every category of its plan day, unless the plan has " +
        "`skip_option_selection` (then optional: the kitchen serves each category's recommended options).",
    }),
  is_pickup: z.boolean().default(false),
  pickup_branch_id: id
    .optional()
    .openapi({ description: "With `is_pickup`: a branch of the restaurant that takes pickups." }),
  delivery_window_id: id.optional().openapi({
    description: "Required unless `is_pickup`: a subscription window of the restaurant serving the primary location.",
  }),
  primary_location_id: id.optional().openapi({
    description:
      "Required unless `is_pickup`: one of the customer's locations, inside a delivery zone of the restaurant.",
  }),
  secondary_location_id: id
    .optional()
    .openapi({ description: "Another of the customer's locations, kept for the kitchen." }),
  notes: humanText(1000, "lines").optional(),
  voucher: z.string().trim().min(1).max(32).optional().openapi({ description: "A voucher code of the store." }),
  is_redeeming: z.boolean().default(false).openapi({
    description: "Pay what the customer's cashback covers from it (the rest through `payment_provider`).",
  }),
  channel_app_id: id.optional().openapi({
    description:
      "Placed through a sales channel: the channel store, whose customer's access token is sent with this " +
      "provider's `app-id` (the connection must be active).",
  }),
  payment_provider: z.enum(CHECKOUT_PROVIDERS).optional().openapi({
    description:
      "How the rest is paid (required by Place Order): `card`, `wallet`, `cash_on_delivery`, `bank_transfer`.",
  }),
  payment_method: z.enum(["mada", "visa_master", "apple_pay"]).optional(),
  success_url: returnUrl.optional(),
  error_url: returnUrl.optional(),
  lang: z.enum(["ar", "en"]).optional(),
  reference: z.string().trim().min(1).max(100).optional().openapi({ description: "The client's own id of the order." }),
};

type CartShape = z.infer<z.ZodObject<typeof cartFields>>;

/** The fields that go with delivery or with pickup, not both. */
function deliveryOrPickup(b: CartShape, ctx: z.RefinementCtx) {
  const need = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (b.is_pickup) {
    if (b.pickup_branch_id === undefined) need("pickup_branch_id", "Required with is_pickup.");
    if (b.delivery_window_id !== undefined) need("delivery_window_id", "Not with is_pickup: a pickup has no window.");
  } else {
    if (b.delivery_window_id === undefined) need("delivery_window_id", "Required unless is_pickup.");
    if (b.primary_location_id === undefined) need("primary_location_id", "Required unless is_pickup.");
    if (b.pickup_branch_id !== undefined) need("pickup_branch_id", "Only with is_pickup.");
  }
  if (b.secondary_location_id !== undefined && b.secondary_location_id === b.primary_location_id)
    need("secondary_location_id", "Must differ from primary_location_id.");
  const seen = new Set<string>();
  b.dates?.forEach((d, i) => {
    if (seen.has(d.date)) need(`dates.${i}.date`, `${d.date} is given twice.`);
    seen.add(d.date);
  });
}

/** The body of the cart calculators (CA16-CA18): the Place Order body, payment fields optional. */
export const MealCartSchema = z.object(cartFields).strict().superRefine(deliveryOrPickup).openapi("MealCart");

/** The body of Place Order (CA19). */
export const PlaceMealOrderSchema = z
  .object({ ...cartFields, payment_provider: cartFields.payment_provider.unwrap() })
  .strict()
  .superRefine(deliveryOrPickup)
  .openapi("PlaceMealOrder");

export type MealCart = z.output<typeof MealCartSchema>;
export type PlaceMealOrder = z.output<typeof PlaceMealOrderSchema>;

export const AddOnLineSchema = z
  .object({
    suborder_id: id.openapi({ description: "A suborder of the subscription, still before the provider's cutoff." }),
    product_id: id.openapi({ description: "A menu product of the subscription's restaurant." }),
    qty: z.number().int().min(1).max(20),
  })
  .strict()
  .openapi("AddOnLine");

const addOnFields = {
  subscription_id: id.openapi({ description: "An active meal subscription of the customer's." }),
  add_ons: z.array(AddOnLineSchema).min(1).max(100),
  voucher: cartFields.voucher,
  is_redeeming: cartFields.is_redeeming,
  payment_provider: cartFields.payment_provider,
  payment_method: cartFields.payment_method,
  success_url: cartFields.success_url,
  error_url: cartFields.error_url,
  lang: cartFields.lang,
  reference: cartFields.reference,
};

/** The body of Redeemed Add-Ons Cart (its payment fields are optional). */
export const AddOnCartSchema = z.object(addOnFields).strict().openapi("AddOnCart");
/** The body of Add-On Order. */
export const AddOnOrderSchema = z
  .object({ ...addOnFields, payment_provider: cartFields.payment_provider.unwrap() })
  .strict()
  .openapi("AddOnOrder");

export type AddOnCart = z.output<typeof AddOnCartSchema>;
export type AddOnOrder = z.output<typeof AddOnOrderSchema>;

export const PriceLineSchema = z
  .object({
    name_en: z.string(),
    name_ar: z.string(),
    qty: z.number().int(),
    unit_price: z.number(),
    amount: z.number().openapi({ description: "unit_price × qty, VAT included." }),
    voucher_discount_amount: z.number(),
    total_amount: z.number(),
    tax_amount: z.number(),
  })
  .openapi("MealPriceLine");

/** The price breakdown every meals calculator answers (and Place Order charges). */
export const MealPriceSchema = z
  .object({
    plan_version_id: z.number().int().nullable(),
    subscription_id: z.number().int().nullable().openapi({ description: "The subscription an add-on cart adds to." }),
    start_date: z.string().nullable(),
    end_date: z.string().nullable(),
    delivery_dates: z
      .array(z.string())
      .openapi({ description: "The term's delivery dates (the add-ons' for an add-on cart)." }),
    is_pickup: z.boolean(),
    original_price: z.number().openapi({ description: "The plan version's price before its own discount." }),
    discount_percentage: z.number().openapi({ description: "The version's own discount (never on the delivery fee)." }),
    lines: z.array(PriceLineSchema),
    cart_amount: z.number().openapi({ description: "The lines at their prices (the version after its own discount)." }),
    delivery_fee: z.number().openapi({ description: "The version's `delivery_price`; 0 for a pickup." }),
    voucher: z.union([VoucherResultSchema, z.null()]),
    voucher_code: z.string().nullable(),
    cart_amount_voucher_discounts: z.number(),
    delivery_fee_voucher_discounts: z.number(),
    total_discounts: z.number().openapi({ description: "The voucher's discounts (on the cart and the delivery fee)." }),
    total_amount: z.number().openapi({ description: "cart_amount + delivery_fee − total_discounts, VAT included." }),
    wallet_balance: z.number().openapi({ description: "The customer's cashback balance." }),
    wallet_discounts: z.number().openapi({
      description: "Paid from the cashback with `is_redeeming` (at most the balance and the total).",
    }),
    total_amount_with_redeem: z
      .number()
      .openapi({ description: "total_amount − wallet_discounts: what is left to pay." }),
    total_amount_excluding_tax: z.number(),
    tax_amount: z.number().openapi({ description: "VAT in the total, split per line and on the delivery fee." }),
    tax_percentage: z.number(),
    currency: z.string(),
  })
  .openapi("MealPrice");

export type MealPrice = z.infer<typeof MealPriceSchema>;
