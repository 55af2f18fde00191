/**
 * The interactive API reference at `/docs`: Swagger UI from the pinned `swagger-ui-dist` package.
 * Its files are Workers Static Assets under DOCS_ASSETS_PATH (copied from node_modules by
 * scripts/docs-assets.ts, never bundled into the Worker); the Worker serves only this small page.
 * Nothing here loads from another host, so the page works offline.
 */

/** Where the static assets are served; the same path under the assets directory holds the files. */
export const DOCS_ASSETS_PATH = "/docs/assets";

/** Files taken as they are from `swagger-ui-dist`. */
export const SWAGGER_UI_FILES = [
  "swagger-ui.css",
  "swagger-ui.css.map",
  "index.css",
  "swagger-ui-bundle.js",
  "swagger-ui-bundle.js.LICENSE.txt",
  "favicon-32x32.png",
  "favicon-16x16.png",
  "LICENSE",
  "NOTICE",
] as const;

/** The page's own start-up script, written next to them (a file, so that the CSP needs no inline script). */
export const DOCS_INIT_FILE = "docs.js";

/**
 * Starts Swagger UI on the document the page names. The page keeps `app-id` with the token: it
 * turns the documented `app-id` header parameter into an API-key scheme of the Authorize dialog
 * (for this page only; the document keeps the header), so it is entered once, and
 * `persistAuthorization` keeps both across reloads.
 */
export const DOCS_INIT_SCRIPT = `// Starts Swagger UI on the document the page names; written by scripts/docs-assets.ts.
(function () {
  var root = document.getElementById("swagger-ui");
  var APP_ID = "#/components/parameters/app-id";
  function isAppId(p) {
    return p.$ref === APP_ID || (p.in === "header" && p.name === "app-id");
  }
  // The store's id goes in the Authorize dialog, beside the token, instead of in every operation.
  function withAppIdScheme(doc) {
    var schemes = (doc.components = doc.components || {}).securitySchemes = doc.components.securitySchemes || {};
    schemes.appId = {
      type: "apiKey",
      in: "header",
      name: "app-id",
      description: "The store's id (an integer), sent as the app-id header with every operation that takes it.",
    };
    Object.keys(doc.paths).forEach(function (path) {
      var methods = doc.paths[path];
      Object.keys(methods).forEach(function (method) {
        var op = methods[method];
        if (!op || !op.parameters || !op.parameters.some(isAppId)) return;
        op.parameters = op.parameters.filter(function (p) { return !isAppId(p); });
        var security = op.security && op.security.length ? op.security : [{}];
        op.security = security.map(function (req) {
          var out = { appId: [] };
          Object.keys(req).forEach(function (k) { out[k] = req[k]; });
          return out;
        });
      });
    });
    return doc;
  }
  fetch(root.dataset.openapiUrl)
    .then(function (res) { return res.json(); })
    .then(function (doc) {
      window.ui = SwaggerUIBundle({
        spec: withAppIdScheme(doc),
        domNode: root,
        deepLinking: true,
        filter: true,
        persistAuthorization: true,
        displayRequestDuration: true,
        // Tags folded, the first one open: the page shows an operation without laying out hundreds.
        docExpansion: "none",
        defaultModelsExpandDepth: -1,
        validatorUrl: null,
        onComplete: function () {
          var first = (doc.tags || [])[0];
          if (first && !window.location.hash) window.ui.layoutActions.show(["operations-tag", first.name], true);
        },
      });
    });
})();
`;

/** Only this origin: Swagger UI needs inline styles and data: images, nothing else. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The documents of one audience each (src/openapi-audiences.ts), beside the whole one at OPENAPI_PATH. */
export const AUDIENCE_DOCUMENTS = {
  merchant: { title: "Merchant", path: "/openapi/merchant.json" },
  customer: { title: "Customer app", path: "/openapi/customer.json" },
  public: { title: "Public and meals", path: "/openapi/public.json" },
  platform: { title: "Platform", path: "/openapi/platform.json" },
} as const;
export type DocumentAudience = keyof typeof AUDIENCE_DOCUMENTS;
export const DOCUMENT_AUDIENCES = Object.keys(AUDIENCE_DOCUMENTS) as DocumentAudience[];

