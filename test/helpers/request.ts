import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { waitsMeter } from "./d1-waits";
import { APP_1 } from "./factories";

export const BASE = "https://api.test";

export type Call = {
  method?: string;
  token?: string | null;
  appId?: number | string | null;
  orgId?: number | string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** What Cloudflare adds to the request (`request.cf`). */
  cf?: Record<string, unknown>;
  /** The bindings the Worker gets (the test's own by default): the contract suite records D1's statements. */
  env?: Env;
  /**
   * Counts the D1 round trips the response waits for (test/helpers/d1-waits.ts): the Worker gets its
   * binding, and it is stopped when the response is back, before the deferred work is awaited.
   */
  meter?: ReturnType<typeof waitsMeter>;
};

/**
 * Sends a request through the Worker's own fetch handler, as a client would, and waits for the
 * work it deferred (events sent to the queue). The handler is called directly: in this pool,
 * `exports.default.fetch` gets slower with every request a test file makes (from 10 ms to 400 ms
 * over 1,500 requests), which the contract suite's thousand requests cannot afford.
 */
export async function call(path: string, opts: Call = {}): Promise<Response> {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.appId !== null) headers.set("app-id", String(opts.appId ?? APP_1));
  if (opts.orgId !== undefined) headers.set("org-id", String(opts.orgId));
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const request = new Request(BASE + path, {
    method: opts.method ?? "GET",
    headers,
    body,
    ...(opts.cf && { cf: opts.cf }),
  });
  return fetchWorker(request, opts.env ?? env, opts.meter);
}

/**
 * The bindings with the static assets as ASSETS, as the deployed Worker has them (the OpenAPI
 * document, the PDFs' font): this pool binds them only as TEST_ASSETS (vitest.config.ts).
 */
function withAssets(bindings: Env): Env {
  if (bindings.ASSETS) return bindings;
  return { ...bindings, ASSETS: testAssets() };
}

/** The static assets, as the Worker's ASSETS binding serves them (for tests that call a service directly). */
export const testAssets = (): Fetcher => (env as unknown as { TEST_ASSETS: Fetcher }).TEST_ASSETS;

/**
 * Hands a request to the Worker's fetch handler and waits for the work it deferred (events sent to
 * the queue). With a meter, or under `npm run bench -- --only waits` (TEST_D1_WAITS), the Worker's
 * D1 is metered (test/helpers/d1-waits.ts), the meter stopped when the response is back, and the
 * request's line printed for the bench.
 */
export async function fetchWorker(
  request: Request,
  bindings: Env,
  meter = env.TEST_D1_WAITS ? waitsMeter() : undefined,
): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, meter ? meter.env(withAssets(bindings)) : withAssets(bindings), ctx);
  const waits = meter?.stop();
  await waitOnExecutionContext(ctx);
  if (meter && env.TEST_D1_WAITS) {
    const line = {
      method: request.method,
      path: new URL(request.url).pathname,
      status: res.status,
      ...waits,
      ...meter.after(),
    };
    console.info(`d1-waits ${JSON.stringify(line)}`);
  }
  return res;
}

/**
 * `call()`, and the D1 round trips its response waited for, one after another (test/helpers/d1-waits.ts):
 * counted when the response is back, the work it deferred apart. Counted, never timed.
 */
export async function callWaits(path: string, opts: Call = {}) {
  const meter = waitsMeter();
  const res = await call(path, { ...opts, meter });
  return { res, waits: meter.stop() };
}

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** Asserts nothing here: returns the problem body after checking its media type. */
export async function problem(res: Response) {
  const type = res.headers.get("content-type") ?? "";
  if (!type.startsWith("application/problem+json"))
    throw new Error(`expected problem+json, got ${type} (${res.status}): ${await res.text()}`);
  return (await res.json()) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    errors?: Record<string, string[]>;
    [k: string]: unknown;
  };
}

/** The ids of a list page's rows, in the page's order. */
export const pageIds = (page: { results: { id: number }[] }) => page.results.map((r) => r.id);
