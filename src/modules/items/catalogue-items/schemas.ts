import { z } from "@hono/zod-openapi";
import {
  customFields,
  humanText,
  isDeletedOnRequest,
  isoDate,
  money,
  nameText,
  ordering,
  timeOfDay,
  weekdays,
} from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { BundleCategorySchema } from "../bundle-categories/schemas";
import { ItemImageSchema } from "../images/schemas";
import { ModifierCategorySchema } from "../modifiers/schemas";
import { ITEM_TYPES, SERVICE_TYPES } from "../tables";

const date = z.string().openapi({ format: "date", example: "2026-12-01" });
const time = z.string().openapi({ example: "09:00:00", description: "HH:MM:SS" });

export const ItemDiscountSchema = z
  .object({
    is_applied: z.boolean(),
    is_trial_applied: z.boolean(),
    is_usage_price: z.boolean(),
    price_after_discount_no_trial: z.number(),
    price_after_discount: z.number(),
  })
  .openapi("ItemDiscount");

export const ItemStockSchema = z.object({ in_stock: z.boolean(), qty: z.number().int() }).openapi("ItemStock");

/** The fields an item and its variants share (spec 2.2). */
const itemBase = {
  id: z.number().int(),
  custom_fields: z.record(z.string(), z.unknown()).nullable(),
  images: z.array(ItemImageSchema),
  discount: ItemDiscountSchema,
  stock: ItemStockSchema,
  modifiers: z.array(ModifierCategorySchema),
  varies_on: z.string().openapi({
    description: "Id (as a string) of the modifier category the variants vary on; empty when the item has no variants.",
  }),
  bundle_categories: z.array(BundleCategorySchema),
  plan_config: z.record(z.string(), z.unknown()).nullable(),
  off_days: z.array(z.string()).openapi({ description: "Weekdays the item is not served: sunday … saturday." }),
  off_dates: z.array(date),
  app_id: z.number().int(),
  ordering: z.number().int(),
  type: z.enum(ITEM_TYPES),
  service_type: z.enum(SERVICE_TYPES),
  sku: z.string(),
  price: z.number().openapi({ description: "In major units." }),
  name_en: z.string(),
  name_ar: z.string(),
  description_en: z.string(),
  description_ar: z.string(),
  is_plan_only: z.boolean(),
  is_plan_enabled: z.boolean(),
  served_from_date: date,
  served_to_date: date,
  served_from_time: time,
  served_to_time: time,
  weight: z.number(),
};

export const VariantSchema = z
  .object({
    ...itemBase,
    variant_title_en: z.string(),
    variant_title_ar: z.string(),
    modifier_values: z.array(z.number().int()),
  })
  .openapi("Variant");

export const ItemSchema = z
  .object({
    ...itemBase,
    variants: z.array(VariantSchema),
    categories: z.array(z.number().int()),
    modified_at: z
      .string()
      .openapi({ format: "date-time", description: "Moves on every change of the item or its variants." }),
    is_deleted: isDeletedOnRequest,
  })
  .openapi("Item");

export type Item = z.infer<typeof ItemSchema>;
export type Variant = z.infer<typeof VariantSchema>;

const ids = (what: string) =>
  z
    .array(z.number().int().positive())
    .max(100)
    .refine((xs) => new Set(xs).size === xs.length, "Ids must not repeat.")
    .openapi({ description: `Ids of the store's ${what}.`, uniqueItems: true });
const sku = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\w.\-/]+$/, "Letters, digits, `_`, `-`, `.` and `/` only.");

export const VARIANTS_MAX = 50;

export const VariantInputSchema = z
  .object({
    id: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: "On update: the variant to change; leave out to add one." }),
    sku,
    price: money,
    variant_title_en: nameText,
    variant_title_ar: nameText,
    modifier_values: ids("modifier values of the `varies_on` category").min(1),
    stock_qty: z.number().int().min(0).max(1_000_000_000).optional(),
  })
  .strict()
  .openapi("VariantInput");

const itemFields = {
  type: z.enum(ITEM_TYPES),
  service_type: z.enum(SERVICE_TYPES),
  sku,
  price: money,
  name_en: nameText,
  name_ar: nameText,
  description_en: humanText(5000, "lines"),
  description_ar: humanText(5000, "lines"),
  custom_fields: customFields,
  is_plan_only: z.boolean(),
  is_plan_enabled: z.boolean(),
  plan_config: z
    .record(z.string().max(100), z.unknown())
    .nullable()
    .refine((o) => o === null || JSON.stringify(o).length <= 10_000, "At most 10 KB."),
  off_days: weekdays,
  off_dates: z.array(isoDate).max(366),
  served_from_date: isoDate,
  served_to_date: isoDate,
  served_from_time: timeOfDay,
  served_to_time: timeOfDay,
  weight: z.number().min(0).max(1_000_000),
  stock_qty: z
    .number()
    .int()
    .min(0)
    .max(1_000_000_000)
    .openapi({ description: "Units on hand; `stock.qty` is this less the units reservations hold." }),
  ordering,
  modifiers: ids("modifier categories offered with the item"),
  categories: ids("item categories"),
  bundle_categories: ids("bundle categories"),
  varies_on: z
    .number()
    .int()
    .positive()
    .nullable()
    .openapi({ description: "The modifier category the variants vary on; one of `modifiers`." }),
  variants: z
    .array(VariantInputSchema)
    .max(VARIANTS_MAX)
    .openapi({
      description:
        `Up to ${VARIANTS_MAX}. On update, the complete list: entries with an \`id\` change that variant, ` +
        "entries without add one, variants left out are deleted.",
    }),
};

