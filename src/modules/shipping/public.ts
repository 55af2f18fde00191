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
  "x-beyond-spec": "Integrated carriers report shipment statuses here (the fake carrier: signed callbacks).",
  "x-audience": "public",
  description:
    "A carrier's status updates, normalised to the shipment statuses and applied through the state machine, " +
    "each with a history row and `shipment.status_changed` (and `shipment.delivered`). Public: no token and no " +
    "`app-id`; the request is verified by the carrier's signature (the fake carrier: `X-Fake-Carrier-Signature`, " +
    "HMAC-SHA256 under the link-signing secret of `fake-carrier-webhook`, `X-Fake-Carrier-Timestamp` and the " +
    "body, joined by newlines, base64url; at most 5 minutes old). Unsigned or wrongly signed: 400, nothing " +
    "changes. An update the machine refuses is answered in `ignored` with its reason.",
  request: {
    params: z.object({
      carrier: z
        .string()
        .regex(/^[a-z0-9_]{1,40}$/)
        .openapi({ example: "fake" }),
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
    { body, headers: c.req.raw.headers },
  );
  return c.json(result, 200);
});
