import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { ItemConfigSchema, UpdateItemConfigSchema } from "./schemas";
import { readItemConfig, updateItemConfig } from "./service";

/** The store's catalogue settings: one record per store, read and changed without an id. */
const CONFIG = "/merchant/items/config/";
const tags = ["Items"];

export const getItemConfigRoute = merchantRoute({
  method: "get",
  path: CONFIG,
  operationId: "getItemConfig",
  summary: "Item Config",
  tags,
  specId: "MI1",
  permission: "can_read_item",
  description: "The store's catalogue settings (defaults until changed).",
  responses: { 200: jsonContent(ItemConfigSchema, "The settings.") },
});

export const updateItemConfigRoute = merchantRoute({
  method: "post",
  path: CONFIG,
  operationId: "updateItemConfig",
  summary: "Update Item Config",
  tags,
  specId: "MI1",
  permission: "can_write_item",
  description: "Changes some of the settings (POST, as the peer does); the others keep their values.",
  request: { body: jsonBody(UpdateItemConfigSchema) },
  responses: { 200: jsonContent(ItemConfigSchema, "The settings as they are now.") },
});

export const itemConfigRouter = createRouter()
  .openapi(getItemConfigRoute, async (c) => c.json(await readItemConfig(c.get("db"), c.get("appId")), 200))
  .openapi(updateItemConfigRoute, async (c) =>
    c.json(await updateItemConfig(serviceContext(c), c.req.valid("json")), 200),
  );
