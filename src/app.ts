import { swaggerUI } from "@hono/swagger-ui";
import { sql } from "drizzle-orm";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { getPath } from "hono/utils/url";
import { ApiError, renderProblem } from "./core/errors";
import { requireJsonBody } from "./core/middleware";
import { createRoute, createRouter, jsonContent, problemResponses, z } from "./core/openapi";
import { BOOKMARK_HEADER, dbSession } from "./db/client";
import { EVENT_CATALOGUE, type EventType, eventEnvelopeSchema } from "./events/catalogue";
import { catalogueMerchantRouter } from "./modules/items/merchant";
import { mealsMerchantRouter } from "./modules/meals/merchant";
import { plansPublicRouter, restaurantsPublicRouter } from "./modules/meals/public";
import { ticketsMerchantRouter } from "./modules/tickets/merchant";
import { webhooksMerchantRouter } from "./modules/webhooks/merchant";

/** Where each family is mounted: the one place that knows the prefixes. */
export const PREFIXES = {
  /** Merchant operations, including the spec's relative paths of section 4.8. */
  merchant: "/order/v1",
  customer: "/customer-api/v1",
  publicApi: "/public-api/v1",
  api: "/api/v1",
} as const;

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Commerce and Meals API",
    version: "1.0.0",
    description:
      "Multi-tenant commerce and meal-subscription API. Every request names its store with the `app-id` header. Errors are RFC 9457 problem details (`application/problem+json`).",
  },
};

export const BODY_LIMIT_BYTES = 1024 * 1024;

const healthRoute = createRoute({
  method: "get",
  path: "/health",
  operationId: "health",
  summary: "Health",
  tags: ["Meta"],
  description: "Liveness and D1 reachability. Needs no token and no `app-id`.",
  security: [],
  responses: {
    200: jsonContent(z.object({ status: z.literal("ok") }).openapi("Health"), "The Worker and its database answer."),
    ...problemResponses(500),
  },
});

/** Paths served without a trailing slash; every other path is the spec's, with its slash. */
const SLASHLESS = new Set(["/health", "/openapi.json", "/docs"]);

/** Serves `/x` as `/x/`: the spec's paths end with a slash and clients often drop it. */
function pathWithSlash(req: Request): string {
  const path = getPath(req);
  return path.endsWith("/") || SLASHLESS.has(path) ? path : `${path}/`;
}

export function createApp() {
  const app = createRouter({ getPath: pathWithSlash });

  app.use(requestId({ headerName: "X-Request-Id" }));
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        renderProblem(
          new ApiError(
            405,
            "method_not_allowed",
            `${c.req.method} is not allowed here. Allowed: ${methods.join(", ")}.`,
            { headers: { Allow: methods.join(", ") } },
          ),
          c,
        ),
    }),
  );
  app.use(secureHeaders({ crossOriginResourcePolicy: "cross-origin" }));
  app.use(
    cors({
      origin: "*",
      allowHeaders: [
        "Authorization",
        "Content-Type",
        "app-id",
        "org-id",
        "Idempotency-Key",
        "If-None-Match",
        BOOKMARK_HEADER,
      ],
      allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      exposeHeaders: ["X-Request-Id", "ETag", "Retry-After", "Allow", BOOKMARK_HEADER],
      maxAge: 86400,
    }),
  );
  app.use(
    bodyLimit({
      maxSize: BODY_LIMIT_BYTES,
      onError: () => {
        throw new ApiError(413, "payload_too_large", `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`);
      },
    }),
  );
  app.use(requireJsonBody());
  app.use(dbSession());

  app.route(PREFIXES.merchant, catalogueMerchantRouter);
  app.route(PREFIXES.merchant, ticketsMerchantRouter);
  app.route(PREFIXES.merchant, mealsMerchantRouter);
  app.route(PREFIXES.api, webhooksMerchantRouter);
  app.route(PREFIXES.api, restaurantsPublicRouter);
  app.route(PREFIXES.publicApi, plansPublicRouter);

  app.openapi(healthRoute, async (c) => {
    await c.get("db").run(sql`SELECT 1`);
    return c.json({ status: "ok" as const }, 200);
  });

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A merchant API token (`cmk_…`), with the permissions each operation names.",
  });
  for (const type of Object.keys(EVENT_CATALOGUE) as EventType[]) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `event.${type}`,
      summary: type,
      description: `${EVENT_CATALOGUE[type].description} Signed per Standard Webhooks: headers \`webhook-id\` (stable across retries), \`webhook-timestamp\`, \`webhook-signature\`.`,
      tags: ["Events"],
      request: { body: { content: { "application/json": { schema: eventEnvelopeSchema(type) } } } },
      responses: {
        200: { description: "Any 2xx acknowledges the delivery; 410 disables the webhook; anything else is retried." },
      },
    });
  }
  app.doc31("/openapi.json", (c) => ({ ...OPENAPI_INFO, servers: [{ url: new URL(c.req.url).origin }] }));
  app.get("/docs", swaggerUI({ url: "/openapi.json", title: "Commerce and Meals API" }));

  app.notFound((c) =>
    renderProblem(
      new ApiError(
        404,
        "route_not_found",
        `No operation at ${c.req.method} ${new URL(c.req.url).pathname}. See /docs.`,
      ),
      c,
    ),
  );
  app.onError((err, c) => renderProblem(err, c));
  return app;
}
