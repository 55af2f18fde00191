import { serviceContext } from "../../core/context";
import { listQuerySchema } from "../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent, merchantRoute, problemResponses, z } from "../../core/openapi";
import {
  BUNDLE_CATEGORY_LIST,
  createBundleCategory,
  deleteBundleCategory,
  getBundleCategory,
  listBundleCategories,
  updateBundleCategory,
} from "./bundle-categories";
import {
  bulkUpdateItems,
  createItem,
  deleteItem,
  getItem,
  ITEM_LIST,
  listItems,
  purchaseItem,
  reserveItem,
  updateItem,
} from "./catalogue";
import {
  addImage,
  createDiscount,
  deleteDiscount,
  deleteImage,
  getDiscount,
  updateDiscount,
  updateImage,
} from "./discounts-images";
import {
  createItemCategory,
  deleteItemCategory,
  getItemCategory,
  ITEM_CATEGORY_LIST,
  listItemCategories,
  updateItemCategory,
} from "./item-categories";
import {
  createModifierCategory,
  deleteModifierCategory,
  getModifierCategory,
  listModifierCategories,
  MODIFIER_CATEGORY_LIST,
  updateModifierCategory,
} from "./modifier-categories";
import {
  BulkUpdateItemPricesSchema,
  BulkUpdateItemsResultSchema,
  BulkUpdateItemsSchema,
  BundleCategoryListSchema,
  BundleCategorySchema,
  CreateBundleCategorySchema,
  CreateDiscountSchema,
  CreateItemCategorySchema,
  CreateItemImageSchema,
  CreateItemSchema,
  CreateItemTagSchema,
  CreateModifierCategorySchema,
  DiscountSchema,
  ItemCategoryListSchema,
  ItemCategorySchema,
  ItemConfigSchema,
  ItemImageSchema,
  ItemListSchema,
  ItemSchema,
  ItemTagListSchema,
  ItemTagSchema,
  ModifierCategoryListSchema,
  ModifierCategorySchema,
  PurchaseItemSchema,
  ReservationSchema,
  ReserveItemSchema,
  UpdateBundleCategorySchema,
  UpdateDiscountSchema,
  UpdateItemCategorySchema,
  UpdateItemConfigSchema,
  UpdateItemImageSchema,
  UpdateItemSchema,
  UpdateItemTagSchema,
  UpdateModifierCategorySchema,
} from "./schemas";
import {
  createItemTag,
  deleteItemTag,
  ITEM_TAG_LIST,
  listItemTags,
  readItemConfig,
  updateItemConfig,
  updateItemTag,
} from "./tags-config";

const categoryId = idParam("category_id");
const MODIFIERS = "/merchant/items/modifiers/";
const BUNDLES = "/merchant/items/bundle-categories/";
const read = { permission: "can_read_item" } as const;
const write = { permission: "can_write_item" } as const;
const IN_USE =
  "Deleting a category that live items still use is refused with 409 `…_in_use`, naming the items (`items`): remove it from them first.";

// ---- modifier categories (spec 4.8) ----
const modifierTags = ["Modifier categories"];

export const listModifierCategoriesRoute = merchantRoute({
  ...read,
  method: "get",
  path: MODIFIERS,
  operationId: "listModifierCategories",
  summary: "List Modifier Categories",
  tags: modifierTags,
  specId: "I1",
  description: "The store's modifier categories with their modifiers (values).",
  request: { query: listQuerySchema(MODIFIER_CATEGORY_LIST) },
  responses: { 200: jsonContent(ModifierCategoryListSchema, "A page of modifier categories.") },
});

export const getModifierCategoryRoute = merchantRoute({
  ...read,
  method: "get",
  path: `${MODIFIERS}{category_id}/`,
  operationId: "getModifierCategory",
  summary: "Modifier Category Details",
  tags: modifierTags,
  specId: "I2",
  request: { params: categoryId },
  responses: { 200: jsonContent(ModifierCategorySchema, "The category with its modifiers."), ...problemResponses(404) },
});

