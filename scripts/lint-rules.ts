/**
 * The rules of CONTRIBUTING.md that Biome and dependency-cruiser cannot express, run by `npm run lint`:
 *
 * 1. No soft-delete filter written outside src/core/: the live rows of a store are `live()`,
 *    `liveOffIndex()` or `notDeleted()` in drizzle and `liveRow()` or `notDeletedRow()` in raw SQL
 *    (src/core/crud/tenant-table.ts), so the rule is written once and every read keeps it.
 * 2. No hand-written file past 400 lines in src/, scripts/ and test/ (CONTRIBUTING.md says why).
 *
 * Each finding names the file, the line and what to use instead; the exit code is 1 when any is found.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const CODE = /\.(ts|tsx|js|mjs|cjs)$/;

/**
 * Files that hold a known breach while another change removes it; each entry says which. A file
 * listed here may not grow past its figure (the length check) or gain a filter (the filter check).
 */
const PENDING: Record<string, { lines?: number; filters?: number; until: string }> = {};

/** Line limits by folder; what is not code (SQL migrations, JSON, TSV, Markdown) is data, not counted. */
const LIMITS: { dir: string; max: number }[] = [
  { dir: "src", max: 400 },
  { dir: "scripts", max: 400 },
  { dir: "test", max: 400 },
  { dir: "sdk/src", max: 400 },
];

/** Generated files inside those folders, each with its generator. */
const GENERATED = new Set<string>([
  "src/route-table.ts", // npm run route-table (scripts/route-table.ts)
  "sdk/src/schema.ts", // npm run clients (scripts/clients.ts)
  "sdk/src/operations.ts", // npm run clients (scripts/clients.ts)
]);

/**
 * Soft-delete filters as services write them by hand: `eq(t.isDeleted, false)`, `${t.isDeleted} = 0`,
 * `s.is_deleted = 0` in raw SQL. Setting the column (`isDeleted: true`, `softDeleted()`), reading it
 * back (`is_deleted: r.isDeleted`) and the tables' definitions (partial indexes included) are not filters.
 */
const FILTERS: { pattern: RegExp; use: string }[] = [
  {
    pattern: /\b(?:eq|ne)\(\s*[\w.]+\.isDeleted\b/g,
    use: "live(table, appId), or notDeleted(table) when the store is fixed",
  },
  {
    pattern: /\$\{\s*[\w.]+\.isDeleted\s*\}\s*(?:=|<>|!=|IS\b)/gi,
    use: "liveRow(appId, table) or notDeletedRow(table)",
  },
  {
    pattern: /\+?\b(?:\w+\.)?is_deleted\s*(?:=|<>|!=|IS\b)/gi,
    use: 'liveRow(appId, "alias") or notDeletedRow("alias")',
  },
];

/** Where the filter rule does not look: core writes the helpers, db/ and tables.ts define the column. */
const FILTER_EXEMPT = [/^src\/core\//, /^src\/db\//, /(^|\/)tables\.ts$/];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && CODE.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

const problems: string[] = [];
const notes: string[] = [];

for (const { dir, max } of LIMITS) {
  for (const file of files(dir)) {
    if (GENERATED.has(file)) continue;
    const text = readFileSync(join(ROOT, file), "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const pending = PENDING[file]?.lines;
    if (lines <= max) continue;
    if (pending !== undefined && lines <= pending) {
      notes.push(`${file}: ${lines} lines, allowed until ${PENDING[file]!.until}`);
      continue;
    }
    problems.push(`${file}: ${lines} lines, past the ${max} of ${dir}/ (split it by resource or concern)`);
  }
}

for (const file of files("src")) {
  if (FILTER_EXEMPT.some((r) => r.test(file))) continue;
  const text = readFileSync(join(ROOT, file), "utf8");
  const found: string[] = [];
  for (const { pattern, use } of FILTERS) {
    for (const m of text.matchAll(pattern)) {
      found.push(`${file}:${lineOf(text, m.index)}: soft-delete filter "${m[0].trim()}" written by hand; use ${use}`);
    }
  }
  const pending = PENDING[file]?.filters;
  if (pending !== undefined && found.length <= pending) {
    if (found.length)
      notes.push(`${file}: ${found.length} hand-written filters, allowed until ${PENDING[file]!.until}`);
    continue;
  }
  problems.push(...found);
}

for (const note of notes) console.log(`lint-rules: pending: ${note}`);
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(
    `lint-rules: ${problems.length} problem(s); the rules are in CONTRIBUTING.md ("Layers and their rules").`,
  );
  process.exit(1);
}
console.log("lint-rules: no hand-written soft-delete filter outside src/core/, no file past its line limit");
