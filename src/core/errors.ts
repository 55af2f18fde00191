import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Field → messages, as RFC 9457 extension member `errors`. */
export type FieldErrors = Record<string, string[]>;

/** Adds one message to a field of `errors`. */
export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  const list = errors[field];
  if (list) list.push(message);
  else errors[field] = [message];
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
};

/**
 * The one error type. Services and middleware throw it; `renderProblem` turns it into
 * `application/problem+json`. `code` is a stable snake_case string clients can switch on.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly detail: string,
    readonly extra: { errors?: FieldErrors; headers?: Record<string, string>; [k: string]: unknown } = {},
  ) {
    super(detail);
    this.name = "ApiError";
  }

  static validation(errors: FieldErrors, detail = "The request has invalid fields; see `errors`.") {
    return new ApiError(400, "validation_error", detail, { errors });
  }
  static unauthorized(detail: string, code = "not_authenticated") {
    return new ApiError(401, code, detail, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });
  }
  static forbidden(detail: string, code = "permission_denied", extra: Record<string, unknown> = {}) {
    return new ApiError(403, code, detail, extra);
  }
  static notFound(what: string, code = "not_found") {
    return new ApiError(404, code, `${what} was not found.`);
  }
  static conflict(code: string, detail: string, extra: Record<string, unknown> = {}) {
    return new ApiError(409, code, detail, extra);
  }
}

export type ProblemBody = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  request_id?: string;
  errors?: FieldErrors;
  [k: string]: unknown;
};

export const PROBLEM_TYPE_BASE = "https://docs.commerce-meals.dev/problems/";

export function problemBody(err: ApiError, instance?: string, requestId?: string): ProblemBody {
  const { headers: _headers, ...extra } = err.extra;
  return {
    type: PROBLEM_TYPE_BASE + err.code.replaceAll("_", "-"),
    title: TITLES[err.status] ?? "Error",
    status: err.status,
    detail: err.detail,
    code: err.code,
    ...(instance ? { instance } : {}),
    ...(requestId ? { request_id: requestId } : {}),
    ...extra,
  };
}

/** Renders any thrown value as problem+json; internals of unexpected errors never leave the Worker. */
export function renderProblem(err: unknown, c: Context): Response {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    console.error(
      JSON.stringify({
        msg: "unhandled error",
        request_id: c.get("requestId"),
        error: String(err),
        stack: (err as Error)?.stack,
      }),
    );
  }
  const body = problemBody(apiError, new URL(c.req.url).pathname, c.get("requestId"));
  const headers = new Headers({ "content-type": "application/problem+json" });
  for (const [k, v] of Object.entries(apiError.extra.headers ?? {})) headers.set(k, v);
  return new Response(JSON.stringify(body), { status: apiError.status, headers });
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) {
    // Hono's own middleware (body limit, malformed JSON in the validator) throws these.
    const status = err.status as ContentfulStatusCode;
    if (status === 413) {
      return new ApiError(413, "payload_too_large", "The request body is larger than this API accepts (1 MiB).");
    }
    if (status === 415) {
      return new ApiError(
        415,
        "unsupported_media_type",
        "Send the body as JSON with `Content-Type: application/json`.",
      );
    }
    if (status === 400) {
      return new ApiError(400, "malformed_request", err.message || "The request could not be parsed.");
    }
    return new ApiError(status, "http_error", err.message || TITLES[status] || "Error");
  }
  if (/UNIQUE constraint failed/.test(String((err as Error)?.message ?? ""))) {
    // A race the service's own checks could not see (two requests creating the same SKU at once).
    return new ApiError(409, "conflict", "A record with the same unique values was just created; retry to see it.");
  }
  return new ApiError(500, "internal_error", "Something went wrong on our side. Retry later, quoting the request id.");
}
