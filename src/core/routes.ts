import type { RouteConfig } from "@hono/zod-openapi";
import { authenticate, type ChannelAdmission, type Permission, requireCustomer, requirePermission } from "./auth";
import { CACHE_CONTROL } from "./cache";
import type { ErrorCode } from "./errors";
import {
  type ClaimTiming,
  IDEMPOTENCY_ERRORS,
  IDEMPOTENCY_HEADER,
  idempotencyHeaderSchema,
  idempotent,
  REPLAYED_HEADER,
} from "./idempotency";
import { requireJsonBody } from "./middleware";
import {
  createRoute,
  type ErrorsByStatus,
  mergeErrors,
  type ProblemStatus,
  problemResponsesFor,
  withHeadersCheckedByMiddleware,
  z,
} from "./openapi";
import { authenticatePlatform } from "./platform-auth";
import { knownApp, knownAppBeside, tenantHeaders, tenantOrgHeaders } from "./tenancy";

/**
 * The route factories, one per audience: each adds its auth path, the tenant headers, and every
 * problem response the route can give, with the codes of each status as an enum in the document.
 * A route declares only its own codes (`errors`); the factory adds those of the request path.
 */

type Base = Omit<RouteConfig, "security" | "middleware"> & {
  /** The codes this operation answers with beyond the request path's own, by status. */
  errors?: ErrorsByStatus;
};

/** For the operations of a principal (merchant or customer). */
type Keyed = {
  /**
   * The operation takes an `Idempotency-Key` (writes that move money or stock): the middleware
   * runs after auth, and the document declares the header, the replay header and the 409 codes.
   * `"with-first-read"` sends the key's claim beside the handler's first reads (see `ClaimTiming`).
   */
  idempotent?: boolean | Exclude<ClaimTiming, "before">;
};

type SpecLink = { specId: string; beyondSpec?: never } | { specId?: never; beyondSpec: string };

const hasBody = (r: RouteConfig) => r.method !== "get" && r.method !== "head" && r.request?.body !== undefined;
const hasInput = (r: RouteConfig) => Boolean(r.request?.params || r.request?.query || r.request?.body);

/** What any route can answer before its handler runs: headers, validation, transport, crashes. */
function requestPathErrors(r: RouteConfig): ErrorsByStatus {
  const body = hasBody(r);
  const invalid: ErrorCode[] = ["missing_app_id", "invalid_header"];
  if (hasInput(r)) invalid.push("validation_error");
  if (body) invalid.push("malformed_request");
  const writes = r.method === "post" || r.method === "put" || r.method === "patch";
  return {
    400: invalid,
    ...(body && { 413: ["payload_too_large"], 415: ["unsupported_media_type"] }),
    ...(writes && { 409: ["conflict"] }),
    500: ["internal_error"],
  };
}

const TOKEN_ERRORS: ErrorsByStatus = {
  401: ["not_authenticated", "malformed_token", "invalid_token", "token_expired", "token_revoked"],
  403: ["wrong_tenant", "wrong_principal", "app_suspended"],
  429: ["rate_limited"],
};

/**
 * The responses of a route: its own success responses, then its problem responses from the codes.
 * Problem statuses the route lists without codes keep the generic Problem schema until it declares them.
 */
function responsesWith<R extends RouteConfig["responses"]>(responses: R, errors: ErrorsByStatus) {
  return { ...responses, ...(problemResponsesFor(errors) as Record<never, never>) };
}

const REPLAYED_DOC = {
  [REPLAYED_HEADER]: {
    description: "`true` when this is the stored response to an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string" as const, enum: ["true"] },
  },
};
const RETRY_AFTER_DOC = {
  "Retry-After": {
    description: "On `idempotency_key_in_flight`: seconds to wait before retrying.",
    schema: { type: "integer" as const, minimum: 1 },
  },
};