export const createModifierCategoryRoute = merchantRoute({
  ...write,
  method: "post",
  path: MODIFIERS,
  operationId: "createModifierCategory",
  summary: "Create Modifier Category",
  tags: modifierTags,
  specId: "I3",
  description: "Creates a category and its modifiers in one request; returns its id and details.",
  request: { body: jsonBody(CreateModifierCategorySchema) },
  responses: { 201: jsonContent(ModifierCategorySchema, "The new category."), ...problemResponses(413, 415) },
});

export const updateModifierCategoryRoute = merchantRoute({
  ...write,
  method: "patch",
  path: `${MODIFIERS}{category_id}/`,
  operationId: "updateModifierCategory",
  summary: "Update Modifier Category",
  tags: modifierTags,
  specId: "I4",
  description: "Renames or reorders the category; `values` replaces its modifiers (add, rename, reorder, remove).",
  request: { params: categoryId, body: jsonBody(UpdateModifierCategorySchema) },
  responses: {
    200: jsonContent(ModifierCategorySchema, "The category as it is now."),
    ...problemResponses(404, 409, 413, 415),
  },
});

export const deleteModifierCategoryRoute = merchantRoute({
  ...write,
  method: "delete",
  path: `${MODIFIERS}{category_id}/`,
  operationId: "deleteModifierCategory",
  summary: "Delete Modifier Category",
  tags: modifierTags,
  specId: "I5",
  description: IN_USE,
  request: { params: categoryId },
  responses: { 204: { description: "Deleted." }, ...problemResponses(404, 409) },
});

// ---- bundle categories (spec 4.8) ----
const bundleTags = ["Bundle categories"];

export const listBundleCategoriesRoute = merchantRoute({
  ...read,
  method: "get",
  path: BUNDLES,
  operationId: "listBundleCategories",
  summary: "List Bundle Categories",
  tags: bundleTags,
  specId: "I6",
  request: { query: listQuerySchema(BUNDLE_CATEGORY_LIST) },
  responses: { 200: jsonContent(BundleCategoryListSchema, "A page of bundle categories.") },
});

export const getBundleCategoryRoute = merchantRoute({
  ...read,
  method: "get",
  path: `${BUNDLES}{category_id}/`,
  operationId: "getBundleCategory",
  summary: "Bundle Category Details",
  tags: bundleTags,
  specId: "I7",
  request: { params: categoryId },
  responses: { 200: jsonContent(BundleCategorySchema, "The bundle category."), ...problemResponses(404) },
});

export const createBundleCategoryRoute = merchantRoute({
  ...write,
  method: "post",
  path: BUNDLES,
  operationId: "createBundleCategory",
  summary: "Create Bundle Category",
  tags: bundleTags,
  specId: "I8",
  request: { body: jsonBody(CreateBundleCategorySchema) },
  responses: { 201: jsonContent(BundleCategorySchema, "The new bundle category."), ...problemResponses(413, 415) },
});

export const updateBundleCategoryRoute = merchantRoute({
  ...write,
  method: "patch",
  path: `${BUNDLES}{category_id}/`,
  operationId: "updateBundleCategory",
  summary: "Update Bundle Category",
  tags: bundleTags,
  specId: "I9",
  request: { params: categoryId, body: jsonBody(UpdateBundleCategorySchema) },
  responses: {
    200: jsonContent(BundleCategorySchema, "The bundle category as it is now."),
    ...problemResponses(404, 413, 415),
  },
});

export const deleteBundleCategoryRoute = merchantRoute({
  ...write,
  method: "delete",
  path: `${BUNDLES}{category_id}/`,
  operationId: "deleteBundleCategory",
  summary: "Delete Bundle Category",
  tags: bundleTags,
  specId: "I10",
  description: IN_USE,
  request: { params: categoryId },
  responses: { 204: { description: "Deleted." }, ...problemResponses(404, 409) },
});

// ---- item categories (4.9) ----
const categoryTags = ["Item categories"];
const CATEGORIES = "/merchant/items/categories/";

