import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError, renderProblem } from "./errors";

/**
 * Method routing that a path router alone gets wrong.
 *
 * A fixed path such as `/merchant/items/tags/` also matches its sibling `/merchant/items/{item_id}/`:
 * a method the fixed path lacks (DELETE) would reach the id route and be answered with that route's
 * 400 ("item_id must be a positive integer") or 404. `fixedPaths` answers it with 405 and the fixed
 * path's own methods instead, before routing (and auth) reaches a `{param}` route.
 */

/** What is read of the app: its route table (Hono's `app.routes`). */
export type RouteTable = { readonly routes: readonly { readonly method: string; readonly path: string }[] };

export type MethodRoutingOptions = {
  /** The app whose routes are read, on the first request: routes are mounted after the middleware. */
  app: RouteTable;
  /** Methods the app answers on every path before routing (the CORS middleware answers OPTIONS). */
  alwaysAllowed?: readonly string[];
};

/** A registered path with no parameter and no wildcard: `/order/v1/merchant/items/tags/`. */
export function isFixedPath(path: string): boolean {
  return !path.includes(":") && !path.includes("*");
}

/**
 * The methods of each fixed path, in registration order, HEAD after GET (Hono answers HEAD with
 * the GET route) and `alwaysAllowed` last. A fixed path with an ALL route (middleware or catch-all)
 * is left out: every method may be served there, so it is the router's to answer.
 */
export function fixedPathMethods(
  routes: RouteTable["routes"],
  alwaysAllowed: readonly string[] = [],
): Map<string, readonly string[]> {
  const byPath = new Map<string, Set<string>>();
  const open = new Set<string>();
  for (const { method, path } of routes) {
    if (!isFixedPath(path)) continue;
    if (method === "ALL") {
      open.add(path);
      continue;
    }
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method);
    if (method === "GET") methods.add("HEAD");
    byPath.set(path, methods);
  }
  const out = new Map<string, readonly string[]>();
  for (const [path, methods] of byPath) {
    if (!open.has(path)) out.set(path, withAlwaysAllowed([...methods], alwaysAllowed));
  }
  return out;
}

function withAlwaysAllowed(methods: readonly string[], alwaysAllowed: readonly string[]): string[] {
  return [...new Set([...methods, ...alwaysAllowed])];
}

/** The app's 405: problem+json with the `Allow` header, the same list in the detail. */
export function methodNotAllowedError(method: string, allowed: readonly string[]): ApiError {
  const allow = allowed.join(", ");
  return new ApiError(405, "method_not_allowed", `${method} is not allowed here. Allowed: ${allow}.`, {
    headers: { Allow: allow },
  });
}

export function methodRouting({ app, alwaysAllowed = [] }: MethodRoutingOptions) {
  let table: Map<string, readonly string[]> | undefined;

  /** 405 for a method a fixed path lacks, before a `{param}` route can take the path for an id. */
  const fixedPaths: MiddlewareHandler<AppEnv> = async (c, next) => {
    table ??= fixedPathMethods(app.routes, alwaysAllowed);
    const allowed = table.get(c.req.path);
    if (allowed && !allowed.includes(c.req.method))
      return renderProblem(methodNotAllowedError(c.req.method, allowed), c);
    await next();
  };

  /** For Hono's `methodNotAllowed`, which answers the paths no route takes for the method. */
  const onMethodNotAllowed = (c: Context, methods: string[]): Response =>
    renderProblem(methodNotAllowedError(c.req.method, withAlwaysAllowed(methods, alwaysAllowed)), c);

  return { fixedPaths, onMethodNotAllowed };
}
