/**
 * Fills the Workers Static Assets directory (`[assets]` in wrangler.toml, git-ignored) with the
 * files of the `/docs` page: Swagger UI from the pinned `swagger-ui-dist` in node_modules, the
 * page's start-up script, and the OpenAPI document (scripts/openapi-json.ts, when a source is newer). Runs before `wrangler dev` (npm start, npm run dev), the tests
 * (vitest.config.ts) and `npm run deploy`; run it alone with `npx tsx scripts/docs-assets.ts`.
 * A file is written only when its content changed, so that `wrangler dev` does not reload for nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  DOCS_ASSETS_PATH,
  DOCS_INIT_FILE,
  DOCS_INIT_SCRIPT,
  OPENAPI_PATH,
  SWAGGER_UI_FILES,
} from "../src/core/docs.js";
import { buildInvoiceFont } from "./invoice-font.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** `[assets] directory` in wrangler.toml. */
export const ASSETS_DIR = path.join(ROOT, "public");

function writeIfChanged(file: string, content: Buffer): boolean {
  let old: Buffer | undefined;
  try {
    old = readFileSync(file);
  } catch {
    // a new file
  }
  if (old?.equals(content)) return false;
  writeFileSync(file, content);
  return true;
}

/** The newest modification time of the files the document is built from: src/ and the locked packages. */
function newestSource(): number {
  const files = readdirSync(path.join(ROOT, "src"), { recursive: true, encoding: "utf8" }).map((f) =>
    path.join(ROOT, "src", f),
  );
  return Math.max(...[...files, path.join(ROOT, "package-lock.json")].map((f) => statSync(f).mtimeMs));
}

/**
 * Builds the OpenAPI document when it is missing or older than a source (loading every router takes
 * seconds), in a process of its own: it loads the Worker's sources, which this file's importers don't.
 */
function buildOpenApiJson(): boolean {
  let built = 0;
  try {
    built = statSync(path.join(ASSETS_DIR, OPENAPI_PATH)).mtimeMs;
  } catch {
    // not built yet
  }
  if (built >= newestSource()) return false;
  execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/openapi-json.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return true;
}

/** Copies the files; returns how many it wrote. */
export function buildDocsAssets(): number {
  const require = createRequire(path.join(ROOT, "package.json"));
  const pkgFile = require.resolve("swagger-ui-dist/package.json");
  const from = path.dirname(pkgFile);
  const installed = JSON.parse(readFileSync(pkgFile, "utf8")).version as string;
  const root = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const pinned = root.devDependencies?.["swagger-ui-dist"] ?? root.dependencies?.["swagger-ui-dist"];
  if (pinned !== installed)
    throw new Error(`swagger-ui-dist ${installed} is installed but package.json pins ${pinned}: run npm ci.`);

  const to = path.join(ASSETS_DIR, DOCS_ASSETS_PATH);
  mkdirSync(to, { recursive: true });
  const files = new Map<string, Buffer>(SWAGGER_UI_FILES.map((f) => [f, readFileSync(path.join(from, f))]));
  files.set(DOCS_INIT_FILE, Buffer.from(DOCS_INIT_SCRIPT));
  let written = 0;
  for (const [name, content] of files) if (writeIfChanged(path.join(to, name), content)) written++;
  for (const name of readdirSync(to)) if (!files.has(name)) rmSync(path.join(to, name), { recursive: true });
  if (buildOpenApiJson()) written++;
  // The invoice PDFs' font lives in the same assets directory, and so do the phone numbering plans.
  if (buildInvoiceFont(ASSETS_DIR)) written++;
  if (copyPhoneMetadata(require)) written++;
  return written;
}

/** The asset's path under `public/` (PHONE_METADATA_PATH in src/modules/customers/phone.ts). */
const PHONE_METADATA_ASSET = "phone-metadata/mobile.json";

/**
 * libphonenumber-js's mobile numbering plans, which the Worker reads on its first phone number
 * instead of carrying them in its bundle (src/modules/customers/phone.ts).
 */
function copyPhoneMetadata(require: NodeJS.Require): boolean {
  const file = path.join(ASSETS_DIR, PHONE_METADATA_ASSET);
  mkdirSync(path.dirname(file), { recursive: true });
  return writeIfChanged(file, readFileSync(require.resolve("libphonenumber-js/metadata.mobile.json")));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const written = buildDocsAssets();
  process.stdout.write(
    `> docs assets: swagger-ui-dist and openapi.json into ${path.relative(ROOT, ASSETS_DIR)}/ (${written} updated)\n`,
  );
}
