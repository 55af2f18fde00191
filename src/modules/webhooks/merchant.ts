import type { Context } from "hono";
import { serviceContext } from "../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../core/openapi";
import { enforceRateLimit, RATE_LIMITS } from "../../core/rate-limit";
import { merchantRoute } from "../../core/routes";
import type { AppEnv } from "../../env";
import { targetPolicy } from "./attempt";
import { webhookDeliveriesRouter } from "./deliveries";
import {
  CreateWebhookSchema,
  DeleteByUrlQuerySchema,
  DeletedSchema,
  UpdateWebhookSchema,
  WebhookListSchema,
  WebhookLogListSchema,
  WebhookLogSchema,
  WebhookSchema,
} from "./schemas";
import {
  createWebhook,
  deleteWebhook,
  deleteWebhooksByUrl,
  listWebhookLogs,
  listWebhooks,
  rotateSecret,
  testWebhook,
  updateWebhook,
  WEBHOOK_LIST,
  WEBHOOK_LOG_LIST,
} from "./service";

const tags = ["Webhooks"];
const BASE = "/dashboard/admin/integrations/webhooks";
const ONE = `${BASE}/{webhook_id}/`;
const webhookId = idParam("webhook_id");
const common = { tags, org: true } as const;

export const listWebhooksRoute = merchantRoute({
  ...common,
  method: "get",
  path: `${BASE}/`,
  operationId: "listWebhooks",
  summary: "List Webhooks",
  specId: "W2",
  permission: "can_retrieve_app_config",
  request: { query: listQuerySchema(WEBHOOK_LIST) },
  description:
    "`secret_key` is whole to tokens that may also update the configuration (`can_update_app_config`), " +
    "masked (`whsec_…abcd`) to tokens that may only read it.",
  responses: { 200: jsonContent(WebhookListSchema, "A page of the store's webhooks.") },
});

export const createWebhookRoute = merchantRoute({
  ...common,
  method: "post",
  path: `${BASE}/`,
  operationId: "createWebhook",
  summary: "Create Webhook",
  specId: "W3",
  permission: "can_update_app_config",
  description:
    "Subscribes an https URL on a public host to events. The service generates `secret_key`; " +
    "deliveries are signed with it (Standard Webhooks).",
  request: { body: jsonBody(CreateWebhookSchema) },
  responses: { 201: jsonContent(WebhookSchema, "The webhook, with its secret.") },
});

export const deleteWebhooksByUrlRoute = merchantRoute({
  ...common,
  method: "delete",
  path: `${BASE}/`,
  operationId: "deleteWebhooksByUrl",
  summary: "Delete Webhook By URL",
  specId: "W7",
  permission: "can_update_app_config",
  request: { query: DeleteByUrlQuerySchema },
  errors: { 404: ["webhook_not_found"] },
  responses: { 200: jsonContent(DeletedSchema, "How many webhooks were deleted.") },
});

export const listWebhookLogsRoute = merchantRoute({
  ...common,
  method: "get",
  path: `${BASE}/logs/`,
  operationId: "listWebhookLogs",
  summary: "List Webhook Logs",
  specId: "W5",
  permission: "can_retrieve_app_config",
  description:
    "Every delivery attempt, newest first: filter by `webhook`, `event`, `status`, `status_code`, `created_at`…",
  request: { query: listQuerySchema(WEBHOOK_LOG_LIST) },
  responses: { 200: jsonContent(WebhookLogListSchema, "A page of delivery attempts.") },
});

export const updateWebhookRoute = merchantRoute({
  ...common,
  method: "patch",
  path: ONE,
  operationId: "updateWebhook",
  summary: "Update Webhook Details",
  specId: "W1",
  permission: "can_update_app_config",
  request: { params: webhookId, body: jsonBody(UpdateWebhookSchema) },
  errors: { 404: ["webhook_not_found"] },
  responses: { 200: jsonContent(WebhookSchema, "The webhook, with its secret.") },
});