export const listItemCategoriesRoute = merchantRoute({
  ...read,
  method: "get",
  path: CATEGORIES,
  operationId: "listItemCategories",
  summary: "List Item Categories",
  tags: categoryTags,
  specId: "MI11",
  request: { query: listQuerySchema(ITEM_CATEGORY_LIST) },
  responses: { 200: jsonContent(ItemCategoryListSchema, "A page of item categories.") },
});

export const getItemCategoryRoute = merchantRoute({
  ...read,
  method: "get",
  path: `${CATEGORIES}{category_id}/`,
  operationId: "getItemCategory",
  summary: "Item Category Details",
  tags: categoryTags,
  specId: "MI11",
  request: { params: categoryId },
  responses: { 200: jsonContent(ItemCategorySchema, "The item category."), ...problemResponses(404) },
});

export const createItemCategoryRoute = merchantRoute({
  ...write,
  method: "post",
  path: CATEGORIES,
  operationId: "createItemCategory",
  summary: "Create Item Category",
  tags: categoryTags,
  specId: "MI11",
  request: { body: jsonBody(CreateItemCategorySchema) },
  responses: { 201: jsonContent(ItemCategorySchema, "The new item category."), ...problemResponses(413, 415) },
});

export const updateItemCategoryRoute = merchantRoute({
  ...write,
  method: "patch",
  path: `${CATEGORIES}{category_id}/`,
  operationId: "updateItemCategory",
  summary: "Update Item Category",
  tags: categoryTags,
  specId: "MI11",
  request: { params: categoryId, body: jsonBody(UpdateItemCategorySchema) },
  responses: {
    200: jsonContent(ItemCategorySchema, "The item category as it is now."),
    ...problemResponses(404, 413, 415),
  },
});

export const deleteItemCategoryRoute = merchantRoute({
  ...write,
  method: "delete",
  path: `${CATEGORIES}{category_id}/`,
  operationId: "deleteItemCategory",
  summary: "Delete Item Category",
  tags: categoryTags,
  specId: "MI11",
  description: IN_USE,
  request: { params: categoryId },
  responses: { 204: { description: "Deleted." }, ...problemResponses(404, 409) },
});

// ---- item tags and item config (4.9) ----
const TAGS = "/merchant/items/tags/";
const tagId = idParam("tag_id");
const tagTags = ["Item tags"];

export const listItemTagsRoute = merchantRoute({
  ...read,
  method: "get",
  path: TAGS,
  operationId: "listItemTags",
  summary: "List Item Tags",
  tags: tagTags,
  specId: "MI12",
  request: { query: listQuerySchema(ITEM_TAG_LIST) },
  responses: { 200: jsonContent(ItemTagListSchema, "A page of item tags.") },
});
export const createItemTagRoute = merchantRoute({
  ...write,
  method: "post",
  path: TAGS,
  operationId: "createItemTag",
  summary: "Create Item Tag",
  tags: tagTags,
  specId: "MI12",
  request: { body: jsonBody(CreateItemTagSchema) },
  responses: { 201: jsonContent(ItemTagSchema, "The new tag."), ...problemResponses(413, 415) },
});
export const updateItemTagRoute = merchantRoute({
  ...write,
  method: "patch",
  path: `${TAGS}{tag_id}/`,
  operationId: "updateItemTag",
  summary: "Update Item Tag",
  tags: tagTags,
  specId: "MI12",
  request: { params: tagId, body: jsonBody(UpdateItemTagSchema) },
  responses: { 200: jsonContent(ItemTagSchema, "The tag as it is now."), ...problemResponses(404, 413, 415) },
});
export const deleteItemTagRoute = merchantRoute({
  ...write,
  method: "delete",
  path: `${TAGS}{tag_id}/`,
  operationId: "deleteItemTag",
  summary: "Delete Item Tag",
  tags: tagTags,
  specId: "MI12",
  request: { params: tagId },
  responses: { 204: { description: "Deleted." }, ...problemResponses(404) },
});