/** What `idempotent: true` adds to an operation: its middleware, header and response headers. */
const idempotency = {
  middleware: (on: Keyed["idempotent"]) => (on ? [idempotent(on === true ? "before" : on)] : []),
  headers: <H extends z.ZodObject>(headers: H, on: Keyed["idempotent"]) =>
    on ? headers.extend({ [IDEMPOTENCY_HEADER]: idempotencyHeaderSchema }) : headers,
  responses<T extends object>(responses: T, on: Keyed["idempotent"]): T {
    if (!on) return responses;
    const all = responses as Record<string, { headers?: object }>;
    for (const [status, r] of Object.entries(all)) {
      if (status.startsWith("2")) all[status] = { ...r, headers: { ...r.headers, ...REPLAYED_DOC } };
      if (status === "409") all[status] = { ...r, headers: { ...r.headers, ...RETRY_AFTER_DOC } };
    }
    return responses;
  },
  errors: (on: Keyed["idempotent"]) => (on ? IDEMPOTENCY_ERRORS : undefined),
};

const specLink = (link: SpecLink, operationId: string | undefined) => {
  if (!link.specId === !link.beyondSpec) {
    throw new Error(`${operationId}: give a specId, or say why the operation is beyond the spec`);
  }
  return link.specId ? { "x-spec-id": link.specId } : { "x-beyond-spec": link.beyondSpec };
};

type MerchantRouteInput = Base &
  SpecLink &
  Keyed & {
    permission: Permission;
    /** The operation also takes `org-id`, and the organization must own the app. */
    org?: boolean;
  };

/** A merchant operation: a merchant API token with one permission, for the store in `app-id`. */
export function merchantRoute<const R extends MerchantRouteInput>(route: R) {
  const { specId, beyondSpec, permission, org, errors, idempotent: keyed, ...rest } = route;
  const all = mergeErrors(requestPathErrors(rest), TOKEN_ERRORS, errors, idempotency.errors(keyed), {
    403: ["missing_permission", ...(org ? (["wrong_organization"] as const) : [])],
    ...(org && { 400: ["missing_org_id"] }),
  });
  const created = createRoute({
    ...rest,
    security: [{ merchantToken: [] }],
    // The body's media type is checked once the caller is known: no token is 401 whatever the body.
    middleware: [
      authenticate(),
      requirePermission(permission, { org }),
      requireJsonBody(),
      ...idempotency.middleware(keyed),
    ] as const,
    ...specLink({ specId, beyondSpec } as SpecLink, rest.operationId),
    "x-permission": permission,
    "x-audience": "merchant",
    description: `${rest.description ?? ""}\n\nPermission: \`${permission}\`.`.trim(),
    request: { ...rest.request, headers: idempotency.headers(org ? tenantOrgHeaders : tenantHeaders, keyed) },
    responses: idempotency.responses(responsesWith(rest.responses, all), keyed),
  });
  // authenticate() reads `app-id` and `org-id`, idempotent() the key: all of its headers.
  return withHeadersCheckedByMiddleware(created);
}

type CustomerRouteInput = Base &
  SpecLink &
  Keyed & {
    /**
     * The operation also admits the token of a customer of a sales channel selling this store's
     * plans (see `ChannelAdmission`); the route declares the codes the admission answers with.
     */
    channel?: ChannelAdmission;
    /** Request headers the operation reads beyond the tenant's (declared in the document). */
    headers?: z.ZodRawShape;
  };

/** A customer-app operation: the customer's own access token, for the store in `app-id`. */
export function customerRoute<const R extends CustomerRouteInput>(route: R) {
  const { specId, beyondSpec, errors, idempotent: keyed, channel, headers, ...rest } = route;
  const all = mergeErrors(
    requestPathErrors(rest),
    TOKEN_ERRORS,
    { 404: ["app_not_found"], 403: ["customer_blocked"] },
    errors,
    idempotency.errors(keyed),
  );
  const created = createRoute({
    ...rest,
    security: [{ customerToken: [] }],
    middleware: [
      knownAppBeside(),
      // A read, or a write that promises nothing but D1 before its first write, runs beside the
      // store's and the customer's checks (its writes wait for them).
      authenticate({ channel, customers: true, beside: rest.method === "get" || keyed === "with-first-read" }),
      requireCustomer(),
      requireJsonBody(),
      ...idempotency.middleware(keyed),
    ] as const,
    ...specLink({ specId, beyondSpec } as SpecLink, rest.operationId),
    "x-audience": "customer",
    ...(channel && { "x-channel-customers": true }),
    description: `${rest.description ?? ""}\n\nCustomer: the customer's own access token${
      channel ? ", or a sales channel customer's (see `channel_app_id`)" : ""
    }.`.trim(),
    request: {
      ...rest.request,
      headers: idempotency.headers(headers ? tenantHeaders.extend(headers) : tenantHeaders, keyed),
    },
    responses: idempotency.responses(responsesWith(rest.responses, all), keyed),
  });
  // Its own `headers` are the validator's to check; the tenant's and the key are the middleware's.
  return headers ? created : withHeadersCheckedByMiddleware(created);
}

