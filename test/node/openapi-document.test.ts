import { createHash } from "node:crypto";
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";

// The Worker's sources are typed against the Workers runtime, these Node tests against Node: the
// path is not a literal so that the Node type check does not pull the Worker's sources in.
const documentModule = "../../src/openapi-document";
type Document = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  webhooks: Record<string, unknown>;
};
const sharedPartsModule = "../../src/openapi-shared-parts";
const audiencesModule = "../../src/openapi-audiences";
const { buildOpenApiDocument, createDocumentApp, OPENAPI_INFO } = (await import(documentModule)) as {
  buildOpenApiDocument: (serverUrl: string) => Promise<Document>;
  createDocumentApp: () => Promise<{ getOpenAPI31Document: (config: object) => Document }>;
  OPENAPI_INFO: object;
};
const { inlineSharedParts } = (await import(sharedPartsModule)) as { inlineSharedParts: <D>(doc: D) => D };
const { audienceDocument } = (await import(audiencesModule)) as {
  audienceDocument: (whole: Document, audience: string) => Document;
};
const doc = await buildOpenApiDocument("https://api.test");

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

type Json = Record<string, any>;

/** (operation, status, code) for every problem code an operation declares. */
function answeredCodes(d: Document): string[] {
  const out: string[] = [];
  for (const [path, methods] of Object.entries(d.paths)) {
    for (const [method, op] of Object.entries(methods as Record<string, Json>)) {
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        const own = r.content?.["application/problem+json"]?.schema?.allOf?.[1]?.properties;
        for (const code of own?.code?.enum ?? []) out.push(`${method.toUpperCase()} ${path} ${status} ${code}`);
      }
    }
  }
  return out.sort();
}

/** What the generator writes and the shared parts drop on purpose: repeated, or defaults. */
function withoutRepeats(d: Document): Json {
  const copy = structuredClone(d) as Json;
  for (const methods of Object.values<Json>(copy.paths)) {
    for (const op of Object.values<Json>(methods)) {
      for (const r of Object.values<Json>(op.responses)) {
        const problem = r.content?.["application/problem+json"];
        if (problem) {
          delete problem.example;
          delete problem.examples;
        }
      }
      op.parameters = op.parameters?.map((p: Json) => {
        const { required, ...rest } = p;
        const out = required === false ? rest : { ...p };
        if (out.schema?.description === out.description) out.schema = { ...out.schema, description: undefined };
        return JSON.parse(JSON.stringify(out));
      });
    }
  }
  return copy.paths;
}

describe("the lean document", () => {
  const whole = createDocumentApp().then((app) =>
    app.getOpenAPI31Document({ ...OPENAPI_INFO, servers: [{ url: "https://api.test" }] }),
  );

  it("loses nothing: every operation answers the same codes per status, and says the same otherwise", async () => {
    const generated = await whole;
    const inlined = inlineSharedParts(doc);
    expect(answeredCodes(inlined)).toEqual(answeredCodes(generated));
    expect(answeredCodes(inlined).length).toBeGreaterThan(2000);
    expect(withoutRepeats(inlined)).toEqual(withoutRepeats(generated));
  });

  it("has an example of every code each problem response declares, with that code and status", async () => {
    const components = doc.components as Record<string, Record<string, Json>>;
    for (const [name, response] of Object.entries(components.responses!)) {
      const content = response.content?.["application/problem+json"];
      if (!content) continue;
      const own = content.schema.allOf[1].properties;
      expect(Object.keys(content.examples).sort(), name).toEqual([...own.code.enum].sort());
      for (const [code, ref] of Object.entries<Json>(content.examples)) {
        const example = components.examples![ref.$ref.split("/").pop()]!.value;
        expect(example, name).toMatchObject({
          code,
          status: own.status.enum[0],
          type: expect.stringContaining("/problems/"),
        });
      }
    }
  });

  /**
   * The whole document cannot fall under 1 MB without losing what it says: its 3,800 parameter and
   * 2,600 response references alone are 340 KB (docs/benchmarks.md). The budgets keep it from growing back.
   */
  it("stays within its size budget, and each audience's document within 1.2 MB", async () => {
    const bytes = (d: unknown) => JSON.stringify(d).length;
    expect(bytes(doc)).toBeLessThan(1_700_000);
    for (const audience of ["merchant", "customer", "public", "platform"])
      expect(bytes(audienceDocument(doc, audience)), audience).toBeLessThan(1_200_000);
  });
});

describe("the audiences' documents", () => {
  it("hold every operation once between them, each with the components it references", async () => {
    const seen: string[] = [];
    for (const audience of ["merchant", "customer", "public", "platform"]) {
      const part = audienceDocument(doc, audience);
      for (const [path, methods] of Object.entries(part.paths))
        for (const m of Object.keys(methods)) seen.push(`${m} ${path}`);
      const text = JSON.stringify(part);
      for (const ref of new Set(text.match(/#\/components\/[^"]+/g) ?? [])) {
        const [kind, name] = ref.slice("#/components/".length).split("/") as [string, string];
        expect((part.components as Json)[kind]?.[name], `${audience}: ${ref}`).toBeDefined();
      }
      const result = await validate(structuredClone(part) as never);
      expect(result.valid ? [] : result.errors, audience).toEqual([]);
    }
    const all = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`));
    expect(seen.sort()).toEqual(all.sort());
  });
});

it("puts every tag in one audience's group, and names none after another", async () => {
  const { ungroupedTags } = (await import("../../src/core/document")) as { ungroupedTags: () => string[] };
  expect(ungroupedTags()).toEqual([]);
  const groups = (doc as unknown as { "x-tagGroups": { name: string; tags: string[] }[] })["x-tagGroups"];
  expect(groups.map((g) => g.name)).toEqual([
    "Merchant",
    "Customer app",
    "Public and meals",
    "Platform",
    "Events and meta",
  ]);
  // Near-duplicates: two tags the same once their audience prefix and plural are set aside.
  const bare = (t: string) =>
    t
      .toLowerCase()
      .replace(/^[^:]*: /, "")
      .replace(/s\b/g, "");
  const tags = groups.flatMap((g) => g.tags);
  const clashes = tags.filter((t, i) =>
    tags.some((u, j) => j !== i && bare(u) === bare(t) && !t.includes(":") && !u.includes(":")),
  );
  expect(clashes).toEqual([]);
});
