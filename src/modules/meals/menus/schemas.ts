import { z } from "@hono/zod-openapi";
import {
  customFields,
  humanText,
  money,
  nameText,
  nonEmpty,
  ordering,
  orNull,
  WEEKDAYS,
  weekdays,
} from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { audit, date, image, int, json, labels, optionalText, queryDate, text } from "../schemas";

// ---- responses (2.4) ----

export const NutritionsSchema = z
  .object({
    id: int(),
    custom_fields: json,
    ...audit,
    calories: z.number().nullable(),
    carbs: z.number().nullable(),
    protein: z.number().nullable(),
    fat: z.number().nullable(),
    product: int(),
    size: text,
  })
  .openapi("Nutritions");

export const MenuProductSchema = z
  .object({
    id: int(),
    created_at: z.string(),
    modified_at: z.string(),
    deleted_at: z.string().nullable(),
    is_deleted: z.boolean(),
    name_ar: z.string(),
    name_en: z.string(),
    original_price: z.number(),
    discount_percentage: z.number(),
    image: z.string(),
    nutritions: NutritionsSchema.nullable(),
    nutrition_options: z.array(NutritionsSchema),
    restaurant_id: int(),
    is_sub: z.boolean(),
    description_ar: text,
    description_en: text,
    is_active: z.boolean(),
    in_stock: z.boolean(),
    category_id: int().nullable(),
    allergies: z.array(z.string()),
    variant: z.array(z.string()),
    allergens_dislikes: z.array(z.string()),
  })
  .openapi("MenuProduct");
export type MenuProduct = z.infer<typeof MenuProductSchema>;

export const ProductDetailsSchema = MenuProductSchema.extend({
  ordering: int(),
  app_id: int().nullable(),
  original_image: z.string(),
  is_special: z.boolean(),
  tags: z.array(z.string()),
  off_days: z.array(z.enum(WEEKDAYS)),
  wallet_credit: z
    .number()
    .nullable()
    .openapi({ description: "Store credit (major units) the product sells; null for food." }),
}).openapi("ProductDetails");
export type ProductDetails = z.infer<typeof ProductDetailsSchema>;

export const ComboSchema = z
  .object({
    id: int(),
    custom_fields: json,
    ...audit,
    name_en: z.string(),
    name_ar: z.string(),
    description_en: text,
    description_ar: text,
    image: z.string(),
    original_price: z.number(),
    discount_percentage: z.number(),
    is_active: z.boolean(),
    restaurant_id: int(),
    category_id: int(),
    products: z.array(MenuProductSchema),
  })
  .openapi("Combo");
export type Combo = z.infer<typeof ComboSchema>;

const MenuCategorySchema = z
  .object({
    id: int(),
    custom_fields: json,
    products: z.array(MenuProductSchema),
    combos: z.array(ComboSchema),
    ...audit,
    name_ar: z.string(),
    name_en: z.string(),
    image: z.string(),
    is_sub: z.boolean(),
    is_active: z.boolean(),
    menu: int(),
  })
  .openapi("MenuCategory");

export const MenuSchema = z
  .object({
    id: int(),
    custom_fields: json,
    categories: z.array(MenuCategorySchema),
    ...audit,
    name_ar: z.string(),
    name_en: z.string(),
    image: z.string(),
    restaurant_id: int(),
    order_date: date.nullable().openapi({
      description:
        "The date the menu is for (Restaurant Menu); null for Menu Details, which lists every active product.",
    }),
  })
  .openapi("Menu");
export type Menu = z.infer<typeof MenuSchema>;

export const ProductListSchema = envelopeSchema(ProductDetailsSchema, "ProductList");

/** What the menu writes return: the record as stored, in the shape its read shows it. */
export const MenuRecordSchema = MenuSchema.omit({ categories: true, order_date: true }).openapi("MenuRecord");
export const MenuCategoryRecordSchema = MenuCategorySchema.omit({ products: true, combos: true }).openapi(
  "MenuCategoryRecord",
);

