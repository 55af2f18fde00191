import type { Context } from "hono";
import { serviceContext } from "../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../core/openapi";
import { enforceRateLimit, RATE_LIMITS } from "../../core/rate-limit";
import { merchantRoute } from "../../core/routes";
import type { AppEnv } from "../../env";
import { parseDeliveryId } from "./ledger";
import { lanesOf } from "./messages";
import { DELIVERY_LIST, listDeliveries, RECOVER_MAX, recoverWebhook, resendDelivery } from "./replay";
import {
  deliveryIdParam,
  RecoveredSchema,
  RecoverWebhookSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
} from "./schemas";

const tags = ["Webhooks"];
const BASE = "/dashboard/admin/integrations/webhooks";
const common = { tags, org: true } as const;
const WHY =
  "The spec has no delivery ledger: these let a merchant see how every delivery ended and re-send " +
  "what a receiver missed, as Svix and Stripe offer, since re-enabling a webhook replays nothing.";

export const listWebhookDeliveriesRoute = merchantRoute({
  ...common,
  method: "get",
  path: `${BASE}/deliveries/`,
  operationId: "listWebhookDeliveries",
  summary: "List Webhook Deliveries",
  beyondSpec: WHY,
  permission: "can_retrieve_app_config",
  description:
    "One row per event and subscribed webhook, newest first, with how it ended or when it is next " +
    "attempted: filter by `webhook`, `status` (`pending`, `retrying`, `delivered`, `failed`, `skipped`), " +
    "`event`, `event_id`, `created_at`…",
  request: { query: listQuerySchema(DELIVERY_LIST) },
  responses: { 200: jsonContent(WebhookDeliveryListSchema, "A page of deliveries.") },
});

export const resendWebhookDeliveryRoute = merchantRoute({
  ...common,
  method: "post",
  path: `${BASE}/deliveries/{delivery_id}/resend/`,
  operationId: "resendWebhookDelivery",
  summary: "Resend Webhook Delivery",
  beyondSpec: WHY,
  permission: "can_update_app_config",
  description:
    "Sends one delivery that ended (`delivered`, `failed` or `skipped`) again, with the same " +
    "`webhook-id`, on a fresh retry schedule. The webhook must be on. At most 10 resends and recovers " +
    "a minute per webhook.",
  request: { params: deliveryIdParam },
  errors: {
    404: ["delivery_not_found", "webhook_not_found"],
    409: ["webhook_inactive", "delivery_in_progress"],
    429: ["rate_limited"],
  },
  responses: { 202: jsonContent(WebhookDeliverySchema, "The delivery, `pending` again.") },
});

export const recoverWebhookRoute = merchantRoute({
  ...common,
  method: "post",
  path: `${BASE}/{webhook_id}/recover/`,
  operationId: "recoverWebhook",
  summary: "Recover Webhook Deliveries",
  beyondSpec: WHY,
  permission: "can_update_app_config",
  description:
    "Sends again the webhook's `failed` and `skipped` deliveries created since `since` (and before " +
    `\`until\`), oldest first, at most ${RECOVER_MAX.toLocaleString("en")} a call, each on a fresh retry ` +
    "schedule: after an outage, or after turning a webhook back on. The webhook must be on. At most 10 " +
    "resends and recovers a minute per webhook.",
  request: { params: idParam("webhook_id"), body: jsonBody(RecoverWebhookSchema) },
  errors: { 404: ["webhook_not_found"], 409: ["webhook_inactive"], 429: ["rate_limited"] },
  responses: { 202: jsonContent(RecoveredSchema, "How many deliveries were put back, and whether more remain.") },
});

/** Resend and Recover send at once: at most 10 of them a minute per webhook. */
async function limitReplays(c: Context<AppEnv>, webhookId: number) {
  await enforceRateLimit(
    c,
    RATE_LIMITS.webhookReplay,
    `webhook:${c.get("appId")}:${webhookId}`,
    "At most 10 resends and recovers a minute per webhook; retry after `Retry-After` seconds.",
  );
}

export const webhookDeliveriesRouter = createRouter()
  .openapi(listWebhookDeliveriesRoute, async (c) =>
    c.json(envelopeOf(c, await listDeliveries(serviceContext(c), listQueryOf(c, DELIVERY_LIST))), 200),
  )
  .openapi(resendWebhookDeliveryRoute, async (c) => {
    const id = c.req.valid("param").delivery_id;
    await limitReplays(c, parseDeliveryId(id)?.webhookId ?? 0);
    return c.json(await resendDelivery(serviceContext(c), lanesOf(c.env), id), 202);
  })
  .openapi(recoverWebhookRoute, async (c) => {
    const id = c.req.valid("param").webhook_id;
    await limitReplays(c, id);
    return c.json(await recoverWebhook(serviceContext(c), lanesOf(c.env), id, c.req.valid("json")), 202);
  });
