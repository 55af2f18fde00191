/** An entry of one balance, in ledger order. */
export type LedgerMovement = { amount: number; expiresAt: string | null };

type Lot = { amount: number; expiresAt: string | null };

/** ISO 8601 UTC texts compare as text: code units, not a locale's collation. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Soonest-lapsing first; what never lapses last ("~" sorts after every digit). */
const bySoonest = (a: Lot, b: Lot) => byText(a.expiresAt ?? "~", b.expiresAt ?? "~");

/**
 * What of a balance lapses after `now`, per date, soonest first. Replays the entries since the
 * oldest deposit still to lapse, taking every movement out of the soonest-lapsing amounts first (as
 * a customer would want); `opening`, the balance before those entries, counts as never lapsing.
 */
/** What of a balance had lapsed by `now` and is still unspent: the amount an expiry entry takes out. */
export function lapsedOf(movements: readonly LedgerMovement[], opening: number, now: string): number {
  return lotsAfter(movements, opening)
    .filter((lot) => lot.expiresAt !== null && lot.expiresAt <= now && lot.amount > 0)
    .reduce((sum, lot) => sum + lot.amount, 0);
}

/** The lots left after replaying the movements, each outflow taken from the soonest-lapsing lots first. */
function lotsAfter(movements: readonly LedgerMovement[], opening: number): Lot[] {
  const lots: Lot[] = [{ amount: opening, expiresAt: null }];
  for (const m of movements) {
    if (m.amount > 0) {
      lots.push({ amount: m.amount, expiresAt: m.expiresAt });
      continue;
    }
    let out = -m.amount;
    for (const lot of lots.filter((l) => l.amount > 0).sort(bySoonest)) {
      const take = Math.min(lot.amount, out);
      lot.amount -= take;
      out -= take;
      if (out === 0) break;
    }
  }
  return lots;
}

export function expiringOf(
  movements: readonly LedgerMovement[],
  opening: number,
  now: string,
): { amount: number; expiresAt: string }[] {
  const lots = lotsAfter(movements, opening);
  const byDate = new Map<string, number>();
  for (const lot of lots) {
    if (lot.expiresAt && lot.expiresAt > now && lot.amount > 0)
      byDate.set(lot.expiresAt, (byDate.get(lot.expiresAt) ?? 0) + lot.amount);
  }
  return [...byDate].sort(([a], [b]) => byText(a, b)).map(([expiresAt, amount]) => ({ amount, expiresAt }));
}
