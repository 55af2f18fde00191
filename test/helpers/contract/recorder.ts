import { env } from "cloudflare:workers";

/**
 * The Worker's bindings with a D1 that records every statement it runs, and how many rows each
 * changed, for the contract suite's "a refused request changes nothing": read from what ran rather
 * than from two snapshots of every tenant table. A statement is recorded when it has run (alone or
 * in a batch), not when it is prepared: a service may build a batch and throw before sending it. A
 * guarded write that matched no row changed nothing, and so did every statement of a batch that
 * failed (a guard aborts the whole batch).
 */
export type Ran = { sql: string; changes: number };
export type StatementRecorder = {
  /** The bindings to hand to `call()`. */
  env: Env;
  /** The statements run since the last `take()`, and forgets them. */
  take(): Ran[];
};

const RUNS = ["all", "raw", "first", "run"] as const;

/** The rows a statement changed, from what its run returned (a write's RETURNING rows, else D1's count). */
function changesOf(run: (typeof RUNS)[number], result: unknown): number {
  if (run === "raw") return Array.isArray(result) ? result.length : 0;
  if (run === "first") return result ? 1 : 0;
  return (result as D1Result | undefined)?.meta?.changes ?? 0;
}

export function recordingEnv(): StatementRecorder {
  let ran: Ran[] = [];
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  /** The statement itself, its runs recorded, and those of the statements its `bind` returns. */
  const recorded = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    sqlOf.set(stmt, sql);
    const s = stmt as unknown as Record<string, unknown>;
    for (const name of RUNS) {
      const run = stmt[name].bind(stmt) as (...a: unknown[]) => Promise<unknown>;
      s[name] = async (...a: unknown[]) => {
        try {
          const result = await run(...a);
          ran.push({ sql, changes: changesOf(name, result) });
          return result;
        } catch (error) {
          ran.push({ sql, changes: 0 });
          throw error;
        }
      };
    }
    const bind = stmt.bind.bind(stmt);
    s.bind = (...values: unknown[]) => recorded(bind(...values), sql);
    return stmt;
  };
  const database = <T extends D1Database | D1DatabaseSession>(d1: T): T =>
    new Proxy(d1, {
      get(target, prop) {
        if (prop === "prepare") return (sql: string) => recorded(target.prepare(sql), sql);
        if (prop === "batch")
          return async (statements: D1PreparedStatement[]) => {
            const sqls = statements.map((s) => sqlOf.get(s) ?? "(a statement prepared elsewhere)");
            try {
              const results = await target.batch(statements);
              for (const [i, sql] of sqls.entries()) ran.push({ sql, changes: results[i]?.meta?.changes ?? 0 });
              return results;
            } catch (error) {
              for (const sql of sqls) ran.push({ sql, changes: 0 });
              throw error;
            }
          };
        if (prop === "exec")
          return async (sql: string) => {
            // exec() says nothing of the rows it changed: counted as changing some.
            ran.push({ sql, changes: 1 });
            return (target as D1Database).exec(sql);
          };
        if (prop === "withSession")
          return (constraint?: string) => database((target as D1Database).withSession(constraint));
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
  // Every D1 binding (the directory and the shards) records into the same list.
  const wrapped = new Map<PropertyKey, unknown>();
  return {
    env: new Proxy(env, {
      get(target, prop) {
        const v = Reflect.get(target, prop);
        if (typeof prop !== "string" || !/^(DIRECTORY|SHARD_\d+)$/.test(prop)) return v;
        if (!wrapped.has(prop)) wrapped.set(prop, database(v as D1Database));
        return wrapped.get(prop);
      },
    }),
    take() {
      const out = ran;
      ran = [];
      return out;
    },
  };
}

/** A statement that may change rows (a CTE ahead of it included). */
const WRITE = /^\s*(with\b[\s\S]*?\)\s*)?(insert|update|delete|replace)\b/i;

/** The write statements that ran, whether or not they changed a row. */
export function writesOf(statements: Ran[]): Ran[] {
  return statements.filter((s) => WRITE.test(s.sql));
}

/** The write statements that changed rows. */
export function changedRows(statements: Ran[]): string[] {
  return writesOf(statements)
    .filter((s) => s.changes > 0)
    .map((s) => s.sql);
}
