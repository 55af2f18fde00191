/**
 * The D1 binding that counts, for the bench's Worker entries (bench/entry.ts, bench/subscriptions.ts):
 * every statement prepared (each one of a batch included) and every round trip (a batch, or a
 * statement run alone), its sessions' too. Written into .bench/ beside the entries, which import it.
 *
 * It can also delay every round trip by a fixed number of ms (bench/latency.ts: a primary far from
 * the Worker), awaited before the call goes to D1. Only the bench's entries use it.
 */
import { writeFileSync } from "node:fs";

const SOURCE = `export type Counts = { statements: number; roundTrips: number };

/**
 * A round trip: counted, then sent after \`delayMs\` (the time to a distant primary, awaited before the
 * call, so the statement runs on the data as it is once the delay is over, as it would at the primary).
 */
function trip<R>(counts: Counts, delayMs: number, call: () => Promise<R>): Promise<R> {
  counts.roundTrips++;
  return delayMs > 0 ? new Promise((r) => setTimeout(r, delayMs)).then(call) : call();
}

/** A statement whose runs (each a round trip) are counted and delayed, and so are those of its bound copies. */
function tripped(stmt: D1PreparedStatement, counts: Counts, delayMs: number): D1PreparedStatement {
  const s = stmt as unknown as Record<string, unknown>;
  for (const name of ["all", "raw", "first", "run"] as const) {
    const run = stmt[name].bind(stmt) as (...a: unknown[]) => Promise<unknown>;
    s[name] = (...a: unknown[]) => trip(counts, delayMs, () => run(...a));
  }
  const bind = stmt.bind.bind(stmt);
  s.bind = (...values: unknown[]) => tripped(bind(...values), counts, delayMs);
  return stmt;
}

/**
 * The binding counting every statement prepared (batched ones included) and every round trip, each
 * round trip delayed by \`delayMs\` (0: none); its sessions too.
 */
export function counted<T extends D1Database | D1DatabaseSession>(d1: T, counts: Counts, delayMs = 0): T {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare")
        return (q: string) => {
          counts.statements++;
          return tripped(target.prepare(q), counts, delayMs);
        };
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => trip(counts, delayMs, () => target.batch(statements));
      // The app reads and writes through a session per request (src/db/client.ts dbSession).
      if (prop === "withSession")
        return (c?: string) =>
          counted((target as D1Database).withSession(c as D1SessionConstraint), counts, delayMs);
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** The Worker's bindings with every D1 database counted (the directory and each shard), sharing \`counts\`. */
export function countedEnv<E extends object>(env: E, counts: Counts, delayMs = 0): E {
  const out: Record<string, unknown> = { ...env };
  for (const [name, binding] of Object.entries(env))
    if (name === "DIRECTORY" || /^SHARD_\\d+$/.test(name)) out[name] = counted(binding as D1Database, counts, delayMs);
  return out as E;
}
`;

/** Writes the module into `dir`; returns its name to import (without the extension). */
export function writeD1Counter(dir: string): string {
  writeFileSync(`${dir}/d1-counter.ts`, SOURCE);
  return "d1-counter";
}
