import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { PROBLEMS_PAGE_PATH } from "./docs";
import { errorText, log } from "./logging";

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
  503: "Service Unavailable",
};

/**
 * Every `code` a problem body can carry: a closed set that clients can switch on. Core declares
 * the codes of the request path (auth, tenancy, validation, transport); each module adds its own
 * in its `errors.ts` with `defineErrorCodes` and declaration merging,
 *
 *   declare module "../../core/errors" {
 *     interface ErrorCodeRegistry extends RegisteredCodes<typeof itemErrorCodes> {}
 *   }
 *
 * Every route declares, per status, the codes it can answer; the document lists them as an enum.
 */
/** A module's error codes, each with what it means (for the document). */
export function defineErrorCodes<const T extends Record<string, string>>(codes: T): T {
  return codes;
}

/** The registry entries of a module's `defineErrorCodes` result. */
export type RegisteredCodes<T extends Record<string, string>> = { [K in keyof T]: string };

export const CORE_ERROR_CODES = defineErrorCodes({
  validation_error: "A body, query or path parameter failed validation; `errors` names each field.",
  malformed_request: "The body is not parseable JSON.",
  missing_app_id: "The `app-id` header is missing.",
  missing_org_id: "The `org-id` header is missing on an operation that takes it.",
  invalid_header: "A header (`app-id`, `org-id`, `x-d1-bookmark`) is malformed.",
  not_authenticated: "No `Authorization: Bearer` token was sent.",
  malformed_token: "The Authorization header is not `Bearer <token>`.",
  invalid_token: "The token is unknown, forged or not of a kind this API issues.",
  token_expired: "The token has expired (a customer refreshes it).",
  token_revoked: "The merchant token was revoked, or the account of the customer's access token was deleted.",
  customer_blocked: "The store blocked this customer: no login, no refresh, and their access tokens are refused.",
  wrong_tenant: "The token belongs to another store than `app-id` names.",
  wrong_organization: "`org-id` does not own the store in `app-id`.",
  missing_permission: "The merchant token lacks the permission the operation names (`permission`).",
  wrong_principal:
    "A customer token on a merchant path, a merchant token on a customer path, or either on a platform path.",
  app_not_found: "`app-id` names no store.",
  app_suspended:
    "The platform suspended the store: its data is kept, every request is refused until it is reactivated.",
  platform_key_not_set: "The operator has not set the PLATFORM_API_KEY secret: the platform operations are off.",
  route_not_found: "No operation at this method and path.",
  method_not_allowed: "The path exists but not with this method (`Allow` lists them).",
  payload_too_large: "The body is larger than 1 MiB.",
  unsupported_media_type: "The body is not JSON.",
  rate_limited: "Too many requests; retry after `Retry-After` seconds.",
  conflict: "Two requests created the same unique values at once; retry to see the winner.",
  concurrent_update: "The records changed while the request ran; nothing was changed, retry.",
  invalid_state_transition:
    "The action is not allowed in the record's `current_status`; `allowed_actions` lists those that are.",
  idempotency_key_reused: "The `Idempotency-Key` was used with another body or path; a new request needs a new key.",
  idempotency_key_in_flight: "A request with this `Idempotency-Key` is still running; retry after `Retry-After`.",
  idempotency_key_response_lost:
    "The request with this `Idempotency-Key` made its change, but its response was lost (the server stopped " +
    "before sending it); it will not run again: read the resource to see the result.",
  internal_error: "Something failed on our side; retry later, quoting the request id.",
});

export interface ErrorCodeRegistry extends RegisteredCodes<typeof CORE_ERROR_CODES> {}

export type ErrorCode = keyof ErrorCodeRegistry & string;

/** The codes of 404s: `<resource>_not_found`. */
export type NotFoundCode = Extract<ErrorCode, `${string}_not_found`>;

/**
 * The one error type. Services and middleware throw it; `renderProblem` turns it into
 * `application/problem+json`. `code` is a member of the typed union clients can switch on.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: FieldErrors; headers?: Record<string, string>; [k: string]: unknown } = {},
  ) {
    super(detail);
    this.name = "ApiError";
  }

  static validation(errors: FieldErrors, detail = "The request has invalid fields; see `errors`.") {
    return new ApiError(400, "validation_error", detail, { errors });
  }
  static unauthorized(detail: string, code: ErrorCode = "not_authenticated") {
    return new ApiError(401, code, detail, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });
  }
  static forbidden(detail: string, code: ErrorCode, extra: Record<string, unknown> = {}) {
    return new ApiError(403, code, detail, extra);
  }
  /** `what` names the record in the detail: "Item 12", "A discount of item 3". */
  static notFound(code: NotFoundCode, what: string) {
    return new ApiError(404, code, `${what} was not found.`);
  }
  static conflict(code: ErrorCode, detail: string, extra: Record<string, unknown> = {}) {
    return new ApiError(409, code, detail, extra);
  }
  /** 409 `invalid_state_transition`: names the current status and what it allows (a state machine's refusal). */
  static invalidTransition(what: string, status: string, action: string, allowed: readonly string[]) {
    const next = allowed.length ? `allowed: ${allowed.join(", ")}` : "it allows no action";
    // `current_status`, as the code's meaning says: `status` is the problem's HTTP status (RFC 9457).
    return ApiError.conflict("invalid_state_transition", `${what} is ${status}: it cannot be ${action} (${next}).`, {
      current_status: status,
      allowed_actions: allowed,
    });
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

/**
 * The page of `code` on this service, `/problems/validation-error` (static assets built by
 * scripts/problem-pages.ts, so they open offline), absolute when `origin` is given: a problem's
 * `type` is under the origin the client called.
 */
export function problemType(code: string, origin = ""): string {
  return `${origin}${PROBLEMS_PAGE_PATH}${code.replaceAll("_", "-")}`;
}

/**
 * The body of a problem: an `ApiError`'s, or a plain one's (the document's examples build no Error
 * and its stack). `origin` makes `type` absolute (RFC 9457 prefers it); without it, a relative reference.
 */
export function problemBody(
  err: Pick<ApiError, "status" | "code" | "detail" | "extra">,
  instance?: string,
  requestId?: string,
  origin?: string,
): ProblemBody {
  const { headers: _headers, ...extra } = err.extra;
  return {
    type: problemType(err.code, origin),
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
  if (apiError.status >= 500 && err instanceof ApiError) {
    log({
      msg: "service unavailable",
      level: "error",
      request_id: c.get("requestId") ?? null,
      code: apiError.code,
      detail: apiError.detail,
    });
  } else if (apiError.status >= 500) {
    log({
      msg: "unhandled error",
      level: "error",
      request_id: c.get("requestId") ?? null,
      error: errorText(err),
      stack: (err as Error)?.stack ?? null,
    });
  }
  const url = new URL(c.req.url);
  const body = problemBody(apiError, url.pathname, c.get("requestId"), url.origin);
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
    return new ApiError(
      500,
      "internal_error",
      "Something went wrong on our side. Retry later, quoting the request id.",
    );
  }
  if (/UNIQUE constraint failed/.test(String((err as Error)?.message ?? ""))) {
    // A race the service's own checks could not see (two requests creating the same SKU at once).
    return new ApiError(409, "conflict", "A record with the same unique values was just created; retry to see it.");
  }
  return new ApiError(500, "internal_error", "Something went wrong on our side. Retry later, quoting the request id.");
}