/** The page the problem `type` URLs point to, a static asset built with the document. */
export const PROBLEMS_PAGE_PATH = "/problems/";

const escapeAttr = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Shown by default: the merchant operations, the largest audience after the whole. */
export const DEFAULT_DOCS_AUDIENCE: DocumentAudience = "merchant";

/** Which document `/docs?api=<audience>` shows: one audience's, or (`api=all`) the whole one. */
export function docsDocumentPath(api: string | undefined): string {
  if (api === "all") return OPENAPI_PATH;
  return AUDIENCE_DOCUMENTS[(api ?? "") as DocumentAudience]?.path ?? AUDIENCE_DOCUMENTS[DEFAULT_DOCS_AUDIENCE].path;
}

/** The HTML of `/docs`; `openapiUrl` is a path on this Worker. */
export function docsPage(title: string, openapiUrl: string): string {
  const a = DOCS_ASSETS_PATH;
  const choices = [
    ...DOCUMENT_AUDIENCES.map((k) => ({
      api: k,
      label: AUDIENCE_DOCUMENTS[k].title,
      path: AUDIENCE_DOCUMENTS[k].path,
    })),
    { api: "all", label: "Whole API", path: OPENAPI_PATH },
  ];
  const links = choices
    .map((c) =>
      c.path === openapiUrl
        ? `<strong>${escapeAttr(c.label)}</strong> (<a href="${c.path}">JSON</a>)`
        : `<a href="/docs?api=${c.api}">${escapeAttr(c.label)}</a>`,
    )
    .join(" · ");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeAttr(title)}</title>
    <link rel="stylesheet" href="${a}/swagger-ui.css" />
    <link rel="stylesheet" href="${a}/index.css" />
    <link rel="icon" type="image/png" href="${a}/favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="${a}/favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <nav style="font-family: sans-serif; padding: 12px 20px; border-bottom: 1px solid #ddd">
      API for: ${links} · <a href="${PROBLEMS_PAGE_PATH}">Error codes</a>
    </nav>
    <div id="swagger-ui" data-openapi-url="${escapeAttr(openapiUrl)}"></div>
    <script src="${a}/swagger-ui-bundle.js"></script>
    <script src="${a}/${DOCS_INIT_FILE}"></script>
  </body>
</html>
`;
}

/**
 * The OpenAPI document is built at build time (scripts/openapi-json.ts) into the static assets, its
 * server this placeholder: the Worker serves it (wrangler.toml's `run_worker_first`) with the
 * request's origin in its place, so that neither the document's prose nor its generator is bundled.
 */
export const OPENAPI_PATH = "/openapi.json";
export const OPENAPI_ORIGIN_PLACEHOLDER = "https://this-origin.invalid";

/** The built documents' text, by path, loaded once per isolate. */
const documentTexts = new Map<string, Promise<string>>();
/** The last origin's copy of each: one origin serves nearly every request of an isolate. */
const servedTexts = new Map<string, { origin: string; text: string }>();

/** The ASSETS binding, as far as the document needs it (this file is also read by the Node scripts). */
type Assets = { fetch(url: URL): Promise<Response> };

/**
 * A built document (`path`: OPENAPI_PATH or an audience's) with `origin` in place of the
 * placeholder: its server and the problem `type` URLs of its examples.
 */
export async function openApiJson(assets: Assets, origin: string, path: string = OPENAPI_PATH): Promise<string> {
  let loading = documentTexts.get(path);
  if (!loading) {
    loading = assets.fetch(new URL(path, OPENAPI_ORIGIN_PLACEHOLDER)).then((res) => {
      if (!res.ok) throw new Error(`${path} is not in the static assets (${res.status}): see scripts/openapi-json.ts`);
      return res.text();
    });
    documentTexts.set(path, loading);
  }
  const text = await loading.catch((error: unknown) => {
    documentTexts.delete(path);
    throw error;
  });
  const served = servedTexts.get(path);
  if (served?.origin === origin) return served.text;
  if (!text.includes(OPENAPI_ORIGIN_PLACEHOLDER)) throw new Error(`${path} names no server to replace`);
  const out = text.replaceAll(OPENAPI_ORIGIN_PLACEHOLDER, origin);
  servedTexts.set(path, { origin, text: out });
  return out;
}
