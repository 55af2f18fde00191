/**
 * Builds the OpenAPI document from src/ (every router, with its prose) into the static assets, its
 * server a placeholder the Worker replaces with the request's origin (src/core/docs.ts). The Worker
 * deployed carries neither the prose (scripts/worker-source.ts) nor the document's generator.
 * scripts/docs-assets.ts runs it (in a process of its own: it loads the Worker's sources); alone:
 * `npx tsx scripts/openapi-json.ts`. test/core/openapi.test.ts checks what is served against the
 * document the routers build.
 */
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OPENAPI_ORIGIN_PLACEHOLDER, OPENAPI_PATH } from "../src/core/docs.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// Not a literal, so that the scripts' type check (Node's) leaves the Worker's sources out.
const documentModule = "../src/openapi-document.js";
const { createDocumentApp, OPENAPI_INFO } = (await import(documentModule)) as {
  createDocumentApp: () => Promise<{ getOpenAPI31Document: (config: object) => object }>;
  OPENAPI_INFO: object;
};
const doc = (await createDocumentApp()).getOpenAPI31Document({
  ...OPENAPI_INFO,
  servers: [{ url: OPENAPI_ORIGIN_PLACEHOLDER }],
});
// As the app served it before: compact JSON.
const text = JSON.stringify(doc);
const file = path.join(ROOT, "public", OPENAPI_PATH);
let old: string | undefined;
try {
  old = readFileSync(file, "utf8");
} catch {
  // the first build
}
// Touched when unchanged too: scripts/docs-assets.ts rebuilds it when a source is newer than it.
if (old !== text) writeFileSync(file, text);
else utimesSync(file, new Date(), new Date());
process.stdout.write(
  `> ${path.relative(ROOT, file)}: ${old === text ? "unchanged" : `${text.length} bytes written`}\n`,
);
