import { serviceContext } from "../../../core/context";
import { createRouter, idParam, jsonBody, jsonContent, z } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { CreateItemImageSchema, ItemImageSchema, UpdateItemImageSchema } from "./schemas";
import { addImage, deleteImage, updateImage } from "./service";

/** An item's images: member routes carry two ids (the item's and the image's), so written by hand. */
const IMAGES = "/merchant/items/{item_id}/images/";
const itemId = idParam("item_id");
const imageIds = z.object({ ...itemId.shape, ...idParam("image_id").shape });
const tags = ["Items"];
const specId = "MI13";

export const addImageRoute = merchantRoute({
  method: "post",
  path: IMAGES,
  operationId: "createItemImage",
  summary: "Create Item Image",
  tags,
  specId,
  permission: "can_write_item",
  description: "Adds an image (an https URL) to an item or variant; at most 20 (409 `too_many_images`).",
  errors: { 404: ["item_not_found"], 409: ["too_many_images"] },
  request: { params: itemId, body: jsonBody(CreateItemImageSchema) },
  responses: { 201: jsonContent(ItemImageSchema, "The image.") },
});

export const updateImageRoute = merchantRoute({
  method: "patch",
  path: `${IMAGES}{image_id}/`,
  operationId: "updateItemImage",
  summary: "Update Item Image",
  tags,
  specId,
  permission: "can_write_item",
  errors: { 404: ["item_not_found", "item_image_not_found"] },
  request: { params: imageIds, body: jsonBody(UpdateItemImageSchema) },
  responses: { 200: jsonContent(ItemImageSchema, "The image as it is now.") },
});

export const deleteImageRoute = merchantRoute({
  method: "delete",
  path: `${IMAGES}{image_id}/`,
  operationId: "deleteItemImage",
  summary: "Delete Item Image",
  tags,
  specId,
  permission: "can_write_item",
  errors: { 404: ["item_not_found", "item_image_not_found"] },
  request: { params: imageIds },
  responses: { 204: { description: "Deleted." } },
});

export const itemImagesRouter = createRouter()
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
