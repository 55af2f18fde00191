import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { createShipment } from "./create";
import { createReturnShipment } from "./returns";
import {
  CreateReturnShipmentSchema,
  CreateShipmentSchema,
  ShipmentListSchema,
  ShipmentSchema,
  UpdateShipmentStatusSchema,
} from "./schemas";
import { cancelShipment, reportShipmentStatus } from "./status";
import { listShipments, SHIPMENT_LIST, shipmentDetails } from "./views";

const tags = ["Shipments"];
const COLLECTION = "/merchant/shipments/";
const MEMBER = `${COLLECTION}{shipment_id}/`;
const param = idParam("shipment_id");

const listRoute = merchantRoute({
  method: "get",
  path: COLLECTION,
  operationId: "listShipments",
  summary: "List Shipments",
  tags,
  beyondSpec: "Shipments need a list and details to be followed; the reference names only their actions.",
  permission: "can_read_shipment",
  description: "The store's shipments, newest first; filter by `order_id`, `status`, `direction`, `courier_id` …",
  request: { query: listQuerySchema(SHIPMENT_LIST) },
  responses: { 200: jsonContent(ShipmentListSchema, "A page of shipments.") },
});

const detailsRoute = merchantRoute({
  method: "get",
  path: MEMBER,
  operationId: "shipmentDetails",
  summary: "Shipment Details",
  tags,
  beyondSpec: "Shipments need a list and details to be followed; the reference names only their actions.",
  permission: "can_read_shipment",
  errors: { 404: ["shipment_not_found"] },
  request: { params: param },
  responses: { 200: jsonContent(ShipmentSchema, "The shipment with its status history.") },
});

const createRoute = merchantRoute({
  method: "post",
  path: COLLECTION,
  operationId: "createShipment",
  summary: "Create Shipment",
  tags,
  specId: "MH4",
  permission: "can_write_shipment",
  idempotent: true,
  errors: { 404: ["courier_not_found"], 409: ["fulfillment_not_shippable", "courier_unavailable", "carrier_error"] },
  description:
    "Ships delivery fulfillments of one order (pending or processing, in no other shipment) with a courier, " +
    "from a pickup location (default: the config's origin, else the default location) to the order's " +
    "address. An integrated carrier creates it at its end (tracking number, cost); a custom courier is priced " +
    "by its rules and gets a tracking number of ours. The fulfillments move to `processing`, then `shipped` at " +
    "pickup and `delivered` at delivery. Status `created`; emits `shipment.created`.",
  request: { body: jsonBody(CreateShipmentSchema) },
  responses: { 201: jsonContent(ShipmentSchema, "The shipment.") },
});

const cancelRoute = merchantRoute({
  method: "post",
  path: `${MEMBER}cancel/`,
  operationId: "cancelShipment",
  summary: "Cancel Shipment",
  tags,
  specId: "MH5",
  permission: "can_write_shipment",
  errors: { 404: ["shipment_not_found"], 409: ["invalid_state_transition", "carrier_error", "concurrent_update"] },
  description:
    "Cancels a shipment before pickup (`created` or `label_purchased`); after pickup 409 " +
    "`invalid_state_transition`. Its fulfillments leave it and can be shipped again. Emits `shipment.cancelled`. " +
    "A purchased label is voided (its PDF marked VOID) and its cost credited back to the store wallet, " +
    "linked to the order, unless the carrier keeps the charge (a custom courier's always comes back); emits " +
    "`shipment.label_voided` with the `refund` and the wallet's balance.",
  request: { params: param },
  responses: { 200: jsonContent(ShipmentSchema, "The cancelled shipment.") },
});

const returnRoute = merchantRoute({
  method: "post",
  path: `${MEMBER}return/`,
  operationId: "createReturnShipment",
  summary: "Create Return Shipment",
  tags,
  specId: "MH6",
  permission: "can_write_shipment",
  errors: {
    404: ["shipment_not_found", "courier_not_found"],
    409: ["shipment_not_returnable", "courier_unavailable", "carrier_error"],
  },
  description:
    "A new shipment in the other direction (`direction: return`, `return_of_id`) for fulfillments of a " +
    "delivered forward shipment (default: all), each returned once. Its `return_status` is `requested` until " +
    "it is delivered back (`received`), which lets a refund of those lines through. Emits `shipment.return_created`.",
  request: { params: param, body: jsonBody(CreateReturnShipmentSchema) },
  responses: { 201: jsonContent(ShipmentSchema, "The return shipment.") },
});

const statusRoute = merchantRoute({
  method: "post",
  path: `${MEMBER}status/`,
  operationId: "updateShipmentStatus",
  summary: "Update Shipment Status",
  tags,
  beyondSpec: "A custom courier is the merchant's own delivery: no carrier reports its status, the merchant does.",
  permission: "can_write_shipment",
  errors: {
    404: ["shipment_not_found"],
    409: ["invalid_state_transition", "courier_not_custom", "concurrent_update"],
  },
  description:
    "Moves a custom courier's shipment along the state machine (`picked_up`, `in_transit`, " +
    "`out_for_delivery`, `delivered`, `failed_attempt`, `exception`, `returned_to_sender`); an illegal move " +
    "is 409 with `allowed_actions`. An integrated carrier's shipment moves only by its signed webhook (409).",
  request: { params: param, body: jsonBody(UpdateShipmentStatusSchema) },
  responses: { 200: jsonContent(ShipmentSchema, "The shipment as it is now.") },
});

export const shipmentsRouter = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(envelopeOf(c, await listShipments(serviceContext(c), listQueryOf(c, SHIPMENT_LIST))), 200),
  )
  .openapi(createRoute, async (c) => c.json(await createShipment(serviceContext(c), c.env, c.req.valid("json")), 201))
  .openapi(detailsRoute, async (c) =>
    c.json(await shipmentDetails(serviceContext(c), c.req.valid("param").shipment_id), 200),
  )
  .openapi(cancelRoute, async (c) =>
    c.json(await cancelShipment(serviceContext(c), c.env, c.req.valid("param").shipment_id), 200),
  )
  .openapi(returnRoute, async (c) =>
    c.json(
      await createReturnShipment(serviceContext(c), c.env, c.req.valid("param").shipment_id, c.req.valid("json")),
      201,
    ),
  )
  .openapi(statusRoute, async (c) =>
    c.json(
      await reportShipmentStatus(serviceContext(c), c.env, c.req.valid("param").shipment_id, c.req.valid("json")),
      200,
    ),
  );
