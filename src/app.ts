import { sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { getPath } from "hono/utils/url";
import { checkCustomerStanding } from "./core/auth";
import { DOCS_CSP, docsPage } from "./core/docs";
import { API_TAGS, apiDescription } from "./core/document";
import { ApiError, CORE_ERROR_CODES, type ErrorCode, renderProblem } from "./core/errors";
import type { EventType } from "./core/events/registry";
import { requestLog } from "./core/logging";
import { createRoute, createRouter, jsonContent, problemResponsesFor, z } from "./core/openapi";
import { methodRouting } from "./core/routing";
import { BOOKMARK_HEADER, dbSession } from "./db/client";
import type { AppEnv } from "./env";
import { accountErrorCodes, accountMerchantRouter } from "./modules/account";
import {
  customerAccountRouter,
  customerErrorCodes,
  customerStanding,
  customersMerchantRouter,
} from "./modules/customers";
import { catalogueCustomerRouter, catalogueMerchantRouter, itemErrorCodes } from "./modules/items";
import {
  mealOrderErrorCodes,
  mealOrdersCustomerRouter,
  mealOrdersMerchantRouter,
  planPurchasesCustomerRouter,
} from "./modules/meal-orders";
import {
  mealErrorCodes,
  mealsMerchantRouter,
  plansPublicRouter,
  plansV3PublicRouter,
  restaurantsPublicRouter,
} from "./modules/meals";
import { orderErrorCodes, ordersCustomerRouter, ordersMerchantRouter, ordersPublicRouter } from "./modules/orders";
import { salesChannelErrorCodes, salesChannelsMerchantRouter } from "./modules/sales-channels";
import {
  shippingCustomerRouter,
  shippingErrorCodes,
  shippingMerchantRouter,
  shippingPublicRouter,
} from "./modules/shipping";
import { ticketErrorCodes, ticketsMerchantRouter } from "./modules/tickets";
import { voucherErrorCodes, vouchersCustomerRouter, vouchersMerchantRouter } from "./modules/vouchers";
import { EVENT_CATALOGUE, eventEnvelopeSchema, webhookErrorCodes, webhooksMerchantRouter } from "./modules/webhooks";

/** Where each family is mounted: the one place that knows the prefixes. */
export const PREFIXES = {
  /** Merchant operations, including the spec's relative paths of section 4.8. */
  merchant: "/order/v1",
  /** The customer app's account: register, OTP login, tokens, profile, locations, notifications. */
  /** The customer app's commerce: carts, checkout, orders (told from the merchant's by `/merchant/`). */
  customerCommerce: "/order/v1",
  customerAccount: "/api/v1/customer",
  publicApi: "/public-api/v1",
  api: "/api/v1",
  /** Plans v3 of the meals app (MM4): the spec names the version. */
  apiV3: "/api/v3",
} as const;

/**
 * Every problem `code` with what it means: core's and each module's. `satisfies` makes a code
 * added to the typed union without its meaning here a compile error.
 */
export const ERROR_CODES = {
  ...CORE_ERROR_CODES,
  ...ticketErrorCodes,
  ...itemErrorCodes,
  ...mealErrorCodes,
  ...webhookErrorCodes,
  ...customerErrorCodes,
  ...accountErrorCodes,
  ...voucherErrorCodes,
  ...orderErrorCodes,
  ...shippingErrorCodes,
  ...mealOrderErrorCodes,
  ...salesChannelErrorCodes,
} satisfies Record<ErrorCode, string>;

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Commerce and Meals API",
    version: "1.0.0",
    description: apiDescription(ERROR_CODES),
  },
  tags: API_TAGS,
  /** The same codes, for tools: code → meaning. */
  "x-error-codes": ERROR_CODES,
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
    ...problemResponsesFor({ 500: ["internal_error"] }),
  },
});

/** Paths served without a trailing slash; every other path is the spec's, with its slash. */
const SLASHLESS = new Set(["/health", "/openapi.json", "/docs"]);

/** Serves `/x` as `/x/`: the spec's paths end with a slash and clients often drop it. */
function pathWithSlash(req: Request): string {
  const path = getPath(req);
  return path.endsWith("/") || SLASHLESS.has(path) ? path : `${path}/`;
}

/** The app-wide middleware, by name: `npm run bench` measures what each costs a public read. */
export const APP_MIDDLEWARE = [
  "requestId",
  "requestLog",
  "methodNotAllowed",
  "secureHeaders",
  "cors",
  "fixedPaths",
  "bodyLimit",
  "dbSession",
] as const;
export type AppMiddleware = (typeof APP_MIDDLEWARE)[number];

