import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { waitsMeter } from "../helpers/d1-waits";

/**
 * The waits meter counts round trips by what a request waited for, not by the pace of the machine
 * or of its other calls: a statement sent without waiting for an answer shares its round trip with
 * the ones before it, even when the request awaited something else (a limiter, KV) in between, and
 * even when D1 had answered meanwhile.
 */

/** env.DB, and a promise settled once D1 really answered the first statement sent through it. */
function answering() {
  let answered!: () => void;
  const firstAnswered = new Promise<void>((r) => {
    answered = r;
  });
  const d1 = new Proxy(env.DB, {
    get(t, prop) {
      if (prop === "prepare")
        return (sql: string) => {
          const stmt = t.prepare(sql);
          const first = stmt.first.bind(stmt);
          (stmt as unknown as Record<string, unknown>).first = async () => {
            const row = await first();
            answered();
            return row;
          };
          return stmt;
        };
      const v = Reflect.get(t, prop, t);
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
  return { d1, firstAnswered };
}

describe("waits meter", () => {
  it("counts a read sent after another call, but without waiting for the first read's answer, in the same round trip", async () => {
    const { d1, firstAnswered } = answering();
    const meter = waitsMeter(d1);
    const first = meter.db.prepare("SELECT 1 AS n").first();
    // Another call of the request's (a rate limiter, say) that takes longer than D1 did.
    await meter.io({ limit: () => firstAnswered.then(() => new Promise((r) => setTimeout(r, 0))) }).limit();
    const second = meter.db.prepare("SELECT 2 AS n").first();
    expect(await Promise.all([first, second])).toEqual([{ n: 1 }, { n: 2 }]);
    expect(meter.stop()).toEqual({ total: 1, beyondAuth: 1 });
  });

  it("counts a read sent after another's answer as one more round trip, a batch like a statement", async () => {
    const meter = waitsMeter(env.DB);
    expect(await meter.db.prepare("SELECT 1 AS n").first()).toEqual({ n: 1 });
    const [a, b] = await Promise.all([
      meter.db.prepare("SELECT 3 AS n").first(),
      meter.db.batch([meter.db.prepare("SELECT 4 AS n")]),
    ]);
    expect(a).toEqual({ n: 3 });
    expect(b[0]!.results).toEqual([{ n: 4 }]);
    expect(meter.stop()).toEqual({ total: 2, beyondAuth: 2 });
  });

  it("hands a failed statement's error back, counted like any answer", async () => {
    const meter = waitsMeter(env.DB);
    await expect(meter.db.prepare("SELECT * FROM no_such_table").first()).rejects.toThrow(/no_such_table/);
    expect(meter.stop()).toEqual({ total: 1, beyondAuth: 1 });
  });
});
