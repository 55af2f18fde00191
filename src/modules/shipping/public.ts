import { ApiError } from "../../core/errors";
import { requireJsonBody } from "../../core/middleware";
import { createRoute, createRouter, jsonContent, problemResponsesFor, z } from "../../core/openapi";
import { CarrierWebhookAnswerSchema } from "./shipments/schemas";
import { receiveCarrierWebhook } from "./shipments/webhooks";

const webhookRoute = createRoute({
  method: "post",
  path: "/shipments/webhooks/{carrier}/",
  operationId: "carrierWebhook",
  summary: "Carrier Webhook",
  tags: ["Shipments"],
  security: [],
  middleware: [requireJsonBody()] as const,
  "x-beyond-spec":
    "Integrated carriers report shipment statuses here, at a URL naming the store (the fake carrier: signed callbacks).",
  "x-audience": "public",
  description:
    "A carrier's status updates, normalised to the shipment statuses and applied through the state machine, " +
    "each with a history row and `shipment.status_changed` (and `shipment.delivered`), to the shipments of the " +
    "store the `app_id` query parameter names. Public: no token and no `app-id` header; the request is verified " +
    "by the carrier's signature, which covers the store (the fake carrier: `X-Fake-Carrier-Signature`, " +
    "HMAC-SHA256 under the link-signing secret of `fake-carrier-webhook`, `app_id`, `X-Fake-Carrier-Timestamp` " +
    "and the body, joined by newlines, base64url; at most 5 minutes old). Unsigned or wrongly signed (another " +
    "store's callback among them): 400, nothing changes. An update the machine refuses is answered in " +
    "`ignored` with its reason.",
  request: {
    params: z.object({
      carrier: z
        .string()
        .regex(/^[a-z0-9_]{1,40}$/)
        .openapi({ example: "fake" }),
    }),
    query: z.object({
      app_id: z
        .string()
        .regex(/^[1-9]\d{0,15}$/, "The store's id: a positive integer.")
        .openapi({ description: "The store whose shipments the updates are about.", example: "1" }),
    }),
  },
  responses: {
    200: jsonContent(CarrierWebhookAnswerSchema, "The updates were received."),
    ...problemResponsesFor({
      400: ["validation_error", "webhook_signature_invalid"],
      404: ["route_not_found"],
      413: ["payload_too_large"],
      415: ["unsupported_media_type"],
      500: ["internal_error"],
    }),
  },
});

/** Routes without a token (under /order/v1): the carriers' webhooks. */
export const shippingPublicRouter = createRouter().openapi(webhookRoute, async (c) => {
  const body = await c.req.text();
  if (body.length > 256 * 1024)
    throw new ApiError(413, "payload_too_large", "The webhook body is larger than 256 KiB.");
  const result = await receiveCarrierWebhook(
    { db: c.get("db"), env: c.env, waitUntil: (p) => c.executionCtx.waitUntil(p) },
    c.req.valid("param").carrier,
    // db/session.ts ran the request on this store's shard.
    { appId: Number(c.req.valid("query").app_id), body, headers: c.req.raw.headers },
  );
  return c.json(result, 200);
});