type ItemInputShape = {
  served_from_date?: string;
  served_to_date?: string;
  served_from_time?: string;
  served_to_time?: string;
  variants?: unknown[];
  varies_on?: number | null;
  modifiers?: number[];
};
/** On update, `varies_on` may already be stored: the service checks variants against it. */
const itemChecks = <T extends z.ZodType<ItemInputShape>>(schema: T, opts: { variantsNeedVariesOn: boolean }) =>
  schema
    .refine((b) => !b.served_from_date || !b.served_to_date || b.served_from_date <= b.served_to_date, {
      message: "Must not be after served_to_date.",
      path: ["served_from_date"],
    })
    .refine((b) => !b.served_from_time || !b.served_to_time || b.served_from_time <= b.served_to_time, {
      message: "Must not be after served_to_time.",
      path: ["served_from_time"],
    })
    .refine((b) => !opts.variantsNeedVariesOn || !b.variants?.length || (b.varies_on ?? null) !== null, {
      message: "Variants need `varies_on`.",
      path: ["varies_on"],
    })
    .refine((b) => b.varies_on == null || !b.modifiers || b.modifiers.includes(b.varies_on), {
      message: "Must be one of `modifiers`.",
      path: ["varies_on"],
    });

export const CreateItemSchema = itemChecks(
  z
    .object(itemFields)
    .partial()
    .required({ type: true, service_type: true, sku: true, price: true, name_en: true, name_ar: true })
    .strict(),
  { variantsNeedVariesOn: true },
).openapi("CreateItem");

export const UpdateItemSchema = itemChecks(
  z
    .object(itemFields)
    .partial()
    .strict()
    .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] }),
  { variantsNeedVariesOn: false },
).openapi("UpdateItem");

export const ItemListSchema = envelopeSchema(ItemSchema, "ItemList");

export const ReserveItemSchema = z
  .object({
    qty: z.number().int().min(1).max(1000),
    minutes: z.number().int().min(1).max(60).optional().openapi({
      description:
        "How long the units are held: 1 to 60 minutes; by default the store's `reservation_minutes` (Item Config).",
    }),
  })
  .strict()
  .openapi("ReserveItem");

export const ReservationSchema = z
  .object({
    id: z.number().int(),
    item: z.number().int(),
    qty: z.number().int(),
    expires_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("ItemReservation");

export const PurchaseItemSchema = z
  .object({
    qty: z.number().int().min(1).max(1000).optional().openapi({
      description: "Units bought; with `reservation_id`, defaults to (and must equal) the units it holds.",
    }),
    reservation_id: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: "A live reservation of this item to consume." }),
  })
  .strict()
  .refine((b) => b.qty !== undefined || b.reservation_id !== undefined, {
    message: "Give qty, or a reservation_id.",
    path: ["qty"],
  })
  .openapi("PurchaseItem");

export const BULK_ITEMS_MAX = 100;
const distinctIds = (entries: { id: number }[]) => new Set(entries.map((e) => e.id)).size === entries.length;

export const BulkUpdateItemPricesSchema = z
  .object({
    items: z
      .array(z.object({ id: z.number().int().positive(), price: money }).strict())
      .min(1)
      .max(BULK_ITEMS_MAX)
      .refine(distinctIds, "Ids must not repeat.")
      .openapi({ description: `1 to ${BULK_ITEMS_MAX} items or variants with their new prices.` }),
  })
  .strict()
  .openapi("BulkUpdateItemPrices");

/** The scalar fields of an item, as bulk updates change them (links and variants go through Update Item). */
const bulkItemFields = z
  .object(itemFields)
  .pick({
    name_en: true,
    name_ar: true,
    description_en: true,
    description_ar: true,
    price: true,
    stock_qty: true,
    ordering: true,
    is_plan_only: true,
    is_plan_enabled: true,
    off_days: true,
    off_dates: true,
    served_from_date: true,
    served_to_date: true,
    served_from_time: true,
    served_to_time: true,
    weight: true,
  })
  .partial();

export const BulkUpdateItemsSchema = z
  .object({
    items: z
      .array(
        bulkItemFields
          .extend({ id: z.number().int().positive() })
          .strict()
          .refine((e) => Object.keys(e).length > 1, { message: "Give at least one field to change besides id." }),
      )
      .min(1)
      .max(BULK_ITEMS_MAX)
      .refine(distinctIds, "Ids must not repeat.")
      .openapi({
        description:
          `1 to ${BULK_ITEMS_MAX} items or variants, each with the fields to change ` +
          "(links and variants change through Update Item).",
      }),
  })
  .strict()
  .openapi("BulkUpdateItems");

export const BulkUpdateItemsResultSchema = z
  .object({ count: z.number().int(), results: z.array(ItemSchema) })
  .openapi("BulkUpdateItemsResult");

export type CreateItem = z.infer<typeof CreateItemSchema>;
export type UpdateItem = z.infer<typeof UpdateItemSchema>;
export type ReserveItem = z.infer<typeof ReserveItemSchema>;
export type Reservation = z.infer<typeof ReservationSchema>;
export type PurchaseItem = z.infer<typeof PurchaseItemSchema>;
export type BulkUpdateItemsResult = z.infer<typeof BulkUpdateItemsResultSchema>;
