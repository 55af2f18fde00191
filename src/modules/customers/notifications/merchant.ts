import type { Context } from "hono";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { enforceRateLimit, RATE_LIMITS } from "../../../core/rate-limit";
import { merchantRoute } from "../../../core/routes";
import type { AppEnv } from "../../../env";
import {
  NotificationListSchema,
  NotificationSchema,
  SendNotificationResultSchema,
  SendNotificationSchema,
} from "./schemas";
import { getNotification, listNotifications, NOTIFICATION_LIST, sendNotification } from "./service";

const tags = ["Notifications"];
const BASE = "/merchant/notifications/";

export const sendNotificationRoute = merchantRoute({
  method: "post",
  path: `${BASE}send/`,
  operationId: "sendNotification",
  summary: "Send Notification",
  tags,
  specId: "MN1",
  permission: "can_write_order",
  description:
    "Sends a bilingual notification to customers of the store: `customer_ids` (one customer or up to " +
    '1000; an id that is not the store\'s customer is a 400 naming it), or a `segment` (`"all"`, or ' +
    '`{"city_id": 1}` for the customers whose current city it is). Each recipient gets it in the ' +
    "app's received notifications and as a push to each of their devices, in their language; `data` " +
    "travels with the push (strings only). Answers 202 at once: the sending runs in the background, " +
    "in batches; follow it with Notification Details. At most 10 sends a minute per store (429).",
  request: { body: jsonBody(SendNotificationSchema) },
  responses: { 202: jsonContent(SendNotificationResultSchema, "Queued: the recipients are being notified.") },
});

export const listNotificationsRoute = merchantRoute({
  method: "get",
  path: BASE,
  operationId: "listNotifications",
  summary: "List Notifications",
  tags,
  beyondSpec: "Send Notification answers 202; the merchant follows the sending here.",
  permission: "can_read_order",
  description: "The notifications the store sent, newest first, with their status and push counters.",
  request: { query: listQuerySchema(NOTIFICATION_LIST) },
  responses: { 200: jsonContent(NotificationListSchema, "A page of notifications.") },
});

export const getNotificationRoute = merchantRoute({
  method: "get",
  path: `${BASE}{notification_id}/`,
  operationId: "getNotification",
  summary: "Notification Details",
  tags,
  beyondSpec: "Send Notification answers 202; the merchant follows one sending here.",
  permission: "can_read_order",
  description: "One notification the store sent: its texts, audience, status and push counters.",
  request: { params: idParam("notification_id") },
  errors: { 404: ["notification_not_found"] },
  responses: { 200: jsonContent(NotificationSchema, "The notification.") },
});

/** At most 10 Send Notification a minute per store: each may reach every customer. */
async function limitSends(c: Context<AppEnv>) {
  await enforceRateLimit(
    c,
    RATE_LIMITS.notify,
    `notify:${c.get("appId")}`,
    "At most 10 notifications a minute per store; retry after `Retry-After` seconds.",
  );
}

export const notificationsMerchantRouter = createRouter()
  .openapi(sendNotificationRoute, async (c) => {
    await limitSends(c);
    return c.json(await sendNotification(serviceContext(c), c.req.valid("json")), 202);
  })
  .openapi(listNotificationsRoute, async (c) =>
    c.json(envelopeOf(c, await listNotifications(serviceContext(c), listQueryOf(c, NOTIFICATION_LIST))), 200),
  )
  .openapi(getNotificationRoute, async (c) =>
    c.json(await getNotification(serviceContext(c), c.req.valid("param").notification_id), 200),
  );
