import { z } from "@hono/zod-openapi";
import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQuerySchema, parseListQuery } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { ReadAllResultSchema, ReceivedNotificationListSchema, ReceivedNotificationSchema } from "./schemas";
import { listReceived, markAllRead, markRead, RECEIVED_LIST } from "./service";

const tags = ["Customer app: notifications"];
const BASE = "/notifications/";
const notFound = { 404: ["customer_not_found"] } as const;

const receivedQuery = listQuerySchema(RECEIVED_LIST).extend({
  is_read: z
    .enum(["true", "false"])
    .optional()
    .openapi({ type: "boolean", description: "`false`: only the unread ones; `true`: only the read ones." }),
});

export const listReceivedNotificationsRoute = customerRoute({
  method: "get",
  path: BASE,
  operationId: "listReceivedNotifications",
  summary: "List Received Notifications",
  tags,
  specId: "CA9",
  description: "The notifications the store sent to the customer, newest first; `is_read=false` for the unread ones.",
  request: { query: receivedQuery },
  errors: notFound,
  responses: { 200: jsonContent(ReceivedNotificationListSchema, "A page of the customer's notifications.") },
});

export const readNotificationRoute = customerRoute({
  method: "post",
  path: `${BASE}{notification_id}/read/`,
  operationId: "readNotification",
  summary: "Mark Notification Read",
  tags,
  specId: "CA9",
  description:
    "Marks one of the customer's received notifications read (its `id` in the list); reading it again " +
    "changes nothing and keeps the first `read_at`.",
  request: { params: idParam("notification_id") },
  errors: { 404: ["customer_not_found", "notification_not_found"] },
  responses: { 200: jsonContent(ReceivedNotificationSchema, "The notification, read.") },
});

export const readAllNotificationsRoute = customerRoute({
  method: "post",
  path: `${BASE}read-all/`,
  operationId: "readAllNotifications",
  summary: "Mark All Notifications Read",
  tags,
  beyondSpec: "Clears the app's unread badge in one call instead of one per notification.",
  description: "Marks every unread notification of the customer read.",
  errors: notFound,
  responses: { 200: jsonContent(ReadAllResultSchema, "How many were marked read.") },
});

export const notificationsCustomerRouter = createRouter()
  .openapi(listReceivedNotificationsRoute, async (c) => {
    // `is_read` is this list's own filter; the other parameters are the standard list's.
    const params = new URL(c.req.url).searchParams;
    params.delete("is_read");
    const isRead = c.req.valid("query").is_read;
    const page = await listReceived(
      serviceContext(c),
      customerOf(c).customerId,
      parseListQuery(params, RECEIVED_LIST),
      isRead === undefined ? undefined : isRead === "true",
    );
    return c.json(envelopeOf(c, page), 200);
  })
  .openapi(readAllNotificationsRoute, async (c) =>
    c.json(await markAllRead(serviceContext(c), customerOf(c).customerId), 200),
  )
  .openapi(readNotificationRoute, async (c) =>
    c.json(await markRead(serviceContext(c), customerOf(c).customerId, c.req.valid("param").notification_id), 200),
  );