export const deleteWebhookRoute = merchantRoute({
  ...common,
  method: "delete",
  path: ONE,
  operationId: "deleteWebhook",
  summary: "Delete Webhook",
  specId: "W4",
  permission: "can_update_app_config",
  request: { params: webhookId },
  errors: { 404: ["webhook_not_found"] },
  responses: { 204: { description: "Deleted." } },
});

export const testWebhookRoute = merchantRoute({
  ...common,
  method: "post",
  path: `${ONE}test/`,
  operationId: "testWebhook",
  summary: "Test Webhook",
  specId: "W6",
  permission: "can_update_app_config",
  description:
    "Sends a signed `webhook.test` event now, through the same sender as deliveries, and " +
    "returns the attempt (not retried). At most 10 a minute per webhook.",
  request: { params: webhookId },
  errors: { 404: ["webhook_not_found"], 429: ["rate_limited"] },
  responses: {
    200: jsonContent(WebhookLogSchema, "The attempt: its status code, duration, response and outcome."),
  },
});

export const rotateWebhookSecretRoute = merchantRoute({
  ...common,
  method: "post",
  path: `${ONE}rotate-secret/`,
  operationId: "rotateWebhookSecret",
  summary: "Rotate Webhook Secret",
  specId: "W1",
  permission: "can_update_app_config",
  description:
    "Generates a new `secret_key`. For 24 hours deliveries carry two signatures, with the new " +
    "and the previous secret, so that receivers can switch without losing any.",
  request: { params: webhookId },
  errors: { 404: ["webhook_not_found"] },
  responses: { 200: jsonContent(WebhookSchema, "The webhook, with its new secret.") },
});

/** Only who may change a webhook sees its whole secret: with it, a reader could forge deliveries. */
function secretFor(c: Context<AppEnv>): "reveal" | "mask" {
  const p = c.get("principal");
  return p.kind === "merchant" && p.permissions.has("can_update_app_config") ? "reveal" : "mask";
}

async function limitTests(c: Context<AppEnv>, id: number) {
  await enforceRateLimit(
    c,
    RATE_LIMITS.testWebhook,
    `webhook:${c.get("appId")}:${id}`,
    "At most 10 tests a minute per webhook; retry after `Retry-After` seconds.",
  );
}

export const webhooksMerchantRouter = createRouter()
  // Its fixed paths (`deliveries/…`) come before `{webhook_id}/`.
  .route("/", webhookDeliveriesRouter)
  .openapi(listWebhooksRoute, async (c) =>
    c.json(envelopeOf(c, await listWebhooks(serviceContext(c), listQueryOf(c, WEBHOOK_LIST), secretFor(c))), 200),
  )
  .openapi(createWebhookRoute, async (c) =>
    c.json(await createWebhook(serviceContext(c), c.req.valid("json"), targetPolicy(c.env)), 201),
  )
  .openapi(deleteWebhooksByUrlRoute, async (c) =>
    c.json({ deleted: await deleteWebhooksByUrl(serviceContext(c), c.req.valid("query").url) }, 200),
  )
  .openapi(listWebhookLogsRoute, async (c) =>
    c.json(envelopeOf(c, await listWebhookLogs(serviceContext(c), listQueryOf(c, WEBHOOK_LOG_LIST))), 200),
  )
  .openapi(updateWebhookRoute, async (c) =>
    c.json(
      await updateWebhook(serviceContext(c), c.req.valid("param").webhook_id, c.req.valid("json"), targetPolicy(c.env)),
      200,
    ),
  )
  .openapi(deleteWebhookRoute, async (c) => {
    await deleteWebhook(serviceContext(c), c.req.valid("param").webhook_id);
    return c.body(null, 204);
  })
  .openapi(testWebhookRoute, async (c) => {
    const id = c.req.valid("param").webhook_id;
    await limitTests(c, id);
    return c.json(await testWebhook(serviceContext(c), id, targetPolicy(c.env)), 200);
  })
  .openapi(rotateWebhookSecretRoute, async (c) =>
    c.json(await rotateSecret(serviceContext(c), c.req.valid("param").webhook_id), 200),
  );
