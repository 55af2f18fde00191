import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { afterAll, beforeAll, expect, it } from "vitest";

// `npm run lint` checks src/ against .dependency-cruiser.cjs. This test checks the rules themselves on a
// small fixture tree: each rule fires on the layout it forbids and stays quiet on the layouts the design
// allows (a loosened regex or a broken "$1" back-reference would otherwise pass lint silently).

const config = createRequire(import.meta.url)("../../.dependency-cruiser.cjs");

const fixture: Record<string, string> = {
  "src/index.ts": 'import "./app";\nimport "./db/schema";\nimport "./elsewhere/job";\n',
  "src/app.ts":
    'import "./modules/a/index";\nimport "./modules/b/index";\nimport "./core/good";\nimport "./core/bad";\n',
  "src/env.ts": "export type Env = { name: string };\n",
  "src/types.d.ts": "declare const ambient: string;\n",
  "src/db/client.ts": "export const db = 1;\n",
  "src/db/schema.ts": 'export * from "../modules/a/tables";\nexport * from "../modules/b/res/tables";\n',
  // core may import itself, db/client, env and packages...
  "src/core/good.ts":
    'import "./other";\nimport "../db/client";\nimport type { Env } from "../env";\nimport "./missing";\n' +
    'import "./c1";\nexport type E = Env;\n',
  "src/core/other.ts": "export const other = 1;\n",
  // ...but no module.
  "src/core/bad.ts": 'import "../modules/a/service";\n',
  // A cycle closed by a type-only import still counts.
  "src/core/c1.ts": 'import type { C2 } from "./c2";\nexport type C1 = C2;\nexport const c1 = 1;\n',
  "src/core/c2.ts": 'import { c1 } from "./c1";\nexport type C2 = typeof c1;\n',
  "src/core/orphan.ts": "export const orphan = 1;\n",
  "src/modules/a/index.ts": 'import "./service";\nimport "./tables";\n',
  "src/modules/a/service.ts":
    'import "./tables";\nimport "../b/index";\nimport "../b/events";\nimport "../b/service";\n',
  "src/modules/a/tables.ts": "export const aTable = 1;\n",
  "src/modules/b/index.ts": 'import "./service";\n',
  "src/modules/b/service.ts": 'import "./res/tables";\nimport "../a/tables";\n',
  "src/modules/b/events.ts": "export const bEvents = 1;\n",
  "src/modules/b/res/tables.ts": "export const bTable = 1;\n",
  "src/elsewhere/job.ts": 'import "../modules/b/res/tables";\n',
};

let dir = "";
let result: ICruiseResult;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "dependency-rules-"));
  for (const [file, text] of Object.entries(fixture)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const { tsConfig: _projectOnly, ...options } = config.options;
  const reported = await cruise(
    ["src"],
    { ...options, baseDir: dir, validate: true, ruleSet: { forbidden: config.forbidden } },
    options.enhancedResolveOptions,
  );
  result = reported.output as ICruiseResult;
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("reports exactly the forbidden imports of the fixture", () => {
  const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  expect(found).toEqual(
    [
      "core-imports-no-module: src/core/bad.ts -> src/modules/a/service.ts",
      "modules-talk-through-index: src/modules/a/service.ts -> src/modules/b/service.ts",
      "modules-talk-through-index: src/modules/b/service.ts -> src/modules/a/tables.ts",
      "no-tables-across-modules: src/modules/b/service.ts -> src/modules/a/tables.ts",
      "no-tables-across-modules: src/elsewhere/job.ts -> src/modules/b/res/tables.ts",
      // One report per cycle; c1 -> c2 is the type-only edge, so type-only cycles do count.
      "no-circular: src/core/c1.ts -> src/core/c2.ts",
      "not-to-unresolvable: src/core/good.ts -> ./missing",
      "no-orphans: src/core/orphan.ts -> src/core/orphan.ts",
    ].sort(),
  );
});
