import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { MERCHANT_BASE as BASE, writeOperations } from "../operations";
import { createMenuCategory, deleteMenuCategory, updateMenuCategory } from "./categories";
import { createCombo, deleteCombo, updateCombo } from "./combos";
import { createProduct, deleteProduct, updateProduct } from "./products";
import {
  ComboSchema,
  CreateComboSchema,
  CreateMenuCategorySchema,
  CreateMenuSchema,
  CreateProductSchema,
  MenuCategoryRecordSchema,
  MenuRecordSchema,
  ProductDetailsSchema,
  UpdateComboSchema,
  UpdateMenuCategorySchema,
  UpdateMenuSchema,
  UpdateProductSchema,
} from "./schemas";
import { createMenu, deleteMenu, updateMenu } from "./service";

/** The merchant writes of menus, their categories, meal products (with nutrition facts) and combos. */

const tag = "Meals admin: menus";
export const menusMerchantRouter = createRouter();

const menu = writeOperations("Menu", {
  refs: "`restaurant_id` must be a restaurant of the store.",
  deleteNote:
    "409 `menu_in_use` while a restaurant serves it on demand or a plan uses it; its " +
    "categories and combos go with it, and its products stay, out of any category.",
});
crudRoutes(menusMerchantRouter, {
  names: menu.names,
  tag,
  collection: `${BASE}menus/`,
  member: `${BASE}menus/{menu_id}/`,
  param: "menu_id",
  notFound: "menu_not_found",
  view: MenuRecordSchema,
  create: { ...menu.create, body: CreateMenuSchema, run: createMenu },
  update: { ...menu.update, body: UpdateMenuSchema, run: updateMenu },
  remove: { ...menu.remove, errors: { 409: ["menu_in_use"] }, run: deleteMenu },
});

const category = writeOperations("Menu Category", {
  deleteNote: "409 `menu_category_in_use` while live products or combos are in it, naming them.",
});
crudRoutes(menusMerchantRouter, {
  names: category.names,
  tag,
  collection: `${BASE}menus/{menu_id}/categories/`,
  parent: { param: "menu_id", notFound: "menu_not_found" },
  member: `${BASE}menu-categories/{category_id}/`,
  param: "category_id",
  notFound: "menu_category_not_found",
  view: MenuCategoryRecordSchema,
  create: {
    ...category.create,
    body: CreateMenuCategorySchema,
    run: (ctx, body, menuId) => createMenuCategory(ctx, menuId!, body),
  },
  update: { ...category.update, body: UpdateMenuCategorySchema, run: updateMenuCategory },
  remove: { ...category.remove, errors: { 409: ["menu_category_in_use"] }, run: deleteMenuCategory },
});

const product = writeOperations("Meal Product", {
  refs:
    "`restaurant_id` must be a restaurant of the store, `category_id` a category of one of " +
    "its menus. `nutritions` and `nutrition_options` replace the product's.",
  deleteNote: "409 `product_in_use` while plan options offer it or combos contain it, naming the plans and combos.",
});
crudRoutes(menusMerchantRouter, {
  names: product.names,
  tag,
  collection: `${BASE}products/`,
  member: `${BASE}products/{product_id}/`,
  param: "product_id",
  notFound: "product_not_found",
  view: ProductDetailsSchema,
  create: { ...product.create, body: CreateProductSchema, run: createProduct },
  update: { ...product.update, body: UpdateProductSchema, run: updateProduct },
  remove: { ...product.remove, errors: { 409: ["product_in_use"] }, run: deleteProduct },
});

const combo = writeOperations("Combo", {
  refs:
    "`product_ids` must be products of the category's restaurant. Restaurant Menu offers a " +
    "combo on a date only when all its products are served that day.",
  deleteNote: "Never refused.",
});
crudRoutes(menusMerchantRouter, {
  names: combo.names,
  tag,
  collection: `${BASE}menu-categories/{category_id}/combos/`,
  parent: { param: "category_id", notFound: "menu_category_not_found" },
  member: `${BASE}combos/{combo_id}/`,
  param: "combo_id",
  notFound: "combo_not_found",
  view: ComboSchema,
  // Besides the combo, the writes look up its category's menu (create) and its category (for the event).
  create: {
    ...combo.create,
    errors: { 404: ["menu_not_found"] },
    body: CreateComboSchema,
    run: (ctx, body, categoryId) => createCombo(ctx, categoryId!, body),
  },
  update: { ...combo.update, errors: { 404: ["menu_category_not_found"] }, body: UpdateComboSchema, run: updateCombo },
  remove: { ...combo.remove, errors: { 404: ["menu_category_not_found"] }, run: deleteCombo },
});
