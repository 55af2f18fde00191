import { env } from "cloudflare:workers";
import { type Waits, waitsMeter } from "./d1-waits";
import { type Call, call } from "./request";

/**
 * `call()` with the D1 round trips its response waited for (test/helpers/d1-waits.ts): a test of
 * a read that must wait for D1 at most once beyond the token check asserts `waits.beyondAuth`.
 * It counts round trips, never time.
 */
export async function meteredCall(
  path: string,
  opts: Call = {},
): Promise<{ res: Response; waits: Omit<Waits, "deferred" | "statements"> }> {
  const bindings = opts.env ?? env;
  const meter = waitsMeter(bindings.DB);
  const res = await call(path, {
    ...opts,
    env: new Proxy(bindings, { get: (t, p) => (p === "DB" ? meter.db : Reflect.get(t, p)) }),
  });
  return { res, waits: meter.stop() };
}
