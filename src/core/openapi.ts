import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { AppEnv } from "../env";
import { ApiError, addFieldError, type FieldErrors } from "./errors";

/** RFC 9457 problem details, as every error response of this API is shaped. */
export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "https://docs.commerce-meals.dev/problems/validation-error" }),
    title: z.string().openapi({ example: "Bad Request" }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().openapi({ example: "The request has invalid fields; see `errors`." }),
    code: z
      .string()
      .openapi({ description: "Stable snake_case error code to switch on.", example: "validation_error" }),
    instance: z.string().optional(),
    request_id: z.string().optional(),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .openapi({ description: "Field (or query parameter, or header) → messages; present on validation errors." }),
  })
  .passthrough()
  .openapi("Problem");

const PROBLEM_DESCRIPTIONS = {
  400: "Invalid request: a field, query parameter or header is malformed; `errors` names each one.",
  401: "Missing, malformed, unknown, expired or revoked bearer token.",
  403: "The token belongs to another tenant, or lacks the permission this operation needs.",
  404: "No such record in this tenant.",
  409: "The request conflicts with the record's current state.",
  413: "The request body is too large.",
  415: "The request body is not JSON.",
  422: "The request is well-formed but cannot be applied.",
  429: "Too many requests; retry after `Retry-After` seconds.",
  500: "Unexpected error; nothing internal is disclosed.",
} as const;

export type ProblemStatus = keyof typeof PROBLEM_DESCRIPTIONS;

const problemContent = { "application/problem+json": { schema: ProblemSchema } };

export function problemResponses<S extends ProblemStatus>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: PROBLEM_DESCRIPTIONS[s], content: problemContent }]),
  ) as unknown as { [K in S]: { description: string; content: typeof problemContent } };
}

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { required: true, description, content: { "application/json": { schema } } };
}

/** Turns zod issues into `errors`: dotted field path → messages. Query and header names keep their own names. */
export function fieldErrors(error: ZodError, target?: string): FieldErrors {
  // No prototype: a client's field named `constructor` or `__proto__` is a plain key here.
  const out: FieldErrors = Object.create(null);
  for (const issue of error.issues) {
    let key = issue.path.map(String).join(".");
    if (!key) key = target === "json" ? "body" : (target ?? "request");
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys) {
        addFieldError(out, key === "body" ? k : `${key}.${k}`, "Unknown field; remove it.");
      }
      continue;
    }
    addFieldError(out, key, issue.message);
  }
  return out;
}

/**
 * Every router is made here, so that every route shares one validation hook:
 * a failed zod check becomes the one 400 problem shape.
 */
export function createRouter(options: { getPath?: (req: Request) => string } = {}) {
  return new OpenAPIHono<AppEnv>({
    ...options,
    defaultHook: (result) => {
      if (!result.success) {
        const where =
          { json: "body", query: "query parameters", param: "path", header: "headers" }[result.target as string] ??
          "request";
        throw ApiError.validation(
          fieldErrors(result.error as unknown as ZodError, result.target),
          `Invalid ${where}; see \`errors\`.`,
        );
      }
    },
  });
}

/** An integer path id: rejects non-integers and overflow with a 400 naming the parameter. */
export function idParam<N extends string>(name: N) {
  const id = z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "Must be a positive integer.")
    .transform(Number)
    .refine(Number.isSafeInteger, "Too large.")
    .openapi({ param: { name, in: "path" }, type: "integer", example: "1" });
  return z.object({ [name]: id } as Record<N, typeof id>);
}

export type { RouteConfig };
export { createRoute, z };

import { type Permission, requirePermission } from "./auth";
import { tenantHeaders, tenantOrgHeaders } from "./tenancy";

type MerchantRouteInput = Omit<RouteConfig, "security" | "middleware"> & {
  /** The operation id of spec/operations.tsv this route implements. */
  specId?: string;
  /** For an operation the interface does not name: why the service has it. */
  beyondSpec?: string;
  permission: Permission;
  /** The operation also takes `org-id`, and the organization must own the app. */
  org?: boolean;
};

/**
 * A merchant operation: bearer auth with one permission, the tenant headers, and every problem
 * status the auth path and validation can give, declared in the OpenAPI document.
 */
export function merchantRoute<const R extends MerchantRouteInput>(route: R) {
  const { specId, beyondSpec, permission, org, ...rest } = route;
  if (!specId === !beyondSpec)
    throw new Error(`${rest.operationId}: give a specId, or say why the operation is beyond the spec`);
  return createRoute({
    ...rest,
    security: [{ bearerAuth: [] }],
    middleware: [requirePermission(permission, { org })] as const,
    ...(specId ? { "x-spec-id": specId } : { "x-beyond-spec": beyondSpec }),
    "x-permission": permission,
    description: `${rest.description ?? ""}\n\nPermission: \`${permission}\`.`.trim(),
    request: { ...rest.request, headers: org ? tenantOrgHeaders : tenantHeaders },
    responses: { ...rest.responses, ...problemResponses(400, 401, 403, 429, 500) },
  });
}

import { CACHE_CONTROL } from "./cache";
import { tenant } from "./tenancy";

type PublicRouteInput = Omit<RouteConfig, "security" | "middleware"> & { specId: string; cached?: boolean };

/**
 * A public read (or search) of the meals side: no token, only `app-id`. With `cached`, it is served
 * from KV with `ETag` and `Cache-Control`, and `If-None-Match` gets 304.
 */
export function publicRoute<const R extends PublicRouteInput>(route: R) {
  const { specId, cached, ...rest } = route;
  const cacheHeaders = {
    ETag: {
      description: "Strong validator of the body; send it back in `If-None-Match`.",
      schema: { type: "string" as const },
    },
    "Cache-Control": { description: `\`${CACHE_CONTROL}\``, schema: { type: "string" as const } },
  };
  const responses = { ...rest.responses, ...problemResponses(400, 500) } as R["responses"] &
    ReturnType<typeof problemResponses<400 | 500>>;
  if (cached) {
    const ok = responses[200 as keyof typeof responses] as { headers?: object };
    Object.assign(ok, { headers: { ...ok.headers, ...cacheHeaders } });
    Object.assign(responses, {
      304: { description: "Not modified: the `If-None-Match` ETag is current.", headers: cacheHeaders },
    });
  }
  return createRoute({
    ...rest,
    security: [],
    middleware: [tenant()] as const,
    "x-spec-id": specId,
    description:
      `${rest.description ?? ""}\n\nPublic: needs only \`app-id\`, no token.${cached ? " Cached at the edge: a write shows at once where it was made, within 60 s elsewhere." : ""}`.trim(),
    request: { ...rest.request, headers: tenantHeaders },
    responses,
  });
}
