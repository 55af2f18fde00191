/**
 * The attempts a consumer invocation has in flight. A Worker invocation keeps at most six
 * connections open; the runtime holds further fetches in a queue of its own, where their timeouts
 * run, so that receivers that never answer would time out every attempt queued behind them, healthy
 * ones included. The gate queues attempts here instead: an attempt's timeout starts when it has a
 * connection; one connection is left to the ledger's writes and the queue sends; and one webhook
 * holds at most all but one of the attempts' connections, so another store's attempt always has one.
 */
export const CONNECTIONS = 5;
export const PER_WEBHOOK = CONNECTIONS - 1;

export type Slot = { release: () => void };

export type Gate = {
  /** Waits for a connection for the webhook: null when it was tripped meanwhile (see `trip`). */
  take(webhookId: number): Promise<Slot | null>;
  /**
   * The webhook's attempt was slow: its attempts still waiting in this invocation are not made
   * here (the fast lane sends them to the slow one), and those it asks for later get no slot.
   */
  trip(webhookId: number): void;
};

export function connectionGate(size = CONNECTIONS, perWebhook = PER_WEBHOOK): Gate {
  const inFlight = new Map<number, number>();
  const waiting: { webhookId: number; go: (slot: Slot | null) => void }[] = [];
  const off = new Set<number>();
  let total = 0;

  const grant = (webhookId: number): Slot => {
    total++;
    inFlight.set(webhookId, (inFlight.get(webhookId) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        total--;
        inFlight.set(webhookId, inFlight.get(webhookId)! - 1);
        pump();
      },
    };
  };

  // In arrival order, skipping a webhook at its share, so that one store's backlog never blocks another's.
  function pump() {
    for (let i = 0; i < waiting.length && total < size; ) {
      const w = waiting[i]!;
      if (off.has(w.webhookId)) {
        waiting.splice(i, 1);
        w.go(null);
      } else if ((inFlight.get(w.webhookId) ?? 0) < perWebhook) {
        waiting.splice(i, 1);
        w.go(grant(w.webhookId));
      } else i++;
    }
  }

  return {
    take(webhookId) {
      if (off.has(webhookId)) return Promise.resolve(null);
      return new Promise((go) => {
        waiting.push({ webhookId, go });
        pump();
      });
    },
    trip(webhookId) {
      off.add(webhookId);
      for (const w of waiting.filter((one) => one.webhookId === webhookId)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.go(null);
      }
    },
  };
}
