import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../env";

/**
 * Structured logs: one JSON object per line, which Workers Logs indexes field by field.
 *
 * These kinds of line, each with `msg` (the kind) and `level`:
 * - `request`: one per HTTP request, written by `requestLog()`;
 * - `webhook delivery`: one per delivery attempt, written by the queue consumer;
 * - `background task failed`: work done after the response or off a queue that failed, where
 *   nothing else would keep a trace; `unhandled error` is the same for a request's unexpected 5xx;
 * - `service unavailable`: a 5xx the code answers on purpose (a provider silent, a secret unset);
 * - `scheduled task`: one per task of a scheduled run that finished, with what it did;
 * - `limit reached`: a ceiling guarding a cost (a store's SMS budget) refused a request.
 *
 * Never put a token, a code, a secret, a body, a query string or a webhook's URL or headers in a
 * line: requests are logged by their route pattern, not their URL.
 */

export type LogLevel = "info" | "warn" | "error";

/**
 * Level of a request line: "error" for 5xx (ours to fix); "info" for everything else, 4xx
 * included: those are the client's mistakes, and `status` tells them apart when querying.
 */
export type RequestLine = {
  msg: "request";
  level: "info" | "error";
  method: string;
  /** The matched route's pattern (`/order/v1/merchant/items/:item_id/`); null when no operation matched. */
  route: string | null;
  status: number;
  /** Duration in milliseconds, rounded to one decimal. */
  ms: number;
  request_id: string | null;
  /** The `app-id` header when it is a positive integer. */
  app_id: number | null;
  principal: "merchant" | "customer" | "platform" | null;
  /** The problem's `code` for a 4xx/5xx raised as an `ApiError`; null otherwise. */
  code: string | null;
};

export type DeliveryOutcome = "delivered" | "retrying" | "failed" | "disabled";

/**
 * One webhook delivery attempt. Level: "info" when delivered, "warn" when it will be retried,
 * "error" when the delivery gave up (failed, dead-lettered) or the webhook was disabled.
 */
export type DeliveryLine = {
  msg: "webhook delivery";
  level: LogLevel;
  app_id: number;
  webhook_id: number;
  event_id: string;
  event_type: string;
  delivery_id: string;
  attempt: number;
  outcome: DeliveryOutcome;
  status_code: number | null;
  error_class: string | null;
  ms: number;
  next_attempt_at: string | null;
};

export type BackgroundTask =
  | "publish events"
  | "deliver connection events"
  | "invalidate public cache"
  | "resend outbox"
  | "reconcile deliveries"
  | "purge idempotency keys"
  | "store idempotent response"
  | "expire wallet balances"
  | "expire unpaid orders"
  | "charge recurring purchases"
  | "queue subscription renewals"
  | "poll carrier tracking"
  | "measure shard"
  | "copy platform audit"
  | "sign e-invoices"
  | "onboard e-invoicing unit"
  | "warn expiring e-invoicing units"
  | "submit e-invoices"
  | "queue message"
  | "fan out event"
  | "dead-letter message"
  | "job";

export type TaskFailedLine = {
  msg: "background task failed";
  level: "error";
  task: BackgroundTask;
  app_id?: number;
  /** The queue message's id, for a task run off a queue. */
  message_id?: string;
  event_id?: string;
  /** The shard a scheduled task ran on (src/db/shards.ts). */
  shard?: string;
  /** The error's text (`Name: message`), at most 500 characters; never a stack. */
  error: string;
};

/** A scheduled task that finished (background.ts): what it did, for the console and the logs. */
export type ScheduledTaskLine = {
  msg: "scheduled task";
  level: "info";
  /** Its name in src/scheduled-tasks.ts. */
  task: string;
  /** The shard whose stores it ran over (src/db/shards.ts). */
  shard: string;
  /** What the task returned (a count, or a summary per carrier); null when it returns nothing. */
  result: unknown;
  ms: number;
};

/** A request's 5xx: ours, so the stack is kept (it never reaches the response). */
export type UnhandledErrorLine = {
  msg: "unhandled error";
  level: "error";
  request_id: string | null;
  error: string;
  stack: string | null;
};