const CONFIG = "/merchant/items/config/";
export const getItemConfigRoute = merchantRoute({
  ...read,
  method: "get",
  path: CONFIG,
  operationId: "getItemConfig",
  summary: "Item Config",
  tags: ["Items"],
  specId: "MI1",
  description: "The store's catalogue settings (defaults until changed).",
  responses: { 200: jsonContent(ItemConfigSchema, "The settings.") },
});
export const updateItemConfigRoute = merchantRoute({
  ...write,
  method: "post",
  path: CONFIG,
  operationId: "updateItemConfig",
  summary: "Update Item Config",
  tags: ["Items"],
  specId: "MI1",
  description: "Changes some of the settings (POST, as the peer does); the others keep their values.",
  request: { body: jsonBody(UpdateItemConfigSchema) },
  responses: { 200: jsonContent(ItemConfigSchema, "The settings as they are now."), ...problemResponses(413, 415) },
});

// ---- items ----
const itemTags = ["Items"];
const itemId = idParam("item_id");
const ITEMS = "/merchant/items/";

export const listItemsRoute = merchantRoute({
  ...read,
  method: "get",
  path: ITEMS,
  operationId: "listItems",
  summary: "List Items",
  tags: itemTags,
  specId: "MI2",
  description:
    "The store's items (variants inside their item), each the full Item object of 2.2. Filter on item fields, `search`, `order_by`.",
  request: { query: listQuerySchema(ITEM_LIST) },
  responses: { 200: jsonContent(ItemListSchema, "A page of items.") },
});

export const getItemRoute = merchantRoute({
  ...read,
  method: "get",
  path: `${ITEMS}{item_id}/`,
  operationId: "getItem",
  summary: "Item Details",
  tags: itemTags,
  specId: "MI3",
  request: { params: itemId },
  responses: { 200: jsonContent(ItemSchema, "The item."), ...problemResponses(404) },
});

export const createItemRoute = merchantRoute({
  ...write,
  method: "post",
  path: ITEMS,
  operationId: "createItem",
  summary: "Create Item",
  tags: itemTags,
  specId: "MI4",
  description:
    "Creates an item with its modifiers, categories, bundle categories and variants in one request. SKUs are unique in the store and never reused (409).",
  request: { body: jsonBody(CreateItemSchema) },
  responses: { 201: jsonContent(ItemSchema, "The new item."), ...problemResponses(409, 413, 415) },
});

export const updateItemRoute = merchantRoute({
  ...write,
  method: "patch",
  path: `${ITEMS}{item_id}/`,
  operationId: "updateItem",
  summary: "Update Item",
  tags: itemTags,
  specId: "MI5",
  request: { params: itemId, body: jsonBody(UpdateItemSchema) },
  responses: { 200: jsonContent(ItemSchema, "The item as it is now."), ...problemResponses(404, 409, 413, 415) },
});

export const deleteItemRoute = merchantRoute({
  ...write,
  method: "delete",
  path: `${ITEMS}{item_id}/`,
  operationId: "deleteItem",
  summary: "Delete Item",
  tags: itemTags,
  specId: "MI6",
  description:
    "Deletes the item and its variants from the catalogue; tickets and orders that point at them still show them.",
  request: { params: itemId },
  responses: { 204: { description: "Deleted." }, ...problemResponses(404) },
});

export const reserveItemRoute = merchantRoute({
  ...write,
  method: "post",
  path: `${ITEMS}{item_id}/reserve/`,
  operationId: "reserveItem",
  summary: "Reserve an Item",
  tags: itemTags,
  specId: "MI7",
  description:
    "Holds units of an item (or variant) for 1 to 60 minutes; `stock.qty` leaves them out until the hold expires or a purchase uses it. Not enough units: 409 `insufficient_stock` with `available`.",
  request: { params: itemId, body: jsonBody(ReserveItemSchema) },
  responses: { 201: jsonContent(ReservationSchema, "The reservation."), ...problemResponses(404, 409, 413, 415) },
});