export const MenuQuerySchema = z.object({
  order_date: queryDate(
    "The day to order for; by default the first day the restaurant takes orders for (today " +
      "plus `start_after`, skipping off days and closed dates).",
  ),
});

// ---- merchant writes ----

const menuFields = { name_en: nameText, name_ar: nameText, image, custom_fields: customFields, ordering };
export const CreateMenuSchema = z
  .object({ ...menuFields, restaurant_id: int().positive() })
  .partial({ image: true, custom_fields: true, ordering: true })
  .strict()
  .openapi("CreateMenu");
export const UpdateMenuSchema = nonEmpty(z.object(menuFields).partial().strict()).openapi("UpdateMenu");

const menuCategoryFields = {
  name_en: nameText,
  name_ar: nameText,
  image,
  is_sub: z.boolean(),
  is_active: z.boolean(),
  custom_fields: customFields,
  ordering,
};
export const CreateMenuCategorySchema = z
  .object(menuCategoryFields)
  .partial()
  .required({ name_en: true, name_ar: true })
  .strict()
  .openapi("CreateMenuCategory");
export const UpdateMenuCategorySchema = nonEmpty(z.object(menuCategoryFields).partial().strict()).openapi(
  "UpdateMenuCategory",
);

const nutritionFacts = {
  calories: z.number().min(0).max(100_000).nullable(),
  carbs: z.number().min(0).max(10_000).nullable(),
  protein: z.number().min(0).max(10_000).nullable(),
  fat: z.number().min(0).max(10_000).nullable(),
};
const productFields = {
  name_en: nameText,
  name_ar: nameText,
  description_en: optionalText,
  description_ar: optionalText,
  category_id: int()
    .positive()
    .nullable()
    .openapi({ description: "A category of one of the restaurant's menus; null for plan-only products." }),
  price: money,
  discount_percentage: z.number().min(0).max(100),
  image,
  original_image: image,
  is_sub: z.boolean(),
  is_active: z.boolean(),
  is_special: z.boolean(),
  in_stock: z.boolean(),
  allergies: labels,
  tags: labels,
  allergens_dislikes: labels,
  variant: labels.openapi({ description: "Names (`name_en`) of the restaurant's variants the product belongs to." }),
  off_days: weekdays,
  wallet_credit: orNull(money, "number").openapi({
    description: "Makes it a wallet credit product selling this much store credit; in major units, at most 2 decimals.",
  }),
  ordering,
  nutritions: z
    .object(nutritionFacts)
    .partial()
    .strict()
    .nullable()
    .openapi({ description: "Replaces the product's nutrition facts." }),
  nutrition_options: z
    .array(
      z
        .object({ ...nutritionFacts, size: humanText(50).min(1) })
        .partial()
        .required({ size: true })
        .strict(),
    )
    .max(10)
    .refine((xs) => new Set(xs.map((x) => x.size)).size === xs.length, "Sizes must not repeat.")
    .openapi({ description: "Replaces the facts per size." }),
};
export const CreateProductSchema = z
  .object({ ...productFields, restaurant_id: int().positive() })
  .partial()
  .required({ name_en: true, name_ar: true, price: true, restaurant_id: true })
  .strict()
  .openapi("CreateProduct");
export const UpdateProductSchema = nonEmpty(z.object(productFields).partial().strict()).openapi("UpdateProduct");

const comboFields = {
  name_en: nameText,
  name_ar: nameText,
  description_en: optionalText,
  description_ar: optionalText,
  image,
  price: money,
  discount_percentage: z.number().min(0).max(100),
  is_active: z.boolean(),
  product_ids: z.array(int().positive()).min(1).max(20).openapi({
    description:
      "The products in the combo, each a product of the category's restaurant; a product may repeat (two of it).",
  }),
  custom_fields: customFields,
  ordering,
};
export const CreateComboSchema = z
  .object(comboFields)
  .partial()
  .required({ name_en: true, name_ar: true, price: true, product_ids: true })
  .strict()
  .openapi("CreateCombo");
export const UpdateComboSchema = nonEmpty(z.object(comboFields).partial().strict()).openapi("UpdateCombo");
