/**
 * The D1 round trips a request waits for, one after another (`npm run bench -- --only waits`, which
 * runs the suite with TEST_D1_WAITS set): `call()` hands the Worker a D1 binding that gives each
 * statement or batch a depth, one more than the deepest that had come back when it was sent. Calls
 * sent together (Promise.all), or one after another without waiting for an answer, share a depth
 * (answers come back in rounds, when the request has nothing else to do: below); the request's
 * waits are the deepest depth back before its response. Work deferred with waitUntil (the events'
 * send, below) is counted apart. The checks held per isolate (merchant token, customer standing, the
 * store's existence) are told apart: a warm isolate makes none of them.
 */
export type Waits = { total: number; beyondAuth: number; deferred: number; statements: number };

const RUNS = ["all", "raw", "first", "run"] as const;

/** Turns of the event loop without a statement sent after which a round's answers come back. */
const QUIET_TURNS = 10;
/**
 * The statements of the events' send, which runs after the response (core/events/outbox.ts
 * `publish`, ctx.waitUntil): the webhook deliveries recorded before the send, the outbox rows
 * marked sent; and a sales channel connection's events copied into its stores' shard outboxes and
 * marked delivered in the directory (modules/sales-channels/event-deliveries.ts). Deferred work starts while the handler still runs, so it is told apart by what it
 * runs: it never counts as a wait, whenever it comes back.
 */
const SQL_OF = Symbol("sql");

const DEFERRED =
  /^insert into "outbox_events" .* on conflict do nothing returning|^update "sales_channel_event_deliveries" set "delivered_at"|^(batch of 1: )?update "outbox_events" set "enqueued_at"|^(batch of 1: )?update "idempotency_keys" set "state" = \?, "response_status"|^update "merchant_api_tokens" set "last_used_at"|^batch of 1: INSERT INTO "webhook_deliveries" .* FROM json_each/is;

/** The checks held per isolate: the merchant token, the customer's standing, the store's existence (core/tenancy). */
export const HELD_CHECKS =
  /from "merchant_api_tokens" inner join "apps"|select "is_blocked" from "customers"|^select "id", "shard", "suspended_at" from "apps" where "apps"\."id" = \?$/i;

/** The D1 bindings a meter wraps: the directory and every shard (src/db/shards.ts). */
const D1_BINDING = /^(DIRECTORY|SHARD_\d+)$/;

/**
 * A meter over every D1 binding of `bindings` (one depth for all: a request's directory read and
 * its shard's statements are waits one after another); `env` is what the Worker gets, `db` one
 * database metered (`d1`, for a test that calls a service itself).
 */
