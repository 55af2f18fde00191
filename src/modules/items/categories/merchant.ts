import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { IN_USE } from "../shared";
import {
  CreateItemCategorySchema,
  ItemCategoryListSchema,
  ItemCategorySchema,
  UpdateItemCategorySchema,
} from "./schemas";
import {
  createItemCategory,
  deleteItemCategory,
  getItemCategory,
  ITEM_CATEGORY_LIST,
  listItemCategories,
  updateItemCategory,
} from "./service";

const CATEGORIES = "/merchant/items/categories/";

export const itemCategoriesRouter = createRouter();

crudRoutes(itemCategoriesRouter, {
  names: { one: "item category", many: "item categories" },
  tag: "Item categories",
  collection: CATEGORIES,
  member: `${CATEGORIES}{category_id}/`,
  param: "category_id",
  notFound: "item_category_not_found",
  view: ItemCategorySchema,
  list: {
    operationId: "listItemCategories",
    summary: "List Item Categories",
    specId: "MI11",
    permission: "can_read_item",
    spec: ITEM_CATEGORY_LIST,
    schema: ItemCategoryListSchema,
    run: listItemCategories,
  },
  get: {
    operationId: "getItemCategory",
    summary: "Item Category Details",
    specId: "MI11",
    permission: "can_read_item",
    run: getItemCategory,
  },
  create: {
    operationId: "createItemCategory",
    summary: "Create Item Category",
    specId: "MI11",
    permission: "can_write_item",
    body: CreateItemCategorySchema,
    run: createItemCategory,
  },
  update: {
    operationId: "updateItemCategory",
    summary: "Update Item Category",
    specId: "MI11",
    permission: "can_write_item",
    body: UpdateItemCategorySchema,
    run: updateItemCategory,
  },
  remove: {
    operationId: "deleteItemCategory",
    summary: "Delete Item Category",
    specId: "MI11",
    permission: "can_write_item",
    description: IN_USE,
    errors: { 409: ["item_category_in_use"] },
    run: deleteItemCategory,
  },
});
