import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { ShippingConfigSchema, UpdateShippingConfigSchema } from "./schemas";
import { getShippingConfig, updateShippingConfig } from "./service";

const tags = ["Shipping"];
const PATH = "/merchant/shipments/config/";

const getRoute = merchantRoute({
  method: "get",
  path: PATH,
  operationId: "shippingConfig",
  summary: "Shipping Config",
  tags,
  specId: "MH1",
  permission: "can_read_shipment",
  description: "The default origin, package defaults and the couriers offered at checkout (null: every active one).",
  responses: { 200: jsonContent(ShippingConfigSchema, "The store's shipping config.") },
});

const postRoute = merchantRoute({
  method: "post",
  path: PATH,
  operationId: "updateShippingConfig",
  summary: "Update Shipping Config",
  tags,
  specId: "MH1",
  permission: "can_write_shipment",
  description: "Sets the fields given (null clears one). Ids must name the store's pickup location and couriers (400).",
  request: { body: jsonBody(UpdateShippingConfigSchema) },
  responses: { 200: jsonContent(ShippingConfigSchema, "The config as it is now.") },
});

export const shippingConfigRouter = createRouter()
  .openapi(getRoute, async (c) => c.json(await getShippingConfig(serviceContext(c)), 200))
  .openapi(postRoute, async (c) =>
    c.json(await updateShippingConfig(serviceContext(c), c.env, c.req.valid("json")), 200),
  );
