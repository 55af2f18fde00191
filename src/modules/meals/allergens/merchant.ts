import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { MERCHANT_BASE as BASE, writeOperations } from "../operations";
import { AllergenSchema, CreateAllergenSchema, UpdateAllergenSchema } from "./schemas";
import { createAllergen, deleteAllergen, updateAllergen } from "./service";

/** The merchant writes of allergens and dislikes. */

export const allergensMerchantRouter = createRouter();

const allergen = writeOperations("Allergen Dislike", {
  refs: "Products name allergens and dislikes by `name_en`, in `allergies` and `allergens_dislikes`.",
  deleteNote: "Never refused: products keep the names they have.",
});
crudRoutes(allergensMerchantRouter, {
  names: allergen.names,
  tag: "Meals admin: menus",
  collection: `${BASE}allergens-dislikes/`,
  member: `${BASE}allergens-dislikes/{allergen_id}/`,
  param: "allergen_id",
  notFound: "allergen_not_found",
  view: AllergenSchema,
  create: { ...allergen.create, body: CreateAllergenSchema, run: createAllergen },
  update: { ...allergen.update, body: UpdateAllergenSchema, run: updateAllergen },
  remove: { ...allergen.remove, run: deleteAllergen },
});
