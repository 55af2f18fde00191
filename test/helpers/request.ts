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
  /** Called when the response is back, before the work it deferred: a test's `waitsMeter` stops there. */
  onResponse?: () => void;
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
  const ctx = createExecutionContext();
  const bindings = opts.env ?? env;
  // `npm run bench -- --only waits`: the D1 round trips the request waits for (test/helpers/d1-waits.ts).
  const meter = env.TEST_D1_WAITS ? waitsMeter(bindings.DB) : undefined;
  const method = opts.method ?? "GET";
  const res = await worker.fetch(
    new Request(BASE + path, { method, headers, body, ...(opts.cf && { cf: opts.cf }) }),
    meter ? new Proxy(bindings, { get: (t, p) => (p === "DB" ? meter.db : Reflect.get(t, p)) }) : bindings,
    ctx,
  );
  opts.onResponse?.();
  const waits = meter?.stop();
  await waitOnExecutionContext(ctx);
  if (meter) {
    const line = { method, path: path.split("?")[0], status: res.status, ...waits, ...meter.after() };
    console.info(`d1-waits ${JSON.stringify(line)}`);
  }
  return res;
}

/**
 * `call()`, and the D1 round trips its response waited for, one after another (test/helpers/d1-waits.ts):
 * counted when the response is back, the work it deferred apart. Counted, never timed.
 */
export async function callWaits(path: string, opts: Call = {}) {
  const bindings = opts.env ?? env;
  const meter = waitsMeter(bindings.DB);
  let waits: ReturnType<typeof meter.stop> | undefined;
  const res = await call(path, {
    ...opts,
    env: new Proxy(bindings, { get: (t, p) => (p === "DB" ? meter.db : Reflect.get(t, p)) }),
    onResponse: () => {
      waits = meter.stop();
    },
  });
  return { res, waits: waits! };
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
