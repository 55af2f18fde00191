import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";

/** The events the meals module emits, with the schema of their `data`. */
export const mealEvents = defineEvents({
  "restaurant.created": { description: "A restaurant (a meals provider) was created.", data: ById },
  "restaurant.updated": {
    description: "A restaurant changed, or its branches, delivery zones, delivery windows or variants.",
    data: ById,
  },
  "restaurant.deleted": { description: "A restaurant was deleted, with its branches, menus and products.", data: ById },
  "menu.created": { description: "A menu was created.", data: ById },
  "menu.updated": { description: "A menu or its categories changed.", data: ById },
  "menu.deleted": { description: "A menu was deleted, with its categories and combos.", data: ById },
  "meal_product.created": { description: "A meal product was created, with its nutrition facts.", data: ById },
  "meal_product.updated": { description: "A meal product or its nutrition facts changed.", data: ById },
  "meal_product.deleted": { description: "A meal product was deleted.", data: ById },
  "restaurant_category.created": { description: "A restaurant category was created.", data: ById },
  "restaurant_category.updated": { description: "A restaurant category changed.", data: ById },
  "restaurant_category.deleted": { description: "A restaurant category was deleted.", data: ById },
  "allergen.created": { description: "An allergen or dislike was created.", data: ById },
  "allergen.updated": { description: "An allergen or dislike changed.", data: ById },
  "allergen.deleted": { description: "An allergen or dislike was deleted.", data: ById },
  "plan_tag.created": { description: "A plan tag was created.", data: ById },
  "plan_tag.updated": { description: "A plan tag changed.", data: ById },
  "plan_tag.deleted": { description: "A plan tag was deleted.", data: ById },
  "plan.created": { description: "A meal plan was created.", data: ById },
  "plan.updated": {
    description: "A meal plan changed, or its versions, days, plan categories or options.",
    data: ById,
  },
  "plan.deleted": {
    description: "A meal plan was deleted, with its versions, days, categories and options.",
    data: ById,
  },
  "corporate_location.created": { description: "A corporate delivery location was created.", data: ById },
  "corporate_location.updated": { description: "A corporate delivery location changed.", data: ById },
  "corporate_location.deleted": { description: "A corporate delivery location was deleted.", data: ById },
  "meal_app_config.updated": {
    description: "The meals app's settings changed (colours, languages, versions, contacts, links, features).",
    data: z.object({ fields: z.array(z.string()).openapi({ description: "The settings that changed." }) }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof mealEvents> {}
}
