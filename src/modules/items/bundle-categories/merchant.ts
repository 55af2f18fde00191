import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { IN_USE } from "../shared";
import {
  BundleCategoryListSchema,
  BundleCategoryRecordSchema,
  CreateBundleCategorySchema,
  UpdateBundleCategorySchema,
} from "./schemas";
import {
  BUNDLE_CATEGORY_LIST,
  createBundleCategory,
  deleteBundleCategory,
  getBundleCategory,
  listBundleCategories,
  updateBundleCategory,
} from "./service";

const BUNDLES = "/merchant/items/bundle-categories/";

export const bundleCategoriesRouter = createRouter();

crudRoutes(bundleCategoriesRouter, {
  names: { one: "bundle category", many: "bundle categories" },
  tag: "Bundle categories",
  collection: BUNDLES,
  member: `${BUNDLES}{category_id}/`,
  param: "category_id",
  notFound: "bundle_category_not_found",
  view: BundleCategoryRecordSchema,
  list: {
    operationId: "listBundleCategories",
    summary: "List Bundle Categories",
    specId: "I6",
    permission: "can_read_item",
    spec: BUNDLE_CATEGORY_LIST,
    schema: BundleCategoryListSchema,
    run: listBundleCategories,
  },
  get: {
    operationId: "getBundleCategory",
    summary: "Bundle Category Details",
    specId: "I7",
    permission: "can_read_item",
    run: getBundleCategory,
  },
  create: {
    operationId: "createBundleCategory",
    summary: "Create Bundle Category",
    specId: "I8",
    permission: "can_write_item",
    body: CreateBundleCategorySchema,
    run: createBundleCategory,
  },
  update: {
    operationId: "updateBundleCategory",
    summary: "Update Bundle Category",
    specId: "I9",
    permission: "can_write_item",
    body: UpdateBundleCategorySchema,
    run: updateBundleCategory,
  },
  remove: {
    operationId: "deleteBundleCategory",
    summary: "Delete Bundle Category",
    specId: "I10",
    permission: "can_write_item",
    description: IN_USE,
    errors: { 409: ["bundle_category_in_use"] },
    run: deleteBundleCategory,
  },
});
