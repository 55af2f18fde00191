import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ROOT, WRANGLER, WRANGLER_ENV } from "./processes";

/** Quotes a value as an SQL literal. */
export function lit(v: string | number | boolean | null | undefined | object): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return v ? "1" : "0";
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return `'${s.replaceAll("'", "''")}'`;
}

/** `D1_PERSIST_TO` points these helpers at another local state folder (the benchmark uses its own). */
const persist = () => (process.env.D1_PERSIST_TO ? ["--persist-to", process.env.D1_PERSIST_TO] : []);
/** Where wrangler keeps the local D1 files. */
export const localStateDir = () => resolve(ROOT, process.env.D1_PERSIST_TO ?? join(".wrangler", "state"));

/**
 * The processes other than this one with a file of `dir` open (Linux: /proc; elsewhere none are
 * found). A `wrangler dev` or `npm start` left running in this folder is the usual one.
 */
export function holdersOf(dir: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return found;
  }
  for (const pid of pids) {
    try {
      const fds = readdirSync(`/proc/${pid}/fd`);
      if (!fds.some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(`${dir}/`))) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      found.push({ pid: Number(pid), command: command.length > 120 ? `${command.slice(0, 117)}...` : command });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/**
 * What to tell the developer when `wrangler d1 execute` failed, from what it printed: the cause it
 * names, and only then a hint that fits it (never "apply the migrations" for a database that has
 * its tables).
 */
export function d1FailureCause(output: string, holders: { pid: number; command: string }[] = []): string {
  const error = /\[ERROR\]\s*(.+)/.exec(output)?.[1]?.trim() ?? output.trim().split("\n").at(-1) ?? "no output";
  const lines = [`wrangler d1 execute failed: ${error}`];
  if (holders.length)
    lines.push(
      "Another process has the local D1 files open; stop it and run the command again:",
      ...holders.map((h) => `  kill ${h.pid}    # ${h.command}`),
    );
  if (/no such table/i.test(error))
    lines.push("The local database lacks a table: apply the migrations (npm run db:migrate:local).");
  else if (/database is locked|SQLITE_BUSY/i.test(error))
    lines.push("The local database was locked by another writer (see the processes above, if any).");
  else if (/false == true/.test(error))
    lines.push(
      "wrangler's local D1 returned no result for the batch (its own assertion). The migrations are not",
      "the cause; a process holding the local D1 files is (see above), or the run was interrupted.",
    );
  return lines.join("\n");
}

/**
 * The D1 bindings wrangler.toml declares, in its order (docs/shards.md): the directory and every
 * shard, each with the migrations folder applied to it.
 */
export function d1Bindings(config = join(ROOT, "wrangler.toml")): { binding: string; migrationsDir: string }[] {
  const blocks = readFileSync(config, "utf8")
    .split(/^\[\[d1_databases\]\]$/m)
    .slice(1);
  return blocks.map((block) => {
    const field = (name: string) => new RegExp(`^${name} = "([^"]*)"`, "m").exec(block)?.[1];
    const binding = field("binding");
    if (!binding) throw new Error(`wrangler.toml: a [[d1_databases]] block without a binding`);
    return { binding, migrationsDir: field("migrations_dir") ?? "migrations" };
  });
}

/** The shard bindings (`SHARD_1`, ...), in wrangler.toml's order. */
export const shardBindings = () =>
  d1Bindings()
    .map((b) => b.binding)
    .filter((b) => /^SHARD_\d+$/.test(b));

/** The arguments of `wrangler d1 migrations apply` for every database, `--local` or `--remote`. */
export function migrationCommands(where: "--local" | "--remote", extra: string[] = []): string[][] {
  return d1Bindings().map(({ binding }) => ["d1", "migrations", "apply", binding, where, ...extra]);
}

function wrangler(args: string[], database = "SHARD_1"): string {
  try {
    return execFileSync(WRANGLER, ["d1", "execute", database, "--local", ...persist(), ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: WRANGLER_ENV,
    }).toString();
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer };
    const output = `${err.stdout?.toString() ?? ""}${err.stderr?.toString() ?? ""}`;
    throw new Error(d1FailureCause(output, holdersOf(localStateDir())));
  }
}

/**
 * Runs SQL against a local D1 database that `wrangler dev` uses (by its binding: store 1's shard
 * unless told); wrangler's chatter is shown only on failure.
 */
export function executeLocal(sqlText: string, database = "SHARD_1"): void {
  const dir = mkdtempSync(join(tmpdir(), "d1-"));
  const file = join(dir, "run.sql");
  writeFileSync(file, sqlText);
  wrangler(["--file", file], database);
}

/** Runs one query against a local D1 database (store 1's shard unless told) and returns its rows. */
export function queryLocal<T>(sqlText: string, database = "SHARD_1"): T[] {
  const parsed = JSON.parse(wrangler(["--json", "--command", sqlText], database)) as { results: T[] }[];
  return parsed[0]?.results ?? [];
}