export const purchaseItemRoute = merchantRoute({
  ...write,
  method: "post",
  path: `${ITEMS}{item_id}/purchase/`,
  operationId: "purchaseItem",
  summary: "Record Item Purchase",
  tags: itemTags,
  specId: "MI8",
  description:
    "Takes units out of stock, never below zero (409 `insufficient_stock`), consuming a reservation when `reservation_id` is given (409 `reservation_expired` / `reservation_used`).",
  request: { params: itemId, body: jsonBody(PurchaseItemSchema) },
  responses: {
    200: jsonContent(ItemSchema, "The item, with its stock after the purchase."),
    ...problemResponses(404, 409, 413, 415),
  },
});

// ---- an item's discount and images (4.9) ----
const imageIds = z.object({ ...itemId.shape, ...idParam("image_id").shape });
const DISCOUNT = `${ITEMS}{item_id}/discount/`;
const IMAGES = `${ITEMS}{item_id}/images/`;

export const getDiscountRoute = merchantRoute({
  ...read,
  method: "get",
  path: DISCOUNT,
  operationId: "getItemDiscount",
  summary: "Item Discount Details",
  tags: itemTags,
  specId: "MI14",
  request: { params: itemId },
  responses: { 200: jsonContent(DiscountSchema, "The item's discount."), ...problemResponses(404) },
});
export const createDiscountRoute = merchantRoute({
  ...write,
  method: "post",
  path: DISCOUNT,
  operationId: "createItemDiscount",
  summary: "Create Item Discount",
  tags: itemTags,
  specId: "MI14",
  description:
    "Gives an item or variant its discount (one per item; a second is 409 `discount_exists`). The Item's `discount` object is computed from it.",
  request: { params: itemId, body: jsonBody(CreateDiscountSchema) },
  responses: { 201: jsonContent(DiscountSchema, "The discount."), ...problemResponses(404, 409, 413, 415) },
});
export const updateDiscountRoute = merchantRoute({
  ...write,
  method: "patch",
  path: DISCOUNT,
  operationId: "updateItemDiscount",
  summary: "Update Item Discount",
  tags: itemTags,
  specId: "MI14",
  request: { params: itemId, body: jsonBody(UpdateDiscountSchema) },
  responses: { 200: jsonContent(DiscountSchema, "The discount as it is now."), ...problemResponses(404, 413, 415) },
});
export const deleteDiscountRoute = merchantRoute({
  ...write,
  method: "delete",
  path: DISCOUNT,
  operationId: "deleteItemDiscount",
  summary: "Delete Item Discount",
  tags: itemTags,
  specId: "MI14",
  request: { params: itemId },
  responses: { 204: { description: "Deleted." }, ...problemResponses(404) },
});
export const addImageRoute = merchantRoute({
  ...write,
  method: "post",
  path: IMAGES,
  operationId: "createItemImage",
  summary: "Create Item Image",
  tags: itemTags,
  specId: "MI13",
  description: "Adds an image (an https URL) to an item or variant; at most 20 (409 `too_many_images`).",
  request: { params: itemId, body: jsonBody(CreateItemImageSchema) },
  responses: { 201: jsonContent(ItemImageSchema, "The image."), ...problemResponses(404, 409, 413, 415) },
});
export const updateImageRoute = merchantRoute({
  ...write,
  method: "patch",
  path: `${IMAGES}{image_id}/`,
  operationId: "updateItemImage",
  summary: "Update Item Image",
  tags: itemTags,
  specId: "MI13",
  request: { params: imageIds, body: jsonBody(UpdateItemImageSchema) },
  responses: { 200: jsonContent(ItemImageSchema, "The image as it is now."), ...problemResponses(404, 413, 415) },
});
export const deleteImageRoute = merchantRoute({
  ...write,
  method: "delete",
  path: `${IMAGES}{image_id}/`,
  operationId: "deleteItemImage",
  summary: "Delete Item Image",
  tags: itemTags,
  specId: "MI13",
  request: { params: imageIds },
  responses: { 204: { description: "Deleted." }, ...problemResponses(404) },
});

