import { type Context, type ErrorHandler, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { executionCtxOf } from "./context";

/**
 * Routers built on a request's first need. The app registers every route's method and path (a
 * generated table: cheap strings) with a handler that loads the route's router once, mounts it in
 * an app of its own, and hands the request over. What the app's middleware put on the context goes
 * in (db, request id), and what the router's put there comes back out (principal, app id, the
 * error), so that the app's middleware sees the request as if the router were mounted in it.
 */

/** The context of the app that handed a request over, by the request. */
const handedOver = new WeakMap<Request, Context<AppEnv>>();

/** Copies the context's variables both ways around the router's work, and its error back. */
const bridge: MiddlewareHandler<AppEnv> = async (c, next) => {
  const outer = handedOver.get(c.req.raw);
  if (outer) for (const [k, v] of Object.entries(outer.var)) c.set(k as keyof AppEnv["Variables"], v as never);
  await next();
  if (!outer) return;
  for (const [k, v] of Object.entries(c.var)) outer.set(k as keyof AppEnv["Variables"], v as never);
  if (c.error) outer.error = c.error;
};

export type LazyRouterOptions = {
  prefix: string;
  // biome-ignore lint/suspicious/noExplicitAny: routers differ in their schema and base-path types
  load: () => Promise<Hono<AppEnv, any, any>>;
  /** The outer app's: the router's app matches the same paths the same way. */
  getPath: (req: Request) => string;
  onError: ErrorHandler<AppEnv>;
};

/** The handler of every route of one router: loads it on the first call, then hands each request to it. */
export function lazyRouter({ prefix, load, getPath, onError }: LazyRouterOptions) {
  let built: Promise<Hono<AppEnv>> | undefined;
  const build = async () => {
    const app = new Hono<AppEnv>({ getPath });
    app.use(bridge);
    app.route(prefix, await load());
    app.onError(onError);
    return app;
  };
  return async (c: Context<AppEnv>) => {
    // A failed load is tried again by the next request rather than remembered.
    built ??= build().catch((error) => {
      built = undefined;
      throw error;
    });
    const app = await built;
    handedOver.set(c.req.raw, c);
    const res = await app.fetch(c.req.raw, c.env, executionCtxOf(c));
    // Through the outer context, so that headers its middleware set before the handler stay on.
    const out = c.newResponse(res.body, res);
    if (!res.headers.has("content-encoding")) return out;
    // Bytes already encoded (a cached read's gzip, sent with encodeBody "manual"): a copied Response
    // loses that, and the runtime would gzip the gzip again.
    return new Response(out.body, { status: out.status, headers: out.headers, encodeBody: "manual" });
  };
}
