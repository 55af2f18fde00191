/**
 * The one clock services read "now" from. In production it is the system's; a test sets it to play
 * days or a year in seconds (tests and the Worker they call share one isolate in this pool, so the
 * module state is shared). Only `nowIso()`, `todayIn()` and the code that asks `now()` follow it.
 */
let source: (() => number) | null = null;

/** Now, as the clock says. */
export const now = (): Date => new Date(source ? source() : Date.now());

/** Milliseconds since the epoch, as the clock says. */
export const nowMs = (): number => (source ? source() : Date.now());

/** Sets the clock to a fixed instant, a function of the real time, or back to the system's (null). For tests. */
export function setClock(at: Date | string | (() => number) | null): void {
  if (at === null) source = null;
  else if (typeof at === "function") source = at;
  else {
    const ms = new Date(at).getTime();
    source = () => ms;
  }
}
