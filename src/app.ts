import { sql } from "drizzle-orm";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { getPath } from "hono/utils/url";
import { checkCustomerStanding } from "./core/auth";
import {
  AUDIENCE_DOCUMENTS,
  DOCS_CSP,
  DOCUMENT_AUDIENCES,
  docsDocumentPath,
  docsPage,
  OPENAPI_PATH,
  openApiJson,
} from "./core/docs";
import { API_TITLE } from "./core/document";
import { ApiError, renderProblem } from "./core/errors";
import { lazyRouter } from "./core/lazy-router";
import { requestLog } from "./core/logging";
import { methodRouting } from "./core/routing";
import { BOOKMARK_HEADER } from "./db/client";
import { dbSession } from "./db/session";
import type { AppEnv } from "./env";
import { ROUTE_TABLE } from "./route-table";
import { ROUTERS } from "./routers";

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Paths served without a trailing slash; every other path is the spec's, with its slash. */
const SLASHLESS = new Set([
  "/health",
  "/openapi.json",
  "/docs",
  ...Object.values(AUDIENCE_DOCUMENTS).map((d) => d.path),
]);

/** Serves `/x` as `/x/`: the spec's paths end with a slash and clients often drop it. */
function pathWithSlash(req: Request): string {
  const path = getPath(req);
  return path.endsWith("/") || SLASHLESS.has(path) ? path : `${path}/`;
}

/** The app-wide middleware, by name: `npm run bench` measures what each costs a public read. */
export const APP_MIDDLEWARE = [
  "requestId",
  "requestLog",
  "methodNotAllowed",
  "secureHeaders",
  "cors",
  "fixedPaths",
  "bodyLimit",
  "dbSession",
] as const;
export type AppMiddleware = (typeof APP_MIDDLEWARE)[number];

/** `without`: for the benchmark only, the app without some of its middleware. */
export function createApp(opts: { without?: readonly AppMiddleware[] } = {}) {
  const app = new Hono<AppEnv>({ getPath: pathWithSlash });
  // The auth path asks the customers module whether an access token's customer is still live and unblocked.
  checkCustomerStanding(async (db, appId, customerId) =>
    (await import("./modules/customers/auth/standing")).customerStanding(db, appId, customerId),
  );
  const use = (name: AppMiddleware, mw: MiddlewareHandler<AppEnv>) => {
    if (!opts.without?.includes(name)) app.use(mw);
  };

  // The CORS middleware below answers OPTIONS on every path, so every 405's `Allow` names it too.
  const routing = methodRouting({ app, alwaysAllowed: ["OPTIONS"] });
  use("requestId", requestId({ headerName: "X-Request-Id" }));
  use("requestLog", requestLog());
  use("methodNotAllowed", methodNotAllowed({ app, onMethodNotAllowed: routing.onMethodNotAllowed }));
  use("secureHeaders", secureHeaders({ crossOriginResourcePolicy: "cross-origin" }));
  use(
    "cors",
    cors({
      origin: "*",
      allowHeaders: [
        "Authorization",
        "Content-Type",
        "app-id",
        "org-id",
        "Idempotency-Key",
        "If-None-Match",
        BOOKMARK_HEADER,
      ],
      allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      exposeHeaders: [
        "X-Request-Id",
        "ETag",
        "Retry-After",
        "RateLimit",
        "RateLimit-Policy",
        "Allow",
        "Idempotent-Replayed",
        BOOKMARK_HEADER,
      ],
      maxAge: 86400,
    }),
  );
  // After CORS (preflights are answered, a 405 carries CORS headers), before the body checks and auth.
  use("fixedPaths", routing.fixedPaths);
  use(
    "bodyLimit",
    bodyLimit({
      maxSize: BODY_LIMIT_BYTES,
      onError: () => {
        throw new ApiError(413, "payload_too_large", `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`);
      },
    }),
  );
  use("dbSession", dbSession());

  // Every route's method and path, in the routers' order; each router is loaded by its first request.
  for (const router of ROUTERS) {
    const load = async () => {
      (await import("./wiring")).wireModules();
      return router.load();
    };
    const handOver = lazyRouter({ prefix: router.prefix, load, getPath: pathWithSlash, onError: renderProblem });
    for (const [method, path] of ROUTE_TABLE[router.name]) {
      // A router's own middleware runs in its app, around its routes; here the path is only known.
      if (method === "ALL") app.all(path, (_c, next) => next());
      else app.on(method, path, handOver);
    }
  }

  app.get("/health", async (c) => {
    await c.get("db").run(sql`SELECT 1`);
    return c.json({ status: "ok" as const }, 200);
  });
  // Built with the assets (scripts/openapi-json.ts): the Worker only puts the request's origin in.
  // The same for each audience's document (src/openapi-audiences.ts).
  for (const path of [OPENAPI_PATH, ...DOCUMENT_AUDIENCES.map((a) => AUDIENCE_DOCUMENTS[a].path)]) {
    app.get(path, async (c) =>
      c.body(await openApiJson(c.env.ASSETS, new URL(c.req.url).origin, path), 200, {
        "Content-Type": "application/json",
      }),
    );
  }
  // The page only: its Swagger UI files are static assets (src/core/docs.ts), served before the Worker.
  app.get("/docs", (c) => {
    c.header("Content-Security-Policy", DOCS_CSP);
    return c.html(docsPage(API_TITLE, docsDocumentPath(c.req.query("api"))));
  });

  app.notFound((c) =>
    renderProblem(
      new ApiError(
        404,
        "route_not_found",
        `No operation at ${c.req.method} ${new URL(c.req.url).pathname}. See /docs.`,
      ),
      c,
    ),
  );
  app.onError((err, c) => renderProblem(err, c));
  return app;
}
