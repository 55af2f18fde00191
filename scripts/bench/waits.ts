/**
 * `--only waits`: the D1 round trips each operation's request waits for, one after another, as the
 * whole test suite calls them (TEST_D1_WAITS: test/helpers/d1-waits.ts meters every `call()`,
 * vitest.config.ts collects the lines). Per operation, over its 2xx answers: the most waits, those
 * beyond the token check, and the deferred calls (waitUntil) the response did not wait for.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { Hono } from "hono";
import { count, env, log, type Scenario } from "./harness";
import { WAIT_EXCEPTIONS } from "./waits-exceptions";

// Not literal paths, so that the scripts' type check (against Node) does not pull in the Worker's sources.
const tableModule = "../../src/route-table";
const documentModule = "../../src/openapi-document";

export const WAITS_FILE = resolve(".bench/d1-waits.jsonl");

type Line = { method: string; path: string; status: number; total: number; beyondAuth: number; deferred: number };
type Row = {
  op: string;
  method: string;
  route: string;
  calls: number;
  total: number;
  beyond: number;
  deferred: number;
};

/** The route each request took, as the app's router picks it. */
async function routeOf(lines: Line[]): Promise<Map<string, string>> {
  const { ROUTE_TABLE } = (await import(tableModule)) as {
    ROUTE_TABLE: Record<string, readonly (readonly [string, string])[]>;
  };
  const app = new Hono();
  for (const entries of Object.values(ROUTE_TABLE))
    for (const [method, path] of entries) if (method !== "ALL") app.on(method, path, (c) => c.text(path));
  const out = new Map<string, string>();
  for (const l of lines) {
    const key = `${l.method} ${l.path}`;
    if (out.has(key)) continue;
    const res = await app.request(l.path.endsWith("/") ? l.path : `${l.path}/`, { method: l.method });
    out.set(key, res.status === 200 ? await res.text() : "");
  }
  return out;
}

/** Writes and reads are judged apart: a GET is a read. */
const goalOf = (method: string) => (method === "GET" ? 1 : 2);

export const waits: Scenario = {
  name: "waits",
  heading: "## D1 waits per operation",
  goal:
    "a read waits for D1 at most once beyond the token check (the merchant token is held per isolate for 1 s, so a " +
    "warm merchant read is 1 in total); a write at most twice (one read batch, one guarded write batch); each " +
    "exception listed with its reason.",
  // A run of the test suite, not a measure of the served Worker.
  alone: true,
  async run() {
    rmSync(WAITS_FILE, { force: true });
    log("running the test suite with every request's D1 waits metered");
    try {
      execFileSync("npx", ["vitest", "run", "--project", "worker-*"], {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...env, TEST_D1_WAITS: WAITS_FILE },
      });
    } catch {
      log("the suite had failures; the waits of what ran are reported");
    }
    if (!existsSync(WAITS_FILE)) return ["No request was metered in this run."];
    const lines = readFileSync(WAITS_FILE, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Line);
    const routes = await routeOf(lines);
    const { createDocumentApp, OPENAPI_INFO } = (await import(documentModule)) as {
      createDocumentApp: () => Promise<{ getOpenAPI31Document: (c: object) => { paths?: Record<string, object> } }>;
      OPENAPI_INFO: object;
    };
    const doc = (await createDocumentApp()).getOpenAPI31Document({ ...OPENAPI_INFO, servers: [] });
    const rows: Row[] = [];
    for (const [path, methods] of Object.entries(doc.paths ?? {})) {
      const route = path.replaceAll(/\{([^}]+)\}/g, ":$1");
      for (const [m, op] of Object.entries(methods as Record<string, { operationId: string }>)) {
        const method = m.toUpperCase();
        const seen = lines.filter(
          (l) =>
            l.status < 300 &&
            routes.get(`${l.method} ${l.path}`) === route &&
            (l.method === method || (method === "GET" && l.method === "HEAD")),
        );
        const max = (f: (l: Line) => number) => (seen.length ? Math.max(...seen.map(f)) : Number.NaN);
        rows.push({
          op: op.operationId,
          method,
          route: path,
          calls: seen.length,
          total: max((l) => l.total),
          beyond: max((l) => l.beyondAuth),
          deferred: max((l) => l.deferred),
        });
      }
    }
    const measured = rows.filter((r) => r.calls > 0);
    const misses = measured.filter((r) => r.beyond > goalOf(r.method)).sort((a, b) => b.beyond - a.beyond);
    const cell = (n: number) => (Number.isNaN(n) ? "-" : String(n));
    const table = (rs: Row[]) => [
      "| operation | method | path | 2xx seen | waits | beyond token | deferred calls |",
      "|---|---|---|---:|---:|---:|---:|",
      ...rs.map(
        (r) =>
          `| ${r.op} | ${r.method} | \`${r.route}\` | ${count(r.calls)} | ${cell(r.total)} | ${cell(r.beyond)} | ${cell(r.deferred)} |`,
      ),
    ];
    // The misses with their reason (scripts/bench/waits-exceptions.ts).
    const explained = [
      "| operation | method | path | 2xx seen | waits | beyond token | deferred calls | why, and the next step |",
      "|---|---|---|---:|---:|---:|---:|---|",
      ...misses.map(
        (r) =>
          `| ${r.op} | ${r.method} | \`${r.route}\` | ${count(r.calls)} | ${cell(r.total)} | ${cell(r.beyond)} | ${cell(r.deferred)} | ${WAIT_EXCEPTIONS[r.op] ?? "**not explained yet**"} |`,
      ),
    ];
    const reads = measured.filter((r) => r.method === "GET");
    const writes = measured.filter((r) => r.method !== "GET");
    return [
      `Every request the test suite sends through \`call()\` (${count(lines.length)} in this run), metered: each D1 statement`,
      "or batch gets a depth one more than the deepest back when it was sent, so calls sent together count once; the",
      "request's waits are the deepest back before its response. Per operation the most over its 2xx answers.",
      "",
      `${measured.length} of ${rows.length} operations answered 2xx in the suite. Reads within 1 beyond the token check: ` +
        `**${reads.filter((r) => r.beyond <= 1).length} of ${reads.length}**; writes within 2: ` +
        `**${writes.filter((r) => r.beyond <= 2).length} of ${writes.length}**.`,
      "",
      "### Past the goal",
      "",
      ...(misses.length ? explained : ["None."]),
      "",
      "<details><summary>Every operation</summary>",
      "",
      ...table(rows),
      "",
      "</details>",
    ];
  },
};
