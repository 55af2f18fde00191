import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the meals module answers with, beyond the request path's own. */
export const mealErrorCodes = defineErrorCodes({
  restaurant_not_found: "No such restaurant in this store (or it is not active, on a public read).",
  branch_not_found: "No such restaurant branch in this store.",
  menu_not_found: "No such menu in this store, or the restaurant has no on-demand menu yet.",
  menu_category_not_found: "No such menu category in this store.",
  product_not_found: "No such meal product in this store.",
  combo_not_found: "No such combo in this store.",
  restaurant_category_not_found: "No such restaurant category in this store.",
  allergen_not_found: "No such allergen or dislike in this store.",
  restaurant_variant_not_found: "No such restaurant variant in this store.",
  plan_not_found: "No such meal plan in this store.",
  plan_version_not_found: "No such plan version in this store.",
  plan_day_not_found: "No such plan day in this store.",
  plan_category_not_found: "No such plan category in this store.",
  plan_option_not_found: "No such plan option in this store.",
  plan_tag_not_found: "No such plan tag in this store.",
  plan_has_no_versions: "The plan has no version on sale yet.",
  plan_version_closed: "The plan version's last start date has passed.",
  restaurant_closed: "The restaurant takes no orders within the order horizon.",
  restaurant_in_use: "Live plans sell the restaurant's meals.",
  menu_in_use: "The menu is a restaurant's on-demand menu, or plans use it.",
  menu_category_in_use: "Products or combos are in the menu category.",
  product_in_use: "Plans offer the product, or combos contain it.",
  restaurant_category_in_use: "Restaurants are filed under the category.",
  plan_tag_in_use: "Live plans carry the tag.",
  plan_day_taken: "The plan already has a day with that repetition counter.",
  plan_days_beyond_repetition: "Days of the plan lie beyond the new repetition.",
  plan_option_taken: "The plan category already offers that product.",
  plan_date_not_served: "The plan delivers nothing on that date (off day, closed date, or outside its dates).",
  corporate_location_not_found: "No such corporate location in this store (or it is not active, for a customer).",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof mealErrorCodes> {}
}
