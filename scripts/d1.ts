import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Quotes a value as an SQL literal. */
export function lit(v: string | number | boolean | null | undefined | object): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return v ? "1" : "0";
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return `'${s.replaceAll("'", "''")}'`;
}

const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: "false" };

/** `D1_PERSIST_TO` points these helpers at another local state folder (the benchmark uses its own). */
const persist = () => (process.env.D1_PERSIST_TO ? ["--persist-to", process.env.D1_PERSIST_TO] : []);

/** Runs SQL against the local D1 database that `wrangler dev` uses; wrangler's chatter goes to stderr only on failure. */
export function executeLocal(sqlText: string): void {
  const dir = mkdtempSync(join(tmpdir(), "d1-"));
  const file = join(dir, "run.sql");
  writeFileSync(file, sqlText);
  try {
    execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", ...persist(), "--file", file], {
      stdio: ["ignore", "pipe", "pipe"],
      env: wranglerEnv,
    });
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(err.stdout?.toString() ?? "");
    process.stderr.write(err.stderr?.toString() ?? "");
    throw new Error("wrangler d1 execute failed (have the migrations been applied? npm run db:migrate:local)");
  }
}

/** Runs one query against local D1 and returns its rows. */
export function queryLocal<T>(sqlText: string): T[] {
  const out = execFileSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", ...persist(), "--json", "--command", sqlText],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: wranglerEnv,
    },
  ).toString();
  const parsed = JSON.parse(out) as { results: T[] }[];
  return parsed[0]?.results ?? [];
}
