import { serviceContext } from "../../../core/context";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { CreateDiscountSchema, DiscountSchema, UpdateDiscountSchema } from "./schemas";
import { createDiscount, deleteDiscount, getDiscount, updateDiscount } from "./service";

/** An item's one discount: a sub-resource addressed by the item's id alone, so written by hand. */
const DISCOUNT = "/merchant/items/{item_id}/discount/";
const itemId = idParam("item_id");
const tags = ["Items"];
const specId = "MI14";

export const getDiscountRoute = merchantRoute({
  method: "get",
  path: DISCOUNT,
  operationId: "getItemDiscount",
  summary: "Item Discount Details",
  tags,
  specId,
  permission: "can_read_item",
  errors: { 404: ["item_not_found", "discount_not_found"] },
  request: { params: itemId },
  responses: { 200: jsonContent(DiscountSchema, "The item's discount.") },
});

export const createDiscountRoute = merchantRoute({
  method: "post",
  path: DISCOUNT,
  operationId: "createItemDiscount",
  summary: "Create Item Discount",
  tags,
  specId,
  permission: "can_write_item",
  description:
    "Gives an item or variant its discount (one per item; a second is 409 `discount_exists`). " +
    "The Item's `discount` object is computed from it.",
  errors: { 404: ["item_not_found"], 409: ["discount_exists"] },
  request: { params: itemId, body: jsonBody(CreateDiscountSchema) },
  responses: { 201: jsonContent(DiscountSchema, "The discount.") },
});

export const updateDiscountRoute = merchantRoute({
  method: "patch",
  path: DISCOUNT,
  operationId: "updateItemDiscount",
  summary: "Update Item Discount",
  tags,
  specId,
  permission: "can_write_item",
  errors: { 404: ["item_not_found", "discount_not_found"] },
  request: { params: itemId, body: jsonBody(UpdateDiscountSchema) },
  responses: { 200: jsonContent(DiscountSchema, "The discount as it is now.") },
});

export const deleteDiscountRoute = merchantRoute({
  method: "delete",
  path: DISCOUNT,
  operationId: "deleteItemDiscount",
  summary: "Delete Item Discount",
  tags,
  specId,
  permission: "can_write_item",
  errors: { 404: ["item_not_found", "discount_not_found"] },
  request: { params: itemId },
  responses: { 204: { description: "Deleted." } },
});

export const itemDiscountsRouter = createRouter()
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
  });
