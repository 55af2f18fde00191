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

export const DOCS_INIT_SCRIPT = `// Starts Swagger UI on the document the page names; written by scripts/docs-assets.ts.
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
  });
});
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

const escapeAttr = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The HTML of `/docs`; `openapiUrl` is a path on this Worker. */
export function docsPage(title: string, openapiUrl: string): string {
  const a = DOCS_ASSETS_PATH;
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

let documentText: Promise<string> | undefined;

/** The ASSETS binding, as far as the document needs it (this file is also read by the Node scripts). */
type Assets = { fetch(url: URL): Promise<Response> };

/** The built document with `origin` as its server: the placeholder's first place, before `paths`. */
export async function openApiJson(assets: Assets, origin: string): Promise<string> {
  documentText ??= assets.fetch(new URL(OPENAPI_PATH, OPENAPI_ORIGIN_PLACEHOLDER)).then((res) => {
    if (!res.ok)
      throw new Error(`${OPENAPI_PATH} is not in the static assets (${res.status}): see scripts/openapi-json.ts`);
    return res.text();
  });
  const loading = documentText;
  const text = await loading.catch((error: unknown) => {
    documentText = undefined;
    throw error;
  });
  const placeholder = JSON.stringify(OPENAPI_ORIGIN_PLACEHOLDER);
  const at = text.indexOf(placeholder);
  if (at < 0) throw new Error(`${OPENAPI_PATH} names no server to replace`);
  return text.slice(0, at) + JSON.stringify(origin) + text.slice(at + placeholder.length);
}
