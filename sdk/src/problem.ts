/**
 * The API's errors: RFC 9457 problem details (`application/problem+json`) with a stable `code`
 * from the document's closed list, as one Error class a caller can switch on.
 */
import type { ErrorCode } from "./operations.js";

/** A `code` the SDK gives a response that is not a problem body (a proxy's HTML page, an empty 502). */
export type ClientErrorCode = "unexpected_response";

export class ApiProblem extends Error {
  override readonly name = "ApiProblem";
  /** The HTTP status. */
  readonly status: number;
  /** The stable snake_case code to switch on (the document lists, per operation, which it answers). */
  readonly code: ErrorCode | ClientErrorCode;
  readonly title: string;
  readonly detail: string;
  /** The code's page on the API (`…/problems/<code>`). */
  readonly type: string;
  /** Field (or query parameter, or header) → messages, on validation errors; empty otherwise. */
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** The API's `X-Request-Id` of the request, to quote when asking about it. */
  readonly requestId: string | undefined;
  /** The whole body, with any field of the code's own (e.g. `allowed_actions`). */
  readonly body: Readonly<Record<string, unknown>>;

  constructor(status: number, body: Record<string, unknown>) {
    const detail = typeof body.detail === "string" ? body.detail : `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.body = body;
    this.code = (typeof body.code === "string" ? body.code : "unexpected_response") as ErrorCode | ClientErrorCode;
    this.title = typeof body.title === "string" ? body.title : `HTTP ${status}`;
    this.detail = detail;
    this.type = typeof body.type === "string" ? body.type : "about:blank";
    this.errors = isRecord(body.errors) ? (body.errors as Record<string, string[]>) : {};
    this.requestId = typeof body.request_id === "string" ? body.request_id : undefined;
  }

  /** The problem of a failed call (openapi-fetch's `error` and `response`). */
  static from(error: unknown, response: Response): ApiProblem {
    const body = isRecord(error) ? error : { detail: typeof error === "string" && error ? error : undefined };
    const problem = new ApiProblem(response.status, body);
    if (!problem.requestId) {
      const id = response.headers.get("x-request-id");
      if (id) (problem as { requestId: string | undefined }).requestId = id;
    }
    return problem;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether `e` is the API's problem with `code` (any problem when no code is given). */
export function isProblem(e: unknown, code?: ErrorCode): e is ApiProblem {
  return e instanceof ApiProblem && (code === undefined || e.code === code);
}

/**
 * The data of a call that succeeded, or its ApiProblem thrown:
 * `const order = unwrap(await client.GET("/order/v1/orders/{order_id}/", …))`.
 */
export function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R,
): Exclude<R["data"], undefined> {
  if (!result.response.ok) throw ApiProblem.from(result.error, result.response);
  return result.data as Exclude<R["data"], undefined>;
}
