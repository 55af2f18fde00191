import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { AppEnv } from "../env";
import { OPENAPI_ORIGIN_PLACEHOLDER } from "./docs";
import { ApiError, addFieldError, type ErrorCode, type FieldErrors, problemType } from "./errors";
// Installs the plain-words validation messages before any schema parses.
import "./validation";

/** RFC 9457 problem details, as every error response of this API is shaped. */
export const ProblemSchema = z
  .object({
    type: z.string().openapi({
      description: "The page of this `code` on this service (`/problems/…`), which says what it means.",
      example: problemType("validation_error", OPENAPI_ORIGIN_PLACEHOLDER),
    }),
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
  .openapi("Problem", {
    description: "RFC 9457 problem details. Each operation lists, per status, the `code` values it can answer.",
  });

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
  503: "The service is not configured for this operation (a secret the operator must set).",
} as const;

export type ProblemStatus = keyof typeof PROBLEM_DESCRIPTIONS;

/** Per status, the error codes an operation can answer with. */
export type ErrorsByStatus = { readonly [S in ProblemStatus]?: readonly ErrorCode[] };

/** The union of several `ErrorsByStatus`, per status. */
export function mergeErrors(...all: (ErrorsByStatus | undefined)[]): ErrorsByStatus {
  const out: { [S in ProblemStatus]?: ErrorCode[] } = {};
  for (const errors of all) {
    for (const [key, codes] of Object.entries(errors ?? {})) {
      const status = Number(key) as ProblemStatus;
      out[status] = [...new Set([...(out[status] ?? []), ...codes])];
    }
  }
  return out;
}

/** A 429's headers: when to retry, and the limit it hit (core/rate-limit.ts; IETF httpapi RateLimit fields). */
const RETRY_AFTER = {
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" as const, minimum: 1 } },
  "RateLimit-Policy": {
    description:
      'The limits this request counts against, e.g. `"token";q=600;w=60`: quota `q` per window of `w` seconds. ' +
      "Every response of a limited operation carries it.",
    schema: { type: "string" as const },
  },
  RateLimit: {
    description:
      'What is left of each, e.g. `"token";r=0;t=42`: `r` requests remain, the window resets in `t` seconds. ' +
      "Every response of a limited operation carries it.",
    schema: { type: "string" as const },
  },
};

/**
 * The problem responses of an operation: for each status, the Problem schema with `code` narrowed
 * to the codes that operation can answer, so that a client can switch on them.
 */
export function problemResponsesFor(errors: ErrorsByStatus) {
  const out: Record<number, { description: string; headers?: typeof RETRY_AFTER; content: object }> = {};
  for (const [status, codes] of Object.entries(errors) as [`${ProblemStatus}`, readonly ErrorCode[]][]) {
    if (!codes.length) continue;
    const s = Number(status) as ProblemStatus;
    const schema = z.intersection(
      ProblemSchema,
      z.object({ status: z.literal(s), code: z.enum([...codes].sort() as [ErrorCode, ...ErrorCode[]]) }),
    );
    out[s] = {
      description: PROBLEM_DESCRIPTIONS[s],
      ...(s === 429 && { headers: RETRY_AFTER }),
      // Its examples, one per code, are the document's own (src/openapi-shared-parts.ts).
      content: { "application/problem+json": { schema } },
    };
  }
  return out;
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
 * Routes whose request headers their middleware reads and checks (`app-id`, `org-id`,
 * `Idempotency-Key`, `If-None-Match`): the document lists the headers, and no validator collects
 * every header of the request to parse them again (a tenth of a cached read's CPU).
 */
const headersCheckedByMiddleware = new WeakSet<object>();

/** Marks a route made by `createRoute` as one whose headers its middleware checks. */
export function withHeadersCheckedByMiddleware<R extends object>(route: R): R {
  headersCheckedByMiddleware.add(route);
  return route;
}

/**
 * Every router is made here, so that every route shares one validation hook:
 * a failed zod check becomes the one 400 problem shape.
 */
export function createRouter(options: { getPath?: (req: Request) => string } = {}) {
  const router = new OpenAPIHono<AppEnv>({
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
  const openapi = router.openapi;
  router.openapi = ((route, handler, hook) => {
    if (!headersCheckedByMiddleware.has(route) || route.hide) return openapi(route, handler, hook);
    // Documented as given; served without the header validator.
    const { middleware: _middleware, hide: _hide, ...documented } = route;
    router.openAPIRegistry.registerPath(documented);
    return openapi({ ...route, hide: true, request: { ...route.request, headers: undefined } }, handler, hook);
  }) as typeof openapi;
  return router;
}

/** An integer path id: rejects non-integers and overflow with a 400 naming the parameter. */
export function idParam<N extends string>(name: N) {
  const id = z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "Must be a positive integer.")
    .transform(Number)
    .refine(Number.isSafeInteger, "Too large.")
    .openapi({
      param: { name, in: "path" },
      type: "integer",
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      example: 1,
    });
  return z.object({ [name]: id } as Record<N, typeof id>);
}

export type { RouteConfig };
export { createRoute, z };
