import type { Context } from "hono";
import { serviceContext } from "../../../core/context";
import { listQueryWith } from "../../../core/list-query-with";
import { envelopeOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent, z } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import type { AppEnv } from "../../../env";
import type { ConnectionAction } from "./machine";
import {
  ConnectionRequestListSchema,
  ConnectionRequestSchema,
  DIRECTIONS,
  SendConnectionRequestSchema,
} from "./schemas";
import {
  type Actor,
  actOnConnection,
  CONNECTION_LIST,
  getConnectionRequest,
  listConnectionRequests,
  sendConnectionRequest,
} from "./service";

const tags = ["Sales channel connections"];
const BASE = "/sales-channels/connection-requests/";
const ONE = `${BASE}{connection_request_id}/`;
const param = idParam("connection_request_id");
const DIRECTION = "direction";

const STATES =
  "States: `pending` → `active` (accept) or `rejected` (reject, final: a new request may then be sent); " +
  "`active` ⇄ `inactive` (deactivate, activate); any but `pending` may be deleted.";
const EVENTS = "Its event goes to both stores (one each, with that store's `app_id`).";

export const listConnectionRequestsRoute = merchantRoute({
  tags,
  specId: "MX6",
  method: "get",
  path: BASE,
  operationId: "listConnectionRequests",
  summary: "List Connection Requests",
  permission: "can_read_sales_channels",
  description:
    "The connection requests this store sent (`direction=outgoing`) or received (`incoming`), as a channel or " +
    "as a provider, newest first; deleted ones are gone for both stores. Filters on `status`, the stores and " +
    "the dates.",
  request: {
    query: listQuerySchema(CONNECTION_LIST).extend({
      [DIRECTION]: z
        .unknown()
        .optional()
        .openapi({ type: "string", enum: [...DIRECTIONS], description: "Only those sent, or only those received." }),
    }),
  },
  responses: { 200: jsonContent(ConnectionRequestListSchema, "A page of connection requests.") },
});

export const sendConnectionRequestRoute = merchantRoute({
  tags,
  specId: "MX6",
  method: "post",
  path: BASE,
  operationId: "sendConnectionRequest",
  summary: "Send Connection Request",
  permission: "can_write_sales_channels",
  description:
    "Asks another store to connect: with `provider_app_id` this store is the channel (it wants to sell the " +
    "provider's plans), with `channel_app_id` it is the provider. The other store must exist, and the two may " +
    "have one pending, active or inactive connection in these roles at a time. The request is `pending` until " +
    `the receiving store accepts or rejects it. Emits \`sales_channel.connection_requested\`. ${EVENTS}`,
  request: { body: jsonBody(SendConnectionRequestSchema) },
  errors: { 409: ["connection_to_self", "connection_already_exists"] },
  responses: { 201: jsonContent(ConnectionRequestSchema, "The request, pending.") },
});

export const getConnectionRequestRoute = merchantRoute({
  tags,
  specId: "MX6",
  method: "get",
  path: ONE,
  operationId: "getConnectionRequest",
  summary: "Connection Request Details",
  permission: "can_read_sales_channels",
  description: "One connection request this store sent or received.",
  request: { params: param },
  errors: { 404: ["connection_request_not_found"] },
  responses: { 200: jsonContent(ConnectionRequestSchema, "The connection request.") },
});

const ACTIONS = {
  accept: {
    event: "sales_channel.connection_accepted",
    operationId: "acceptConnectionRequest",
    summary: "Accept Connection Request",
    description:
      "The receiving store accepts a `pending` request: the connection is `active`, and the channel may list " +
      "the provider's marketplace plans. The sender gets a 403.",
    forbidden: ["not_connection_receiver"],
  },
  reject: {
    event: "sales_channel.connection_rejected",
    operationId: "rejectConnectionRequest",
    summary: "Reject Connection Request",
    description: "The receiving store rejects a `pending` request (final). The sender gets a 403.",
    forbidden: ["not_connection_receiver"],
  },
  activate: {
    event: "sales_channel.connection_activated",
    operationId: "activateConnectionRequest",
    summary: "Activate Connection",
    description:
      "Makes an `inactive` connection `active` again: only the store that deactivated it may (a 403 for the other).",
    forbidden: ["connection_deactivated_by_other_store"],
  },
  deactivate: {
    event: "sales_channel.connection_deactivated",
    operationId: "deactivateConnectionRequest",
    summary: "Deactivate Connection",
    description:
      "Either store pauses an `active` connection: the channel no longer sees the provider's plans, and its " +
      "listings of them are hidden (kept, shown again once it is active).",
    forbidden: [],
  },
} as const;

