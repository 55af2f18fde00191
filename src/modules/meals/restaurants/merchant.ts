import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { MERCHANT_BASE as BASE, writeOperations } from "../operations";
import { createBranch, deleteBranch, updateBranch } from "./branches";
import { createRestaurantCategory, deleteRestaurantCategory, updateRestaurantCategory } from "./categories";
import {
  BranchSchema,
  CreateBranchSchema,
  CreateRestaurantCategorySchema,
  CreateRestaurantSchema,
  CreateRestaurantVariantSchema,
  RestaurantCategorySchema,
  RestaurantSchema,
  RestaurantVariantSchema,
  UpdateBranchSchema,
  UpdateRestaurantCategorySchema,
  UpdateRestaurantSchema,
  UpdateRestaurantVariantSchema,
} from "./schemas";
import { createRestaurant, deleteRestaurant, updateRestaurant } from "./service";
import { createRestaurantVariant, deleteRestaurantVariant, updateRestaurantVariant } from "./variants";

/** The merchant writes of restaurants, their branches, variants, and restaurant categories. */

const tag = "Meals admin: restaurants";
export const restaurantsMerchantRouter = createRouter();

const restaurant = writeOperations("Restaurant", {
  refs:
    "`category_id` must be a restaurant category of the store, `menu_id` a menu of this " +
    "restaurant. `delivery_windows` and `delivery_zones` replace the restaurant's.",
  deleteNote:
    "409 `restaurant_in_use` while live plans sell its meals; its branches, delivery areas, " +
    "menus and products go with it.",
});
crudRoutes(restaurantsMerchantRouter, {
  names: restaurant.names,
  tag,
  collection: `${BASE}restaurants/`,
  member: `${BASE}restaurants/{restaurant_id}/`,
  param: "restaurant_id",
  notFound: "restaurant_not_found",
  view: RestaurantSchema,
  create: { ...restaurant.create, body: CreateRestaurantSchema, run: createRestaurant },
  update: { ...restaurant.update, body: UpdateRestaurantSchema, run: updateRestaurant },
  remove: { ...restaurant.remove, errors: { 409: ["restaurant_in_use"] }, run: deleteRestaurant },
});

const branch = writeOperations("Restaurant Branch", {
  refs: "Making a branch main (`is_main`) clears the restaurant's other main branch.",
  deleteNote: "Never refused.",
});
crudRoutes(restaurantsMerchantRouter, {
  names: branch.names,
  tag,
  collection: `${BASE}restaurants/{restaurant_id}/branches/`,
  parent: { param: "restaurant_id", notFound: "restaurant_not_found" },
  member: `${BASE}branches/{branch_id}/`,
  param: "branch_id",
  notFound: "branch_not_found",
  view: BranchSchema,
  create: {
    ...branch.create,
    body: CreateBranchSchema,
    run: (ctx, body, restaurantId) => createBranch(ctx, restaurantId!, body),
  },
  update: { ...branch.update, body: UpdateBranchSchema, run: updateBranch },
  remove: { ...branch.remove, run: deleteBranch },
});

const category = writeOperations("Restaurant Category", {
  deleteNote: "409 `restaurant_category_in_use` while live restaurants are filed under it, naming them.",
});
crudRoutes(restaurantsMerchantRouter, {
  names: category.names,
  tag,
  collection: `${BASE}restaurant-categories/`,
  member: `${BASE}restaurant-categories/{category_id}/`,
  param: "category_id",
  notFound: "restaurant_category_not_found",
  view: RestaurantCategorySchema,
  create: { ...category.create, body: CreateRestaurantCategorySchema, run: createRestaurantCategory },
  update: { ...category.update, body: UpdateRestaurantCategorySchema, run: updateRestaurantCategory },
  remove: { ...category.remove, errors: { 409: ["restaurant_category_in_use"] }, run: deleteRestaurantCategory },
});

const variant = writeOperations("Restaurant Variant", {
  refs: "Products name the variants they belong to by `name_en`, in `variant`.",
  deleteNote: "Never refused: products keep the names they have.",
});
crudRoutes(restaurantsMerchantRouter, {
  names: variant.names,
  tag,
  collection: `${BASE}restaurants/{restaurant_id}/variants/`,
  parent: { param: "restaurant_id", notFound: "restaurant_not_found" },
  member: `${BASE}restaurant-variants/{variant_id}/`,
  param: "variant_id",
  notFound: "restaurant_variant_not_found",
  view: RestaurantVariantSchema,
  create: {
    ...variant.create,
    body: CreateRestaurantVariantSchema,
    run: (ctx, body, restaurantId) => createRestaurantVariant(ctx, restaurantId!, body),
  },
  update: { ...variant.update, body: UpdateRestaurantVariantSchema, run: updateRestaurantVariant },
  remove: { ...variant.remove, run: deleteRestaurantVariant },
});
