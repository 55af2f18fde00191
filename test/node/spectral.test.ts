import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// As in openapi-document.test.ts: not a literal, so that the Node type check leaves the Worker's sources out.
const documentModule = "../../src/openapi-document";
const audiencesModule = "../../src/openapi-audiences";
const { buildOpenApiDocument } = (await import(documentModule)) as {
  buildOpenApiDocument: (serverUrl: string) => Promise<Document>;
};
const { audienceDocument } = (await import(audiencesModule)) as {
  audienceDocument: (whole: Document, audience: string) => Document;
};
const whole = await buildOpenApiDocument("https://api.test");

type Operation = { tags?: string[] };
type Document = {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
};
type Finding = { code: string; message: string; path: (string | number)[]; severity: number };

const SEVERITY = ["error", "warn", "info", "hint"] as const;
const RULESET = fileURLToPath(new URL("../../.spectral.yaml", import.meta.url));
const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve("@stoplight/spectral-cli/package.json")), "dist/index.js");

/** Lints the document with the project's ruleset, as `spectral lint` does on the command line. */
function lint(doc: Document): Finding[] {
  const dir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const run = spawnSync(process.execPath, [CLI, "lint", file, "--ruleset", RULESET, "--format", "json", "--quiet"], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    // Spectral exits 1 when it finds errors; only a run without a JSON report is a failure of the run itself.
    const out = run.stdout.trim();
    if (!out.startsWith("[")) throw new Error(`spectral did not run (${run.status}): ${run.stderr}${out}`);
    return JSON.parse(out) as Finding[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const where = (f: Finding) => `${SEVERITY[f.severity]} ${f.code} at ${f.path.join(".")}: ${f.message}`;

it.each<[string, Document]>([
  ["whole", whole],
  ...["merchant", "customer", "public", "platform"].map((a): [string, Document] => [a, audienceDocument(whole, a)]),
])("the OpenAPI document (%s) lints with no errors and no warnings under spectral:oas", (_name, doc) => {
  const findings = lint(doc);
  const failing = findings.filter((f) => f.severity <= 1);
  const errors = failing.filter((f) => f.severity === 0).length;
  const report = `${errors} error(s), ${failing.length - errors} warning(s):\n${failing.slice(0, 60).map(where).join("\n")}`;
  expect(failing.map(where), report).toEqual([]);
});

it("describes every tag the operations and events use, and no other", async () => {
  const doc = whole;
  const used = new Set(
    [...Object.values(doc.paths), ...Object.values(doc.webhooks ?? {})].flatMap((methods) =>
      Object.values(methods).flatMap((op) => op.tags ?? []),
    ),
  );
  const declared = doc.tags ?? [];
  expect(declared.filter((t) => !t.description?.trim()).map((t) => t.name)).toEqual([]);
  expect(declared.map((t) => t.name).sort()).toEqual([...used].sort());
});