export function waitsMeter(d1?: D1Database) {
  let deepest = { total: 0, beyondAuth: 0 };
  let stopped = false;
  let deferred = 0;
  let statements = 0;
  /** Each round trip's depth and SQL, for finding which ones a request could fold. */
  const trace: { depth: number; sql: string }[] = [];
  // Answers are handed back in rounds, once the request has gone quiet: none of its other calls
  // (a rate limiter, KV, a queue: `io()`) under way, and QUIET_TURNS turns of the event loop with no
  // statement sent. Whatever it sends without waiting for an answer goes out before any answer comes
  // back, as at a primary tens of ms away, however slow the machine or the other calls are.
  let sent = 0;
  let otherCalls = 0;
  let held: (() => void)[] = [];
  let settling = false;
  const settle = async () => {
    if (settling) return;
    settling = true;
    let seen = -1;
    for (let quiet = 0; quiet < QUIET_TURNS; ) {
      await new Promise((r) => setTimeout(r, 0));
      if (sent === seen && otherCalls === 0) quiet++;
      else [seen, quiet] = [sent, 0];
    }
    settling = false;
    const round = held;
    held = [];
    // Every depth of the round first, then the callers: what they send next is one deeper.
    for (const release of round) release();
  };
  /** A binding whose calls keep the request busy (not quiet) until they are answered. */
  const io = <T extends object>(binding: T): T =>
    new Proxy(binding, {
      get(t, prop) {
        const v = Reflect.get(t, prop, t);
        if (typeof v !== "function") return v;
        return (...a: unknown[]) => {
          const out = (v as (...a: unknown[]) => unknown).apply(t, a);
          if (!(out instanceof Promise)) return out;
          otherCalls++;
          return out.finally(() => {
            otherCalls--;
          });
        };
      },
    });
  /** Runs one round trip at the depth its start gives, and records its depth when it comes back. */
  const trip = async <T>(auth: boolean, run: () => Promise<T>, sql: string): Promise<T> => {
    if (DEFERRED.test(sql)) {
      deferred++;
      return run();
    }
    sent++;
    const depth = { total: deepest.total + 1, beyondAuth: deepest.beyondAuth + (auth ? 0 : 1) };
    trace.push({ depth: depth.total, sql });
    const back = () => {
      if (stopped) deferred++;
      else
        deepest = {
          total: Math.max(deepest.total, depth.total),
          beyondAuth: Math.max(deepest.beyondAuth, depth.beyondAuth),
        };
    };
    const answer = await run().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    let resume!: () => void;
    const released = new Promise<void>((r) => {
      resume = r;
    });
    held.push(() => {
      back();
      resume();
    });
    void settle();
    await released;
    if ("error" in answer) throw answer.error;
    return answer.value;
  };
  const metered = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const s = stmt as unknown as Record<string | symbol, unknown>;
    // On the statement itself, so that a proxy around it (core/idempotency.ts) reads it through.
    s[SQL_OF] = sql;
    for (const name of RUNS) {
      const run = stmt[name].bind(stmt) as (...a: unknown[]) => Promise<unknown>;
      s[name] = (...a: unknown[]) => {
        statements++;
        return trip(HELD_CHECKS.test(sql), () => run(...a), sql);
      };
    }
    const bind = stmt.bind.bind(stmt);
    s.bind = (...values: unknown[]) => metered(bind(...values), sql);
    return stmt;
  };
  const database = <T extends D1Database | D1DatabaseSession>(target: T): T =>
    new Proxy(target, {
      get(t, prop) {
        if (prop === "prepare") return (sql: string) => metered(t.prepare(sql), sql);
        if (prop === "batch")
          return (list: D1PreparedStatement[]) => {
            statements += list.length;
            return trip(
              false,
              () => t.batch(list),
              `batch of ${list.length}: ${list.map((x) => (x as unknown as Record<symbol, string>)[SQL_OF]).join(" ; ")}`,
            );
          };
        if (prop === "withSession") return (constraint?: string) => database((t as D1Database).withSession(constraint));
        const v = Reflect.get(t, prop, t);
        return typeof v === "function" ? v.bind(t) : v;
      },
    });
  const wrapped = new Map<PropertyKey, unknown>();
  return {
    db: d1 ? database(d1) : (undefined as unknown as D1Database),
    io,
    /** `bindings` with each D1 binding metered, and its other bindings' calls keeping the request busy (`io`). */
    env: <E extends object>(bindings: E): E =>
      new Proxy(bindings, {
        get(t, p) {
          const v = Reflect.get(t, p);
          if (typeof p !== "string" || v === null || typeof v !== "object") return v;
          if (!D1_BINDING.test(p)) return io(v);
          if (!wrapped.has(p)) wrapped.set(p, database(v as unknown as D1Database));
          return wrapped.get(p);
        },
        ownKeys: (t) => Reflect.ownKeys(t),
        getOwnPropertyDescriptor: (t, p) => Reflect.getOwnPropertyDescriptor(t, p),
      }),
    /** The waits so far: called when the response is back; later calls are deferred work. */
    stop(): Omit<Waits, "deferred" | "statements"> {
      stopped = true;
      return deepest;
    },
    /** The deferred calls and all statements, once the deferred work is done. */
    after: () => ({ deferred, statements }),
    trace: () => trace,
  };
}
