import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AUDIENCE_DOCUMENTS, DOCUMENT_AUDIENCES, OPENAPI_ORIGIN_PLACEHOLDER, OPENAPI_PATH } from "../../src/core/docs";
import { APP_1, tokenFor } from "../helpers/factories";
import { BASE, call, json } from "../helpers/request";

/** wrangler.toml's `[assets]` directory, bound for the tests only (vitest.config.ts). */
const ASSETS = (env as unknown as { TEST_ASSETS: Fetcher }).TEST_ASSETS;

/**
 * What a browser gets, as Cloudflare routes it: a static asset when one matches the path, else the
 * Worker; the Worker first for wrangler.toml's `run_worker_first` (the document). Calls to the Worker
 * in this pool skip that router, so the test asks the assets first.
 */
async function browse(path: string): Promise<Response> {
  if (path === OPENAPI_PATH || path.startsWith("/openapi/")) return call(path, { appId: null });
  const asset = await ASSETS.fetch(new URL(path, BASE));
  if (asset.status !== 404) return asset;
  return call(path, { appId: null });
}

const TYPES: Record<string, RegExp> = {
  css: /^text\/css/,
  js: /^(text|application)\/javascript/,
  png: /^image\/png$/,
  json: /^application\/json/,
};

/** Every URL the page names: src and href attributes, CSS url(), and data-*-url attributes. */
function referencedUrls(html: string): string[] {
  const attrs = [...html.matchAll(/\s(?:src|href|data-[\w-]*url)\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]!);
  const cssUrls = [...html.matchAll(/url\(\s*["']?([^"')]*)/gi)].map((m) => m[1]!);
  return [...attrs, ...cssUrls];
}

const isLocalPath = (url: string) => url.startsWith("/") && !url.startsWith("//") && !url.includes("\\");

describe("/docs", () => {
  it("is an HTML page that needs no token and no app-id, and names no other host", async () => {
    const res = await browse("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();

    const urls = referencedUrls(html);
    expect(urls.length).toBeGreaterThan(2);
    expect(urls.filter((u) => !isLocalPath(u))).toEqual([]);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/["'(]\s*\/\//); // no protocol-relative URL either
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i); // no inline script: the CSP allows none

    // The browser itself refuses anything from another host.
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
  });

  it(
    "serves every asset the page references, with its content type, and nothing in them loads " + "from elsewhere",
    async () => {
      const html = await (await browse("/docs")).text();
      // Files: the links to the other documents and to the error codes are pages, tested below.
      const assets = [...html.matchAll(/\s(?:src|href)="([^"]+\.[a-z]+)"/g)].map((m) => m[1]!);
      expect(assets.some((a) => a.endsWith("/swagger-ui-bundle.js"))).toBe(true);
      expect(assets.some((a) => a.endsWith("/swagger-ui.css"))).toBe(true);
      for (const asset of assets) {
        const res = await browse(asset);
        expect(res.status, asset).toBe(200);
        const ext = asset.split(".").pop()!;
        expect(res.headers.get("content-type"), asset).toMatch(TYPES[ext] ?? /^$/);
        const bytes = await res.arrayBuffer();
        expect(bytes.byteLength, asset).toBeGreaterThan(100);
        if (ext === "css") {
          const body = new TextDecoder().decode(bytes);
          // Images are inlined as data: URIs; there are no fonts or imports to fetch.
          const external = [...body.matchAll(/url\(\s*["']?([^"')]*)/gi)]
            .map((m) => m[1]!)
            .filter((u) => !/^data:/.test(u));
          expect(
            external.filter((u) => !isLocalPath(u)),
            asset,
          ).toEqual([]);
          expect(body, asset).not.toMatch(/@import/);
        }
      }
    },
  );

  it("loads the merchant document from this origin by default, and each other one by `api`", async () => {
    const html = await (await browse("/docs")).text();
    const url = /data-openapi-url="([^"]+)"/.exec(html)?.[1];
    expect(url).toBe(AUDIENCE_DOCUMENTS.merchant.path);
    // The page links every other document, and the error codes' page.
    for (const api of ["customer", "public", "platform", "all"]) expect(html).toContain(`href="/docs?api=${api}"`);
    expect(html).toContain('href="/problems/"');

    // The start-up script hands that attribute to Swagger UI, and only it.
    const init = /<script src="([^"]*\/docs\.js)"/.exec(html)?.[1];
    expect(init).toBeDefined();
    const script = await (await browse(init!)).text();
    expect(script).toContain("fetch(root.dataset.openapiUrl)");
    expect(script).not.toMatch(/https?:\/\//);
    // A filter over the tags, and `app-id` with the token in the Authorize dialog, kept across reloads.
    expect(script).toContain("filter: true");
    expect(script).toContain("persistAuthorization: true");
    expect(script).toMatch(/name: "app-id"/);

    const pages: [string, string][] = [
      ["/docs?api=all", OPENAPI_PATH],
      ...DOCUMENT_AUDIENCES.map((a): [string, string] => [`/docs?api=${a}`, AUDIENCE_DOCUMENTS[a].path]),
    ];
    for (const [page, path] of pages) {
      const shown = /data-openapi-url="([^"]+)"/.exec(await (await browse(page)).text())?.[1];
      expect(shown, page).toBe(path);
      const doc = await call(path, { appId: null });
      expect(doc.status, path).toBe(200);
      expect(doc.headers.get("content-type"), path).toMatch(/^application\/json/);
      const text = await doc.text();
      // The origin replaces the placeholder everywhere: the server and the problem examples' `type`.
      expect(text, path).not.toContain(OPENAPI_ORIGIN_PLACEHOLDER);
      const body = JSON.parse(text) as { openapi: string; servers: { url: string }[]; paths: object };
      expect(body.openapi).toBe("3.1.0");
      expect(body.servers).toEqual([{ url: BASE }]);
      expect(Object.keys(body.paths).length, path).toBeGreaterThan(0);
    }
  });
});

describe("/problems/", () => {
  it("a problem's `type` is a page of this origin that says what its code means, served without the Worker", async () => {
    const res = await call("/order/v1/merchant/items/999999999/", { token: await tokenFor(APP_1, ["can_read_item"]) });
    const body = await json<{ type: string; code: string }>(res);
    expect(body.code).toBe("item_not_found");
    expect(body.type).toBe(`${BASE}/problems/item-not-found`);

    const page = await ASSETS.fetch(new URL(body.type));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("<code>item_not_found</code>");
    expect(html).toContain("HTTP 404");
    expect(html).not.toMatch(/https?:\/\//);

    const index = await (await ASSETS.fetch(new URL("/problems/", BASE))).text();
    for (const code of ["item_not_found", "validation_error", "rate_limited", "wrong_tenant"])
      expect(index).toContain(`id="${code.replaceAll("_", "-")}"`);
  });
});
