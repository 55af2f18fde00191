import { createHash } from "node:crypto";
import { validate } from "@readme/openapi-parser";
import { expect, it } from "vitest";

// The Worker's sources are typed against the Workers runtime, these Node tests against Node: the
// path is not a literal so that the Node type check does not pull the Worker's sources in.
const documentModule = "../../src/openapi-document";
type Document = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  webhooks: Record<string, unknown>;
};
const { createDocumentApp, OPENAPI_INFO } = (await import(documentModule)) as {
  createDocumentApp: () => Promise<{ getOpenAPI31Document: (config: object) => Document }>;
  OPENAPI_INFO: object;
};
const doc = (await createDocumentApp()).getOpenAPI31Document({
  ...OPENAPI_INFO,
  servers: [{ url: "https://api.test" }],
});

it("the OpenAPI document validates as OpenAPI 3.1", async () => {
  const result = await validate(structuredClone(doc) as never);
  expect(result.valid ? [] : result.errors, JSON.stringify(result, null, 2).slice(0, 3000)).toEqual([]);
  expect(doc.openapi).toBe("3.1.0");
});

const sha = (x: unknown, n = 64) => createHash("sha256").update(JSON.stringify(x)).digest("hex").slice(0, n);

/**
 * The document, byte for byte, is the recorded one: its hash, then one line per operation, event
 * and component, so that a change shows where it is. A change on purpose updates the record
 * (`npx vitest run test/node/openapi-document.test.ts -u`) in the same commit.
 */
it("is the recorded document, byte for byte", async () => {
  const lines = [`document ${sha(doc)} ${JSON.stringify(doc).length} bytes`];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) lines.push(`${method.toUpperCase()} ${path} ${sha(op, 16)}`);
  }
  for (const [name, hook] of Object.entries(doc.webhooks)) lines.push(`webhook ${name} ${sha(hook, 16)}`);
  for (const [kind, all] of Object.entries(doc.components)) {
    for (const [name, c] of Object.entries(all)) lines.push(`${kind} ${name} ${sha(c, 16)}`);
  }
  const { paths: _p, components: _c, webhooks: _w, ...rest } = doc;
  lines.push(`the rest ${sha(rest, 16)}`);
  await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("./__snapshots__/openapi-document.txt");
});