type PostAction = keyof typeof ACTIONS;

const actionRoute = <A extends PostAction>(action: A) => {
  const a = ACTIONS[action];
  return merchantRoute({
    tags,
    specId: "MX6",
    method: "post",
    path: `${ONE}${action}/`,
    operationId: a.operationId,
    summary: a.summary,
    permission: "can_write_sales_channels",
    description: `${a.description} Another status is a 409 \`invalid_state_transition\` naming \`current_status\` and \`allowed_actions\`. ${STATES} Emits \`${a.event}\`. ${EVENTS}`,
    request: { params: param },
    errors: {
      ...(a.forbidden.length && { 403: a.forbidden }),
      404: ["connection_request_not_found"],
      409: ["invalid_state_transition", "concurrent_update"],
    },
    responses: { 200: jsonContent(ConnectionRequestSchema, "The connection request after the action.") },
  });
};

export const deleteConnectionRequestRoute = merchantRoute({
  tags,
  specId: "MX6",
  method: "delete",
  path: ONE,
  operationId: "deleteConnectionRequest",
  summary: "Delete Connection Request",
  permission: "can_write_sales_channels",
  description:
    "Either store deletes a connection that is not `pending` (a pending one is accepted or rejected): a soft " +
    "delete, after which neither store sees it, the channel's listings of the provider's plans are hidden, and " +
    "a new request may be sent. A `pending` one is a 409 `invalid_state_transition`. Emits " +
    `\`sales_channel.connection_deleted\`. ${EVENTS}`,
  request: { params: param },
  errors: { 404: ["connection_request_not_found"], 409: ["invalid_state_transition", "concurrent_update"] },
  responses: { 204: { description: "Deleted." } },
});

/** The store and token acting (a merchant route's principal is a merchant's). */
function actorOf(c: Context<AppEnv>): Actor {
  const p = c.get("principal");
  return { appId: c.get("appId"), tokenId: p.kind === "merchant" ? p.tokenId : null };
}

const isDirection = (raw: string) => (DIRECTIONS as readonly string[]).includes(raw);

/** MX6: connection requests, sent and received. */
export const connectionRequestsRouter = createRouter()
  .openapi(listConnectionRequestsRoute, async (c) => {
    const { q, value } = listQueryWith(c, CONNECTION_LIST, DIRECTION, {
      required: false,
      parse: (raw) => (isDirection(raw) ? (raw as (typeof DIRECTIONS)[number]) : undefined),
      expected: `one of: ${DIRECTIONS.join(", ")}`,
    });
    return c.json(envelopeOf(c, await listConnectionRequests(c.env, serviceContext(c), q, value)), 200);
  })
  .openapi(sendConnectionRequestRoute, async (c) =>
    c.json(await sendConnectionRequest(c.env, serviceContext(c), c.req.valid("json")), 201),
  )
  .openapi(getConnectionRequestRoute, async (c) =>
    c.json(await getConnectionRequest(c.env, serviceContext(c), c.req.valid("param").connection_request_id), 200),
  )
  .openapi(deleteConnectionRequestRoute, async (c) => {
    await actOnConnection(c.env, serviceContext(c), c.req.valid("param").connection_request_id, "delete", actorOf(c));
    return c.body(null, 204);
  });

for (const action of Object.keys(ACTIONS) as PostAction[]) {
  connectionRequestsRouter.openapi(actionRoute(action), async (c) => {
    const id = c.req.valid("param").connection_request_id;
    const out = await actOnConnection(c.env, serviceContext(c), id, action as ConnectionAction, actorOf(c));
    return c.json(out!, 200);
  });
}
