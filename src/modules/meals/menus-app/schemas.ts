import { z } from "@hono/zod-openapi";
import { WEEKDAYS } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { MenuCategoryRecordSchema, MenuProductSchema, MenuRecordSchema } from "../menus/schemas";
import { int } from "../schemas";

/** The customer app's menus (MM6): the store's menus, their add-ons and their options. */

const RestaurantBriefSchema = z
  .object({ id: int(), name_en: z.string(), name_ar: z.string(), logo: z.string() })
  .openapi("RestaurantBrief");

export const MenuSummarySchema = MenuRecordSchema.extend({ restaurant: RestaurantBriefSchema }).openapi("MenuSummary");
export type MenuSummary = z.infer<typeof MenuSummarySchema>;
export const MenuSummaryListSchema = envelopeSchema(MenuSummarySchema, "MenuSummaryList");

export const MenuAddOnSchema = MenuProductSchema.extend({
  price: z.number().openapi({
    description:
      "What one costs: `original_price` less `discount_percentage`, the discount rounded to the nearest minor " +
      "unit (halves up). Major units.",
  }),
  is_special: z.boolean(),
  off_days: z.array(z.enum(WEEKDAYS)).openapi({ description: "Weekdays on which it is not served." }),
}).openapi("MenuAddOn");
export type MenuAddOn = z.infer<typeof MenuAddOnSchema>;
export const MenuAddOnListSchema = envelopeSchema(MenuAddOnSchema, "MenuAddOnList");

export const MenuOptionCategorySchema = MenuCategoryRecordSchema.extend({
  products: z.array(MenuProductSchema).openapi({ description: "Its active products, sub (plan) and not." }),
}).openapi("MenuOptionCategory");
export type MenuOptionCategory = z.infer<typeof MenuOptionCategorySchema>;
export const MenuOptionCategoryListSchema = envelopeSchema(MenuOptionCategorySchema, "MenuOptionCategoryList");
