import { clientOf, createDb, type Db, sendsWrite } from "../db/client";

/**
 * Writes that wait for a request's admission (its store live, its customer neither blocked nor
 * deleted), so that the handler's reads go out beside the admission's own: one round trip for both,
 * not one after the other. A statement that may write (`sendsWrite`) is sent only once the
 * admission passed; a refusal rejects it with the refusal itself. After `settle()` (the response is
 * decided) statements pass through: deferred work runs after an admitted request only.
 *
 * Only for handlers that send nothing but D1 before their first write (a provider's call or a
 * queue's send does not wait): the customer routes' reads, and the routes that opt into the
 * Idempotency-Key claim `with-first-read`, which promise the same.
 */
const RUNS = ["all", "raw", "first", "run"] as const;

/** The Db under each gated one, for what must go out before the admission (the key's claim). */
const ungatedOf = new WeakMap<Db, Db>();

export function writesAfterAdmission(db: Db, admitted: Promise<void>): { db: Db; settle: () => void } {
  const session = clientOf(db);
  let settled = false;
  const pass = () => (settled ? undefined : admitted);
  // Marked in place, not proxied: batch() takes only real statements.
  const writes = new WeakSet<D1PreparedStatement>();
  const gated = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const s = stmt as unknown as Record<string, unknown>;
    for (const name of RUNS) {
      const run = stmt[name].bind(stmt) as (...a: unknown[]) => Promise<unknown>;
      s[name] = async (...a: unknown[]) => {
        await pass();
        return run(...a);
      };
    }
    const bind = stmt.bind.bind(stmt);
    s.bind = (...values: unknown[]) => gated(bind(...values));
    writes.add(stmt);
    return stmt;
  };
  const wrapped = new Proxy(session, {
    get(target, prop) {
      if (prop === "prepare") return (q: string) => (sendsWrite(q) ? gated(target.prepare(q)) : target.prepare(q));
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          if (statements.some((s) => writes.has(s))) await pass();
          return target.batch(statements);
        };
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const gatedDb = createDb(wrapped);
  ungatedOf.set(gatedDb, db);
  return {
    db: gatedDb,
    settle: () => {
      settled = true;
    },
  };
}

/** `db` without its admission's gate: for a write that must go out beside the first reads. */
export function beforeAdmission(db: Db): Db {
  return ungatedOf.get(db) ?? db;
}
