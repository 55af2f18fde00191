/**
 * Builds the OpenAPI documents from src/ (every router, with its prose) into the static assets: the
 * whole one, one per audience, and the error codes' pages their problem `type` URLs point to. Their
 * server is a placeholder the Worker replaces with the request's origin (src/core/docs.ts). The
 * Worker deployed carries neither the prose (scripts/worker-source.ts) nor the document's generator.
 * scripts/docs-assets.ts runs it (in a process of its own: it loads the Worker's sources); alone:
 * `npx tsx scripts/openapi-json.ts`. test/core/openapi.test.ts checks what is served against the
 * document the routers build.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { AUDIENCE_DOCUMENTS, DOCUMENT_AUDIENCES, OPENAPI_ORIGIN_PLACEHOLDER, OPENAPI_PATH } from "../src/core/docs.js";
import { problemPages } from "./problem-pages.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PUBLIC = path.join(ROOT, "public");
// Not literals, so that the scripts' type check (Node's) leaves the Worker's sources out.
const documentModule = "../src/openapi-document.js";
const audiencesModule = "../src/openapi-audiences.js";
const { buildOpenApiDocument, ERROR_CODES } = (await import(documentModule)) as {
  buildOpenApiDocument: (serverUrl: string) => Promise<object>;
  ERROR_CODES: Record<string, string>;
};
const { audienceDocument } = (await import(audiencesModule)) as {
  audienceDocument: (whole: object, audience: string) => object;
};

/** Writes `text` when it changed; touched when not (scripts/docs-assets.ts rebuilds when a source is newer). */
function write(file: string, text: string): boolean {
  let old: string | undefined;
  try {
    old = readFileSync(file, "utf8");
  } catch {
    // the first build
  }
  mkdirSync(path.dirname(file), { recursive: true });
  if (old !== text) writeFileSync(file, text);
  else utimesSync(file, new Date(), new Date());
  return old !== text;
}

const whole = await buildOpenApiDocument(OPENAPI_ORIGIN_PLACEHOLDER);
const documents: [string, object][] = [
  [OPENAPI_PATH, whole],
  ...DOCUMENT_AUDIENCES.map((a) => [AUDIENCE_DOCUMENTS[a].path, audienceDocument(whole, a)] as [string, object]),
];
for (const [urlPath, doc] of documents) {
  // Compact JSON, as the app served it before.
  const text = JSON.stringify(doc);
  const changed = write(path.join(PUBLIC, urlPath), text);
  process.stdout.write(
    `> public${urlPath}: ${text.length} bytes, ${gzipSync(text).length} gzipped${changed ? "" : " (unchanged)"}\n`,
  );
}

// The error codes' pages: one per code, and the list of them all.
const pagesDir = path.join(PUBLIC, "problems");
const pages = problemPages(whole, ERROR_CODES);
for (const [name, html] of pages) write(path.join(pagesDir, name), html);
for (const name of readdirSync(pagesDir)) if (!pages.has(name)) rmSync(path.join(pagesDir, name));
process.stdout.write(`> public/problems/: ${pages.size} pages\n`);