const BULK_DESCRIPTION =
  "All or nothing: an unknown id is a 404 and an invalid entry a 400, each naming the id or entry, and nothing is written. Emits `item.updated` per item.";

export const bulkUpdateItemsRoute = merchantRoute({
  ...write,
  method: "post",
  path: `${ITEMS}bulk-update/`,
  operationId: "bulkUpdateItems",
  summary: "Bulk Update Items",
  tags: itemTags,
  specId: "MI9",
  description: `Changes fields of up to 100 items or variants at once. ${BULK_DESCRIPTION}`,
  request: { body: jsonBody(BulkUpdateItemsSchema) },
  responses: {
    200: jsonContent(BulkUpdateItemsResultSchema, "The items as they are now."),
    ...problemResponses(404, 409, 413, 415),
  },
});

export const bulkUpdateItemPricesRoute = merchantRoute({
  ...write,
  method: "post",
  path: `${ITEMS}bulk-update-prices/`,
  operationId: "bulkUpdateItemPrices",
  summary: "Bulk Update Item Prices",
  tags: itemTags,
  specId: "MI10",
  description: `Sets the prices of up to 100 items or variants at once. ${BULK_DESCRIPTION}`,
  request: { body: jsonBody(BulkUpdateItemPricesSchema) },
  responses: {
    200: jsonContent(BulkUpdateItemsResultSchema, "The items as they are now."),
    ...problemResponses(404, 409, 413, 415),
  },
});

