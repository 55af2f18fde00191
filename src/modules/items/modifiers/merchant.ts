import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { IN_USE } from "../shared";
import {
  CreateModifierCategorySchema,
  ModifierCategoryListSchema,
  ModifierCategoryRecordSchema,
  UpdateModifierCategorySchema,
} from "./schemas";
import {
  createModifierCategory,
  deleteModifierCategory,
  getModifierCategory,
  listModifierCategories,
  MODIFIER_CATEGORY_LIST,
  updateModifierCategory,
} from "./service";

const MODIFIERS = "/merchant/items/modifiers/";

export const modifierCategoriesRouter = createRouter();

/** Modifier categories (spec 4.8) carry their values: create and update write both in one batch. */
crudRoutes(modifierCategoriesRouter, {
  names: { one: "modifier category", many: "modifier categories" },
  tag: "Modifier categories",
  collection: MODIFIERS,
  member: `${MODIFIERS}{category_id}/`,
  param: "category_id",
  notFound: "modifier_category_not_found",
  view: ModifierCategoryRecordSchema,
  list: {
    operationId: "listModifierCategories",
    summary: "List Modifier Categories",
    specId: "I1",
    permission: "can_read_item",
    description: "The store's modifier categories with their modifiers (values).",
    spec: MODIFIER_CATEGORY_LIST,
    schema: ModifierCategoryListSchema,
    run: listModifierCategories,
  },
  get: {
    operationId: "getModifierCategory",
    summary: "Modifier Category Details",
    specId: "I2",
    permission: "can_read_item",
    run: getModifierCategory,
  },
  create: {
    operationId: "createModifierCategory",
    summary: "Create Modifier Category",
    specId: "I3",
    permission: "can_write_item",
    description: "Creates a category and its modifiers in one request; returns its id and details.",
    body: CreateModifierCategorySchema,
    run: createModifierCategory,
  },
  update: {
    operationId: "updateModifierCategory",
    summary: "Update Modifier Category",
    specId: "I4",
    permission: "can_write_item",
    description: "Renames or reorders the category; `values` replaces its modifiers (add, rename, reorder, remove).",
    errors: { 409: ["modifier_value_in_use"] },
    body: UpdateModifierCategorySchema,
    run: updateModifierCategory,
  },
  remove: {
    operationId: "deleteModifierCategory",
    summary: "Delete Modifier Category",
    specId: "I5",
    permission: "can_write_item",
    description: IN_USE,
    errors: { 409: ["modifier_category_in_use"] },
    run: deleteModifierCategory,
  },
});
