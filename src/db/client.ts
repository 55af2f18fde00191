import { drizzle } from "drizzle-orm/d1";
import type { Db } from "../env";

export type { Db };

type StatementObserver = (sql: string) => void;
let observer: StatementObserver | undefined;

/**
 * Lets tests count every statement a request sends to D1 (batched ones included), to prove that
 * it runs a bounded number of them. Returns the function that stops observing.
 */
export function observeStatements(fn: StatementObserver): () => void {
  observer = fn;
  return () => {
    observer = undefined;
  };
}

type RoundTripObserver = () => void;
let tripObserver: RoundTripObserver | undefined;

/**
 * Lets tests count a request's round trips to D1: each `batch()` is one, and so is each statement
 * run alone (`all`, `raw`, `first`, `run`). Returns the function that stops observing.
 */
export function observeRoundTrips(fn: RoundTripObserver): () => void {
  tripObserver = fn;
  return () => {
    tripObserver = undefined;
  };
}

const RUNS = ["all", "raw", "first", "run"] as const;

/** The statement itself (batch() takes only real statements), its runs and binds counted. */
function tripped(stmt: D1PreparedStatement, trip: RoundTripObserver): D1PreparedStatement {
  const s = stmt as unknown as Record<string, unknown>;
  for (const name of RUNS) {
    const run = stmt[name].bind(stmt) as (...a: unknown[]) => unknown;
    s[name] = (...a: unknown[]) => {
      trip();
      return run(...a);
    };
  }
  const bind = stmt.bind.bind(stmt);
  s.bind = (...values: unknown[]) => tripped(bind(...values), trip);
  return stmt;
}

function observed<T extends D1Database | D1DatabaseSession>(d1: T): T {
  const watch = observer;
  const trip = tripObserver;
  if (!watch && !trip) return d1;
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare")
        return (q: string) => {
          watch?.(q);
          const stmt = target.prepare(q);
          return trip ? tripped(stmt, trip) : stmt;
        };
      if (prop === "batch" && trip)
        return (statements: D1PreparedStatement[]) => {
          trip();
          return target.batch(statements);
        };
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

export function createDb(d1: D1Database | D1DatabaseSession): Db {
  // drizzle's D1 driver only calls prepare() and batch(), which a session has too.
  return drizzle(d1 as D1Database);
}

const READS = /^\s*(select|with)\b/i;
/** A write anywhere in a statement (a `WITH … INSERT`); column names such as `updated_at` do not match. */
const WRITES = /\binsert\s+(or\s+\w+\s+)?into\b|\bupdate\s+("[^"]+"|\w+)\s+set\b|\bdelete\s+from\b|\breplace\s+into\b/i;

/**
 * Whether a statement may change data: anything but a SELECT, or a WITH … SELECT that writes
 * nothing. What the request wrappers hold back (core/admission) or guard (core/idempotency).
 */
export const sendsWrite = (sql: string): boolean => !READS.test(sql) || WRITES.test(sql);

/** The D1 session (or database) a Db sends its statements to. */
export function clientOf(db: Db): D1Database | D1DatabaseSession {
  return (db as unknown as { $client: D1Database | D1DatabaseSession }).$client;
}

export const BOOKMARK_HEADER = "x-d1-bookmark";

/** Only request sessions are observed: the queue consumer's work runs beside the requests. */
export function observedDb(d1: D1Database | D1DatabaseSession): Db {
  return createDb(observed(d1));
}