export const catalogueMerchantRouter = createRouter()
  .openapi(listModifierCategoriesRoute, async (c) =>
    c.json(await listModifierCategories(serviceContext(c), new URL(c.req.url)), 200),
  )
  .openapi(createModifierCategoryRoute, async (c) =>
    c.json(await createModifierCategory(serviceContext(c), c.req.valid("json")), 201),
  )
  .openapi(getModifierCategoryRoute, async (c) =>
    c.json(await getModifierCategory(serviceContext(c), c.req.valid("param").category_id), 200),
  )
  .openapi(updateModifierCategoryRoute, async (c) =>
    c.json(await updateModifierCategory(serviceContext(c), c.req.valid("param").category_id, c.req.valid("json")), 200),
  )
  .openapi(deleteModifierCategoryRoute, async (c) => {
    await deleteModifierCategory(serviceContext(c), c.req.valid("param").category_id);
    return c.body(null, 204);
  })
  .openapi(listBundleCategoriesRoute, async (c) =>
    c.json(await listBundleCategories(serviceContext(c), new URL(c.req.url)), 200),
  )
  .openapi(createBundleCategoryRoute, async (c) =>
    c.json(await createBundleCategory(serviceContext(c), c.req.valid("json")), 201),
  )
  .openapi(getBundleCategoryRoute, async (c) =>
    c.json(await getBundleCategory(serviceContext(c), c.req.valid("param").category_id), 200),
  )
  .openapi(updateBundleCategoryRoute, async (c) =>
    c.json(await updateBundleCategory(serviceContext(c), c.req.valid("param").category_id, c.req.valid("json")), 200),
  )
  .openapi(deleteBundleCategoryRoute, async (c) => {
    await deleteBundleCategory(serviceContext(c), c.req.valid("param").category_id);
    return c.body(null, 204);
  })
  .openapi(listItemCategoriesRoute, async (c) =>
    c.json(await listItemCategories(serviceContext(c), new URL(c.req.url)), 200),
  )
  .openapi(createItemCategoryRoute, async (c) =>
    c.json(await createItemCategory(serviceContext(c), c.req.valid("json")), 201),
  )
  .openapi(getItemCategoryRoute, async (c) =>
    c.json(await getItemCategory(serviceContext(c), c.req.valid("param").category_id), 200),
  )
  .openapi(updateItemCategoryRoute, async (c) =>
    c.json(await updateItemCategory(serviceContext(c), c.req.valid("param").category_id, c.req.valid("json")), 200),
  )
  .openapi(deleteItemCategoryRoute, async (c) => {
    await deleteItemCategory(serviceContext(c), c.req.valid("param").category_id);
    return c.body(null, 204);
  })
  .openapi(listItemTagsRoute, async (c) => c.json(await listItemTags(serviceContext(c), new URL(c.req.url)), 200))
  .openapi(createItemTagRoute, async (c) => c.json(await createItemTag(serviceContext(c), c.req.valid("json")), 201))
  .openapi(updateItemTagRoute, async (c) =>
    c.json(await updateItemTag(serviceContext(c), c.req.valid("param").tag_id, c.req.valid("json")), 200),
  )
  .openapi(deleteItemTagRoute, async (c) => {
    await deleteItemTag(serviceContext(c), c.req.valid("param").tag_id);
    return c.body(null, 204);
  })
  .openapi(getItemConfigRoute, async (c) => c.json(await readItemConfig(c.get("db"), c.get("appId")), 200))
  .openapi(updateItemConfigRoute, async (c) =>
    c.json(await updateItemConfig(serviceContext(c), c.req.valid("json")), 200),
  )
  // Items after the categories: `/merchant/items/{item_id}/` would otherwise catch `modifiers`.
  .openapi(bulkUpdateItemsRoute, async (c) =>
    c.json(await bulkUpdateItems(serviceContext(c), c.req.valid("json").items), 200),
  )
  .openapi(bulkUpdateItemPricesRoute, async (c) =>
    c.json(await bulkUpdateItems(serviceContext(c), c.req.valid("json").items), 200),
  )
  .openapi(listItemsRoute, async (c) => c.json(await listItems(serviceContext(c), new URL(c.req.url)), 200))
  .openapi(createItemRoute, async (c) => c.json(await createItem(serviceContext(c), c.req.valid("json")), 201))
  .openapi(getItemRoute, async (c) => c.json(await getItem(serviceContext(c), c.req.valid("param").item_id), 200))
  .openapi(updateItemRoute, async (c) =>
    c.json(await updateItem(serviceContext(c), c.req.valid("param").item_id, c.req.valid("json")), 200),
  )
  .openapi(deleteItemRoute, async (c) => {
    await deleteItem(serviceContext(c), c.req.valid("param").item_id);
    return c.body(null, 204);
  })
  .openapi(reserveItemRoute, async (c) =>
    c.json(await reserveItem(serviceContext(c), c.req.valid("param").item_id, c.req.valid("json")), 201),
  )
  .openapi(purchaseItemRoute, async (c) =>
    c.json(await purchaseItem(serviceContext(c), c.req.valid("param").item_id, c.req.valid("json")), 200),
  )
  .openapi(getDiscountRoute, async (c) =>
    c.json(await getDiscount(serviceContext(c), c.req.valid("param").item_id), 200),
  )
  .openapi(createDiscountRoute, async (c) =>
    c.json(await createDiscount(serviceContext(c), c.req.valid("param").item_id, c.req.valid("json")), 201),
  )
  .openapi(updateDiscountRoute, async (c) =>
    c.json(await updateDiscount(serviceContext(c), c.req.valid("param").item_id, c.req.valid("json")), 200),
  )
  .openapi(deleteDiscountRoute, async (c) => {
    await deleteDiscount(serviceContext(c), c.req.valid("param").item_id);
    return c.body(null, 204);
  })
  .openapi(addImageRoute, async (c) =>
    c.json(await addImage(serviceContext(c), c.req.valid("param").item_id, c.req.valid("json")), 201),
  )
  .openapi(updateImageRoute, async (c) => {
    const { item_id, image_id } = c.req.valid("param");
    return c.json(await updateImage(serviceContext(c), item_id, image_id, c.req.valid("json")), 200);
  })
  .openapi(deleteImageRoute, async (c) => {
    const { item_id, image_id } = c.req.valid("param");
    await deleteImage(serviceContext(c), item_id, image_id);
    return c.body(null, 204);
  });