/** A 5xx answered on purpose (an `ApiError`): the operator's cue, with its code and no stack. */
export type ServiceUnavailableLine = {
  msg: "service unavailable";
  level: "error";
  request_id: string | null;
  code: string;
  detail: string;
};

/**
 * A ceiling that guards a cost (an SMS budget) refused a request: the metric to alert on, since
 * it trips under abuse. One per refused request; `limit` names the ceiling.
 */
export type LimitReachedLine = {
  msg: "limit reached";
  level: "warn";
  limit: string;
  app_id: number;
  /** Seconds the client is told to wait (`Retry-After`). */
  retry_after: number;
};

export type LogLine =
  | RequestLine
  | DeliveryLine
  | TaskFailedLine
  | ScheduledTaskLine
  | UnhandledErrorLine
  | ServiceUnavailableLine
  | LimitReachedLine;

/** Prints one line: `console.error` for level "error", `console.log` otherwise. */
export function log(line: LogLine): void {
  const text = JSON.stringify(line);
  if (line.level === "error") console.error(text);
  else console.log(text);
}

export const ERROR_TEXT_MAX = 500;

/** An error as one short line of text, without its stack. */
export function errorText(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = "unprintable error";
  }
  return text.length > ERROR_TEXT_MAX ? text.slice(0, ERROR_TEXT_MAX) : text;
}

/** Logs a failed background task; `context` names what it was working on. */
export function logTaskFailure(
  task: BackgroundTask,
  error: unknown,
  context: Pick<TaskFailedLine, "app_id" | "message_id" | "event_id" | "shard"> = {},
): void {
  log({ msg: "background task failed", level: "error", task, ...context, error: errorText(error) });
}

/** Logs a ceiling that refused a request (`LimitReachedLine`). */
export function logLimitReached(limit: string, appId: number, retryAfter: number): void {
  log({ msg: "limit reached", level: "warn", limit, app_id: appId, retry_after: retryAfter });
}

export function deliveryLevel(outcome: DeliveryOutcome): LogLevel {
  if (outcome === "delivered") return "info";
  return outcome === "retrying" ? "warn" : "error";
}

const APP_ID = /^[1-9]\d{0,15}$/;

function appIdOf(value: string | undefined): number | null {
  if (!value || !APP_ID.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The pattern of the operation that answered: the last route with a method (not an `ALL`
 * middleware such as `/*`) among the handlers that ran. When a middleware answered before the
 * operation (413, 415, a malformed bookmark), the operation the router matched after it; none
 * for a 405 (the path has no operation for this method), a preflight or a route not found.
 */
export function routeOf(c: Context, status: number): string | null {
  const routes = matchedRoutes(c);
  const ran = c.req.routeIndex;
  for (let i = Math.min(ran, routes.length - 1); i >= 0; i--) {
    if (routes[i]!.method !== "ALL") return routes[i]!.path;
  }
  if (status === 405) return null;
  return routes.find((r, i) => i > ran && r.method !== "ALL")?.path ?? null;
}

/** The `code` of an `ApiError` the request threw (by its name: errors.ts logs through this module). */
function problemCode(error: Error | undefined): string | null {
  if (error?.name !== "ApiError") return null;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === "string" ? code : null;
}

/**
 * One `request` line per request, after the response is final: registered first (after the
 * request id), it sees the problems that `onError`, `notFound` and the method checks render.
 */
export const requestLog = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const started = performance.now();
  let thrown = false;
  try {
    await next();
  } catch (error) {
    thrown = true; // Not an Error (Hono's onError takes those): the runtime answers 500.
    throw error;
  } finally {
    const status = thrown ? 500 : c.res.status;
    log({
      msg: "request",
      level: status >= 500 ? "error" : "info",
      method: c.req.method,
      route: routeOf(c, status),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      request_id: c.get("requestId") ?? null,
      app_id: appIdOf(c.req.header("app-id")),
      principal: c.get("principal")?.kind ?? null,
      code: status >= 400 ? problemCode(c.error) : null,
    });
  }
};
