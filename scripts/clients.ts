/**
 * Regenerates what is made for the API's clients from its OpenAPI document, and writes the files
 * that changed:
 *   npm run clients      the SDK's types and operations (sdk/src) and the request collection
 *   npm run collection   the request collection only (collection/)
 * test/node/clients-generated.test.ts fails while a checked-in file differs from what this makes.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { COLLECTION_DIR, collectionFiles } from "./clients/collection.js";
import { sdkFiles } from "./clients/sdk-files.js";

const ROOT = path.join(import.meta.dirname, "..");
// Not a literal, so that the scripts' type check (Node's) leaves the Worker's sources out.
const documentModule = "../src/openapi-document.js";

/** The document the generated files come from (its server is not part of any of them). */
export async function clientDocument(): Promise<Record<string, any>> {
  const { buildOpenApiDocument } = (await import(documentModule)) as {
    buildOpenApiDocument: (serverUrl: string) => Promise<Record<string, any>>;
  };
  return buildOpenApiDocument("http://127.0.0.1:8787");
}

/** Every generated file, by path from the repository's root. */
export async function generatedFiles(doc: Record<string, any>, only?: "collection") {
  return { ...(only ? {} : await sdkFiles(doc)), ...collectionFiles(doc) };
}

/** The `.http` files on disk, so that an operation's tag that is gone takes its file with it. */
export function collectionOnDisk(): string[] {
  const dir = path.join(ROOT, COLLECTION_DIR);
  try {
    return readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".http"))
      .map((f) => `${COLLECTION_DIR}/${f.replaceAll(path.sep, "/")}`);
  } catch {
    return [];
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2] === "collection" ? "collection" : undefined;
  const files = await generatedFiles(await clientDocument(), only);
  for (const stale of collectionOnDisk().filter((f) => !(f in files))) {
    rmSync(path.join(ROOT, stale));
    console.log(`removed ${stale}`);
  }
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(ROOT, file);
    let old: string | undefined;
    try {
      old = readFileSync(full, "utf8");
    } catch {
      // new
    }
    if (old === text) continue;
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
    console.log(`wrote ${file}`);
  }
}