/** `without`: for the benchmark only, the app without some of its middleware. */
export function createApp(opts: { without?: readonly AppMiddleware[] } = {}) {
  const app = createRouter({ getPath: pathWithSlash });
  // The auth path asks the customers module whether an access token's customer is still live and unblocked.
  checkCustomerStanding(customerStanding);
  const use = (name: AppMiddleware, mw: MiddlewareHandler<AppEnv>) => {
    if (!opts.without?.includes(name)) app.use(mw);
  };

  // The CORS middleware below answers OPTIONS on every path, so every 405's `Allow` names it too.
  const routing = methodRouting({ app, alwaysAllowed: ["OPTIONS"] });
  use("requestId", requestId({ headerName: "X-Request-Id" }));
  use("requestLog", requestLog());
  use("methodNotAllowed", methodNotAllowed({ app, onMethodNotAllowed: routing.onMethodNotAllowed }));
  use("secureHeaders", secureHeaders({ crossOriginResourcePolicy: "cross-origin" }));
  use(
    "cors",
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
      exposeHeaders: ["X-Request-Id", "ETag", "Retry-After", "Allow", "Idempotent-Replayed", BOOKMARK_HEADER],
      maxAge: 86400,
    }),
  );
  // After CORS (preflights are answered, a 405 carries CORS headers), before the body checks and auth.
  use("fixedPaths", routing.fixedPaths);
  use(
    "bodyLimit",
    bodyLimit({
      maxSize: BODY_LIMIT_BYTES,
      onError: () => {
        throw new ApiError(413, "payload_too_large", `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`);
      },
    }),
  );
  use("dbSession", dbSession());

  app.route(PREFIXES.merchant, catalogueMerchantRouter);
  app.route(PREFIXES.merchant, ticketsMerchantRouter);
  app.route(PREFIXES.merchant, mealsMerchantRouter);
  app.route(PREFIXES.merchant, customersMerchantRouter);
  app.route(PREFIXES.merchant, vouchersMerchantRouter);
  app.route(PREFIXES.merchant, ordersMerchantRouter);
  app.route(PREFIXES.merchant, shippingMerchantRouter);
  app.route(PREFIXES.customerCommerce, vouchersCustomerRouter);
  app.route(PREFIXES.customerCommerce, ordersCustomerRouter);
  app.route(PREFIXES.customerCommerce, ordersPublicRouter);
  app.route(PREFIXES.customerCommerce, shippingCustomerRouter);
  app.route(PREFIXES.customerCommerce, shippingPublicRouter);
  app.route(PREFIXES.customerCommerce, catalogueCustomerRouter);
  app.route(PREFIXES.customerAccount, customerAccountRouter);
  app.route(PREFIXES.api, accountMerchantRouter);
  app.route(PREFIXES.api, webhooksMerchantRouter);
  app.route(PREFIXES.api, restaurantsPublicRouter);
  app.route(PREFIXES.api, mealOrdersCustomerRouter);
  app.route(PREFIXES.api, mealOrdersMerchantRouter);
  app.route(PREFIXES.api, salesChannelsMerchantRouter);
  app.route(PREFIXES.publicApi, plansPublicRouter);
  app.route(PREFIXES.apiV3, plansV3PublicRouter);
  app.route(PREFIXES.apiV3, planPurchasesCustomerRouter);

  app.openapi(healthRoute, async (c) => {
    await c.get("db").run(sql`SELECT 1`);
    return c.json({ status: "ok" as const }, 200);
  });

  app.openAPIRegistry.registerComponent("securitySchemes", "merchantToken", {
    type: "http",
    scheme: "bearer",
    description: "A merchant API token (`cmk_…`), with the permissions each operation names.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "customerToken", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A customer's access token (a JWT of 15 minutes) from the customer login; refresh it with its refresh token.",
  });
  for (const type of Object.keys(EVENT_CATALOGUE) as EventType[]) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `event.${type}`,
      summary: type,
      description:
        `${EVENT_CATALOGUE[type].description} Signed per Standard Webhooks: headers \`webhook-id\` ` +
        "(stable across retries), `webhook-timestamp`, `webhook-signature`.",
      tags: ["Events"],
      request: { body: { content: { "application/json": { schema: eventEnvelopeSchema(type) } } } },
      responses: {
        200: { description: "Any 2xx acknowledges the delivery; 410 disables the webhook; anything else is retried." },
      },
    });
  }
  app.doc31("/openapi.json", (c) => ({ ...OPENAPI_INFO, servers: [{ url: new URL(c.req.url).origin }] }));
  // The page only: its Swagger UI files are static assets (src/core/docs.ts), served before the Worker.
  app.get("/docs", (c) => {
    c.header("Content-Security-Policy", DOCS_CSP);
    return c.html(docsPage(OPENAPI_INFO.info.title, "/openapi.json"));
  });

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
