import { serviceContext } from "../../../core/context";
import { crudRoutes } from "../../../core/crud/routes";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { bulkUpdateItems } from "./bulk";
import {
  BulkUpdateItemPricesSchema,
  BulkUpdateItemsResultSchema,
  BulkUpdateItemsSchema,
  CreateItemSchema,
  ItemListSchema,
  ItemSchema,
  PurchaseItemSchema,
  ReservationSchema,
  ReserveItemSchema,
  UpdateItemSchema,
} from "./schemas";
import { createItem, deleteItem, getItem, ITEM_LIST, listItems, updateItem } from "./service";
import { purchaseItem, reserveItem } from "./stock";

const ITEMS = "/merchant/items/";
const itemId = idParam("item_id");
const tags = ["Items"];

const BULK_DESCRIPTION =
  "All or nothing: an unknown id is a 404 and an invalid entry a 400, each naming the id or " +
  "entry, and nothing is written. Emits `item.updated` per item.";

export const bulkUpdateItemsRoute = merchantRoute({
  method: "post",
  path: `${ITEMS}bulk-update/`,
  operationId: "bulkUpdateItems",
  summary: "Bulk Update Items",
  tags,
  specId: "MI9",
  permission: "can_write_item",
  description: `Changes fields of up to 100 items or variants at once. ${BULK_DESCRIPTION}`,
  errors: { 404: ["items_not_found"], 409: ["concurrent_update"] },
  request: { body: jsonBody(BulkUpdateItemsSchema) },
  responses: { 200: jsonContent(BulkUpdateItemsResultSchema, "The items as they are now.") },
});

export const bulkUpdateItemPricesRoute = merchantRoute({
  method: "post",
  path: `${ITEMS}bulk-update-prices/`,
  operationId: "bulkUpdateItemPrices",
  summary: "Bulk Update Item Prices",
  tags,
  specId: "MI10",
  permission: "can_write_item",
  description: `Sets the prices of up to 100 items or variants at once. ${BULK_DESCRIPTION}`,
  errors: { 404: ["items_not_found"], 409: ["concurrent_update"] },
  request: { body: jsonBody(BulkUpdateItemPricesSchema) },
  responses: { 200: jsonContent(BulkUpdateItemsResultSchema, "The items as they are now.") },
});

export const reserveItemRoute = merchantRoute({
  method: "post",
  path: `${ITEMS}{item_id}/reserve/`,
  operationId: "reserveItem",
  summary: "Reserve an Item",
  tags,
  specId: "MI7",
  permission: "can_write_item",
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "Holds units of an item (or variant) for 1 to 60 minutes; `stock.qty` leaves them out " +
    "until the hold expires or a purchase uses it. Not enough units: 409 `insufficient_stock` " +
    "with `available`.",
  errors: { 404: ["item_not_found"], 409: ["insufficient_stock"] },
  request: { params: itemId, body: jsonBody(ReserveItemSchema) },
  responses: { 201: jsonContent(ReservationSchema, "The reservation.") },
});

export const purchaseItemRoute = merchantRoute({
  method: "post",
  path: `${ITEMS}{item_id}/purchase/`,
  operationId: "purchaseItem",
  summary: "Record Item Purchase",
  tags,
  specId: "MI8",
  permission: "can_write_item",
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "Takes units out of stock, never below zero (409 `insufficient_stock`), consuming a " +
    "reservation when `reservation_id` is given (409 `reservation_expired` / " +
    "`reservation_used`).",
  errors: { 404: ["item_not_found"], 409: ["insufficient_stock", "reservation_used", "reservation_expired"] },
  request: { params: itemId, body: jsonBody(PurchaseItemSchema) },
  responses: { 200: jsonContent(ItemSchema, "The item, with its stock after the purchase.") },
});

/** Items and their variants. The bulk paths come first: `{item_id}/` would otherwise be tried for them. */
export const catalogueItemsRouter = createRouter()
  .openapi(bulkUpdateItemsRoute, async (c) =>
    c.json(await bulkUpdateItems(serviceContext(c), c.req.valid("json").items), 200),
  )
  .openapi(bulkUpdateItemPricesRoute, async (c) =>
    c.json(await bulkUpdateItems(serviceContext(c), c.req.valid("json").items), 200),
  );

crudRoutes(catalogueItemsRouter, {
  names: { one: "item", many: "items" },
  tag: "Items",
  collection: ITEMS,
  member: `${ITEMS}{item_id}/`,
  param: "item_id",
  notFound: "item_not_found",
  view: ItemSchema,
  list: {
    operationId: "listItems",
    summary: "List Items",
    specId: "MI2",
    permission: "can_read_item",
    description:
      "The store's items (variants inside their item), each the full Item object of 2.2. Filter " +
      "on item fields, `search`, `order_by`.",
    spec: ITEM_LIST,
    schema: ItemListSchema,
    run: listItems,
  },
  get: { operationId: "getItem", summary: "Item Details", specId: "MI3", permission: "can_read_item", run: getItem },
  create: {
    operationId: "createItem",
    summary: "Create Item",
    specId: "MI4",
    permission: "can_write_item",
    description:
      "Creates an item with its modifiers, categories, bundle categories and variants in one " +
      "request. SKUs are unique in the store and never reused (409).",
    errors: { 409: ["sku_taken"] },
    body: CreateItemSchema,
    run: createItem,
  },
  update: {
    operationId: "updateItem",
    summary: "Update Item",
    specId: "MI5",
    permission: "can_write_item",
    errors: { 409: ["sku_taken"] },
    body: UpdateItemSchema,
    run: updateItem,
  },
  remove: {
    operationId: "deleteItem",
    summary: "Delete Item",
    specId: "MI6",
    permission: "can_write_item",
    description:
      "Deletes the item and its variants from the catalogue; tickets and orders that point at them still show them.",
    run: deleteItem,
  },
});

catalogueItemsRouter
  .openapi(reserveItemRoute, async (c) =>
    c.json(await reserveItem(serviceContext(c), c.req.valid("param").item_id, c.req.valid("json")), 201),
  )
  .openapi(purchaseItemRoute, async (c) =>
    c.json(await purchaseItem(serviceContext(c), c.req.valid("param").item_id, c.req.valid("json")), 200),
  );
