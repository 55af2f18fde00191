/**
 * Runs `count(attempt)`, a test that counts requests up to a limit of the local rate limiter, until
 * one run of it falls within one window of the limiter, and returns that run's result.
 *
 * The local limiter (like Cloudflare's) counts in fixed windows of `periodSeconds` aligned to the
 * clock, and a window that turns mid-count resets the count. Rather than wait for a window with
 * "enough" seconds left (which a slow machine can outlast), this checks afterwards whether the run
 * stayed in one window and, if not, runs it again. So `count` uses a key of its own each attempt
 * (another store, another webhook), one that no window has counted yet, and asserts nothing: it
 * returns what it saw, and the test asserts on the run that stayed in one window. The runtime's `Date.now()`
 * only moves on I/O, so the reading before the run is no later than the limiter's first count and
 * the one after it no earlier than its last: a run judged within one window was.
 */
export async function countInOneRateWindow<T>(count: (attempt: number) => Promise<T>, periodSeconds = 60): Promise<T> {
  const windowOf = (ms: number) => Math.floor(ms / (periodSeconds * 1000));
  // A window turns once a period: a run that takes less than one needs at most two attempts.
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = windowOf(Date.now());
    const result = await count(attempt);
    if (windowOf(Date.now()) === started) return result;
  }
  throw new Error(`three runs each crossed a turn of the rate limiter's ${periodSeconds} s window`);
}
