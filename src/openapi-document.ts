import { API_INTRODUCTION, API_TAGS, API_TITLE, TAG_GROUPS } from "./core/document";
import { CORE_ERROR_CODES, type ErrorCode } from "./core/errors";
import type { EventType } from "./core/events/registry";
import { createRoute, createRouter, jsonContent, problemResponsesFor, z } from "./core/openapi";
import { accountErrorCodes } from "./modules/account/errors";
import { customerErrorCodes } from "./modules/customers/errors";
import { itemErrorCodes } from "./modules/items/errors";
import { mealOrderErrorCodes } from "./modules/meal-orders/errors";
import { mealErrorCodes } from "./modules/meals/errors";
import { orderErrorCodes } from "./modules/orders/errors";
import { platformErrorCodes } from "./modules/platform";
import { salesChannelErrorCodes } from "./modules/sales-channels/errors";
import { shippingErrorCodes } from "./modules/shipping/errors";
import { ticketErrorCodes } from "./modules/tickets/errors";
import { voucherErrorCodes } from "./modules/vouchers/errors";
import { EVENT_CATALOGUE, eventEnvelopeSchema } from "./modules/webhooks/catalogue";
import { webhookErrorCodes } from "./modules/webhooks/errors";
import { type OpenApiDocument, shareRepeatedParts } from "./openapi-shared-parts";
import { ROUTERS } from "./routers";

/**
 * The OpenAPI document: every router's operations, the events, the error codes. Built at build time
 * into the static assets (scripts/openapi-json.ts), which the Worker serves at /openapi.json with the
 * request's origin (core/docs.ts), and by the tests and scripts that read it: the Worker itself never
 * imports this file, so neither the generator's work nor the prose is in a request's way.
 */

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
  ...platformErrorCodes,
} satisfies Record<ErrorCode, string>;

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: API_TITLE,
    version: "1.0.0",
    description: API_INTRODUCTION,
  },
  tags: API_TAGS,
  /** The tags by audience, for readers that show sections (Redoc and others). */
  "x-tagGroups": TAG_GROUPS,
  /** The same codes, for tools: code → meaning. */
  "x-error-codes": ERROR_CODES,
};

/** Documented here; served by the app (app.ts) without loading any router. */
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

/** Every router mounted in one app, as the document sees them (its registry is the document's source). */
export async function createDocumentApp() {
  const app = createRouter();
  const routers = await Promise.all(ROUTERS.map((r) => r.load()));
  for (const [i, r] of ROUTERS.entries()) app.route(r.prefix, routers[i]!);
  app.openAPIRegistry.registerPath(healthRoute);
  app.openAPIRegistry.registerComponent("securitySchemes", "merchantToken", {
    type: "http",
    scheme: "bearer",
    description:
      "A merchant API key (`cmk_…`), with the permissions each operation names. The platform operator issues a " +
      "store's first (`POST /platform/v1/stores/{store_id}/api-keys/`); a key with `can_manage_api_keys` issues more " +
      "(`POST /api/v1/dashboard/admin/api-keys/`). Locally: `npm run token -- --app-id 1 --permissions <list>`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "platformKey", {
    type: "http",
    scheme: "bearer",
    description:
      "The platform operator's key: the Worker secret `PLATFORM_API_KEY` (`wrangler secret put PLATFORM_API_KEY`). " +
      "It grants the platform operations only, never a store's.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "customerToken", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A customer's access token (a JWT of 15 minutes): request a code with `POST /api/v1/customer/auth/otp/`, " +
      "exchange it with `POST /api/v1/customer/auth/token/` for `access_token` (and `refresh_token`, for " +
      "`POST /api/v1/customer/auth/token/refresh/`). Locally `npm start` prints the code.",
  });
  // Every event's answer is the same: said once, referenced by each (the signing is in the tag's description).
  app.openAPIRegistry.registerComponent("responses", "EventAcknowledged", {
    description: "Any 2xx acknowledges the delivery; 410 disables the webhook; anything else is retried.",
  });
  for (const type of Object.keys(EVENT_CATALOGUE) as EventType[]) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `event.${type}`,
      summary: type,
      description: EVENT_CATALOGUE[type].description,
      tags: ["Events"],
      request: { body: { content: { "application/json": { schema: eventEnvelopeSchema(type) } } } },
      responses: { 200: { $ref: "#/components/responses/EventAcknowledged" } },
    });
  }
  return app;
}

/** The document as it is served: every router's operations, its repeated parts by `$ref`, `serverUrl` its server. */
export async function buildOpenApiDocument(serverUrl: string): Promise<OpenApiDocument> {
  const whole = (await createDocumentApp()).getOpenAPI31Document({ ...OPENAPI_INFO, servers: [{ url: serverUrl }] });
  return shareRepeatedParts(whole as unknown as OpenApiDocument, ERROR_CODES);
}
