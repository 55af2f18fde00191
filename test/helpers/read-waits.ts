import { env } from "cloudflare:workers";
import { waitsMeter } from "./d1-waits";
import { type Call, call } from "./request";

/**
 * Sends a read as `call()` does, through a D1 binding that counts the round trips its answer waited
 * for one after another (test/helpers/d1-waits.ts): the response and those beyond the token check.
 * It counts round trips, never time.
 */
export async function readWaits(path: string, opts: Call = {}): Promise<{ res: Response; beyondAuth: number }> {
  const bindings = opts.env ?? env;
  const meter = waitsMeter(bindings.DB);
  const res = await call(path, {
    ...opts,
    env: new Proxy(bindings, { get: (t, p) => (p === "DB" ? meter.db : Reflect.get(t, p)) }),
  });
  return { res, beyondAuth: meter.stop().beyondAuth };
}