type PublicRouteInput = Base & SpecLink & { cached?: boolean };

const CACHED_NOTE = " Cached at the edge: a write shows at once where it was made, within 60 s elsewhere.";

const CACHE_HEADERS = {
  ETag: {
    description: "Strong validator of the body; send it back in `If-None-Match`.",
    schema: { type: "string" as const },
  },
  "Cache-Control": { description: `\`${CACHE_CONTROL}\``, schema: { type: "string" as const } },
};

/**
 * A public read (or search): no token, only `app-id`, which must name a store. With `cached`, it
 * is served from KV with `ETag` and `Cache-Control`, and `If-None-Match` gets 304.
 */
export function publicRoute<const R extends PublicRouteInput>(route: R) {
  const { specId, beyondSpec, cached, errors, ...rest } = route;
  const all = mergeErrors(requestPathErrors(rest), { 404: ["app_not_found"], 403: ["app_suspended"] }, errors);
  const responses = responsesWith(rest.responses, all);
  const extra = responses as Record<number, { description?: string; headers?: object }>;
  if (cached) {
    const ok = extra[200]!;
    extra[200] = { ...ok, headers: { ...ok.headers, ...CACHE_HEADERS } };
    extra[304] = { description: "Not modified: the `If-None-Match` ETag is current.", headers: CACHE_HEADERS };
  }
  const headers = cached
    ? tenantHeaders.extend({
        "If-None-Match": z
          .string()
          .optional()
          .openapi({ description: "An ETag this read returned; a match gets 304.", example: '"3Qx9c2hh"' }),
      })
    : tenantHeaders;
  const request = { ...rest.request, headers };
  const created = createRoute({
    ...rest,
    security: [],
    // knownApp() reads `app-id` (400 when missing or malformed) before it checks the store exists.
    middleware: [requireJsonBody(), knownApp()] as const,
    ...specLink({ specId, beyondSpec } as SpecLink, rest.operationId),
    "x-audience": "public",
    description:
      `${rest.description ?? ""}\n\nPublic: needs only \`app-id\`, no token.${cached ? CACHED_NOTE : ""}`.trim(),
    request,
    responses,
  });
  // knownApp() reads `app-id`, cachedJson() `If-None-Match`: all of its headers.
  return withHeadersCheckedByMiddleware(created);
}

type PlatformRouteInput = Base & { beyondSpec: string };

/**
 * A platform operation (organizations, stores, a store's first key): the platform operator's key
 * (`authenticatePlatform`), no `app-id`, never a merchant's or a customer's token. Beyond the spec,
 * which knows stores only from inside.
 */
export function platformRoute<const R extends PlatformRouteInput>(route: R) {
  const { beyondSpec, errors, ...rest } = route;
  const body = hasBody(rest);
  const writes = rest.method === "post" || rest.method === "put" || rest.method === "patch";
  const all = mergeErrors(
    {
      ...(hasInput(rest) && { 400: ["validation_error", ...(body ? (["malformed_request"] as const) : [])] }),
      ...(body && { 413: ["payload_too_large"], 415: ["unsupported_media_type"] }),
      ...(writes && { 409: ["conflict"] }),
      401: ["not_authenticated", "malformed_token", "invalid_token"],
      403: ["wrong_principal"],
      429: ["rate_limited"],
      500: ["internal_error"],
      503: ["platform_key_not_set"],
    },
    errors,
  );
  return createRoute({
    ...rest,
    security: [{ platformKey: [] }],
    middleware: [authenticatePlatform(), requireJsonBody()] as const,
    "x-beyond-spec": beyondSpec,
    "x-audience": "platform",
    description: `${rest.description ?? ""}\n\nPlatform: the platform operator's key; no \`app-id\`.`.trim(),
    responses: responsesWith(rest.responses, all),
  });
}

export type { ProblemStatus };
