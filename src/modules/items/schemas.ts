import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../core/listing";
import { ITEM_TYPES, SERVICE_TYPES } from "./tables";

const date = z.string().openapi({ format: "date", example: "2026-12-01" });
const time = z.string().openapi({ example: "09:00:00", description: "HH:MM:SS" });

export const ModifierValueSchema = z
  .object({ id: z.number().int(), ordering: z.number().int(), name_en: z.string(), name_ar: z.string() })
  .openapi("ModifierValue");

export const ModifierCategorySchema = z
  .object({
    id: z.number().int(),
    ordering: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    values: z.array(ModifierValueSchema),
  })
  .openapi("ModifierCategory");

export const ItemImageSchema = z
  .object({ id: z.number().int(), url: z.string(), alt_en: z.string(), alt_ar: z.string(), ordering: z.number().int() })
  .openapi("ItemImage");

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

export const ItemBundleCategorySchema = z
  .object({
    id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    is_selectable: z.boolean(),
    is_optional: z.boolean(),
    min_selections: z.number().int(),
    max_selections: z.number().int(),
    ordering: z.number().int(),
  })
  .openapi("ItemBundleCategory");

/** The fields an item and its variants share (spec 2.2). */
const itemBase = {
  id: z.number().int(),
  custom_fields: z.record(z.string(), z.unknown()).nullable(),
  images: z.array(ItemImageSchema),
  discount: ItemDiscountSchema,
  stock: ItemStockSchema,
  modifiers: z.array(ModifierCategorySchema),
  varies_on: z.string().openapi({ description: "Id (as a string) of the modifier category the variants vary on; empty when the item has no variants." }),
  bundle_categories: z.array(ItemBundleCategorySchema),
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
  })
  .openapi("Item");

export type Item = z.infer<typeof ItemSchema>;
export type Variant = z.infer<typeof VariantSchema>;

// ---- inputs ----

export const NAME_MAX = 200;
/** A required bilingual text: trimmed, not empty. */
export const nameText = z.string().trim().min(1, "Required; must not be empty.").max(NAME_MAX);
const ordering = z.number().int().min(0).max(1_000_000);

const modifierValueInput = z.object({ name_en: nameText, name_ar: nameText, ordering: ordering.optional() }).strict();
const VALUES_MAX = 100;

export const CreateModifierCategorySchema = z
  .object({
    name_en: nameText,
    name_ar: nameText,
    ordering: ordering.optional(),
    values: z.array(modifierValueInput).min(1).max(VALUES_MAX).openapi({ description: `The category's values, 1 to ${VALUES_MAX}, in order.` }),
  })
  .strict()
  .openapi("CreateModifierCategory");

export const UpdateModifierCategorySchema = z
  .object({
    name_en: nameText,
    name_ar: nameText,
    ordering,
    values: z
      .array(modifierValueInput.extend({ id: z.number().int().positive().optional() }).strict())
      .min(1)
      .max(VALUES_MAX)
      .refine((vs) => new Set(vs.filter((v) => v.id).map((v) => v.id)).size === vs.filter((v) => v.id).length, "A value id must not repeat.")
      .openapi({
        description:
          "The complete list of values: an entry with an `id` renames or reorders that value, one without adds a value, and a value left out is removed (refused with 409 while a variant uses it).",
      }),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .openapi("UpdateModifierCategory");

export const ModifierCategoryListSchema = envelopeSchema(ModifierCategorySchema, "ModifierCategoryList");

export const BundleCategorySchema = ItemBundleCategorySchema;
export const BundleCategoryListSchema = envelopeSchema(BundleCategorySchema, "BundleCategoryList");

const bundleFields = {
  name_en: nameText,
  name_ar: nameText,
  is_selectable: z.boolean(),
  is_optional: z.boolean(),
  min_selections: z.number().int().min(0).max(1000),
  max_selections: z.number().int().min(1).max(1000),
  ordering,
};
const minNotAboveMax = (b: { min_selections?: number; max_selections?: number }) =>
  b.min_selections === undefined || b.max_selections === undefined || b.min_selections <= b.max_selections;

export const CreateBundleCategorySchema = z
  .object(bundleFields)
  .partial({ is_selectable: true, is_optional: true, min_selections: true, max_selections: true, ordering: true })
  .strict()
  .refine(minNotAboveMax, { message: "Must not be above max_selections.", path: ["min_selections"] })
  .openapi("CreateBundleCategory");

export const UpdateBundleCategorySchema = z
  .object(bundleFields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .refine(minNotAboveMax, { message: "Must not be above max_selections.", path: ["min_selections"] })
  .openapi("UpdateBundleCategory");
