import { afterEach, describe, expect, it, vi } from "vitest";
import { PER_WEBHOOK } from "../../src/modules/webhooks/gate";
import { APP_1, APP_2, createWebhookFor } from "../helpers/factories";
import { fakeReceiver } from "../helpers/receiver";
import {
  consume,
  deliveriesOfWebhook,
  deliveryOf,
  deliveryRow,
  ledgerRow,
  logsOf,
  ticketEvent,
  webhookRow,
} from "./helpers";

afterEach(() => vi.restoreAllMocks());

/** A promise and what settles it, for events the test waits on (never a clock). */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Receivers where `url` never answers (its attempts wait until the test rejects them) and every
 * other answers 200; `allHanging` settles once a webhook's share of connections is held.
 */
function hangingReceiver(url: string) {
  const hanging: ((error: unknown) => void)[] = [];
  const allHanging = signal();
  fakeReceiver((req) => {
    if (req.url !== url) return new Response("ok");
    return new Promise<Response>((_, reject) => {
      hanging.push(reject);
      if (hanging.length === PER_WEBHOOK) allHanging.resolve();
    });
  });
  return { hanging, allHanging };
}

const timedOut = () => new DOMException("The operation timed out.", "TimeoutError");

// Issue 27: a store whose receiver stopped answering held up other stores' first deliveries for the
// whole fast-lane timeout: a batch recorded and acknowledged its events only after its slowest attempt.
// Receivers here answer when the test says so, so that only the order of events is asserted.
describe("one store's receiver that does not answer", () => {
  it("does not hold up another store's delivery in the same batch: recorded and acknowledged first", async () => {
    const dead = await createWebhookFor(APP_2);
    const healthy = await createWebhookFor(APP_1);
    const deadAnswer = signal<Response>();
    fakeReceiver((req) => (req.url === dead.url ? deadAnswer.promise : new Response("ok")));
    const [a, b] = [ticketEvent(APP_2), ticketEvent(APP_1)];
    const acked: string[] = [];
    const healthyAcked = signal();
    const run = consume([a, b], {
      onAck: (id) => {
        acked.push(id);
        if (id === "m2") healthyAcked.resolve();
      },
    });

    await healthyAcked.promise;
    // The dead receiver has still not answered: its attempt is in flight, claimed and not yet logged.
    expect(acked).toEqual(["m2"]);
    expect(await deliveryRow(b, healthy.id)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(await logsOf(healthy.id)).toHaveLength(1);
    expect(await deliveryRow(a, dead.id)).toMatchObject({ status: "pending", attempts: 1 });
    expect(await logsOf(dead.id, APP_2)).toHaveLength(0);

    deadAnswer.resolve(new Response("late", { status: 200 }));
    const { result } = await run;
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2"]);
    expect(await deliveryRow(a, dead.id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it(
    "holds at most all but one of the batch's connections, and once one of its attempts times out, " +
      "its other deliveries in the batch go to the slow lane uncontacted",
    async () => {
      const dead = await createWebhookFor(APP_2);
      const healthy = await createWebhookFor(APP_1);
      const { hanging, allHanging } = hangingReceiver(dead.url);
      const deadEvents = Array.from({ length: PER_WEBHOOK + 3 }, () => ticketEvent(APP_2));
      const b = ticketEvent(APP_1);
      const healthyId = `m${deadEvents.length + 1}`;
      const healthyAcked = signal();
      const run = consume([...deadEvents, b], { onAck: (id) => id === healthyId && healthyAcked.resolve() });

      // The dead receiver's attempts take their share of connections; the healthy store's gets one.
      await Promise.all([allHanging.promise, healthyAcked.promise]);
      expect(hanging).toHaveLength(PER_WEBHOOK);
      expect(await deliveryRow(b, healthy.id)).toMatchObject({ status: "delivered", attempts: 1 });

      for (const reject of hanging) reject(timedOut());
      const { result, sent } = await run;
      expect(hanging).toHaveLength(PER_WEBHOOK); // the others were never sent
      expect(result.explicitAcks).toHaveLength(deadEvents.length + 1);
      const rows = await deliveriesOfWebhook(dead.id, APP_2);
      expect(rows.filter((r) => r.status === "retrying" && r.attempts === 1)).toHaveLength(PER_WEBHOOK);
      // Given back as fan-out left them, for the slow lane's message to claim.
      const moved = rows.filter((r) => r.status === "pending");
      expect(moved).toHaveLength(3);
      for (const r of moved) expect(r).toMatchObject({ attempts: 0, leased_until: null });
      expect(await logsOf(dead.id, APP_2)).toHaveLength(PER_WEBHOOK);
      expect((await logsOf(dead.id, APP_2)).every((l) => l.error_class === "timeout")).toBe(true);
      // Each of its deliveries is on the slow lane: a retry, or a first attempt still to make.
      for (const e of deadEvents) expect(sent.slow).toContainEqual(deliveryOf(e, dead.id));
      expect((await webhookRow(dead.id, APP_2))!.slow_since).not.toBeNull();
    },
  );

  it("a moved delivery is attempted by its slow-lane message, as its first attempt", async () => {
    const dead = await createWebhookFor(APP_2);
    const { hanging, allHanging } = hangingReceiver(dead.url);
    const events = Array.from({ length: PER_WEBHOOK + 1 }, () => ticketEvent(APP_2));
    const run = consume(events);
    await allHanging.promise;
    for (const reject of hanging) reject(timedOut());
    await run;
    const last = events.at(-1)!;
    expect(await deliveryRow(last, dead.id)).toMatchObject({ status: "pending", attempts: 0 });

    vi.restoreAllMocks();
    fakeReceiver();
    const { result } = await consume(deliveryOf(last, dead.id), { queue: "commerce-webhooks-slow" });
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(await deliveryRow(last, dead.id)).toMatchObject({ status: "delivered", attempts: 1 });
    expect((await logsOf(dead.id, APP_2)).at(-1)).toMatchObject({ attempt: 1, trigger: "event", outcome: "delivered" });
  });

  it("on the slow lane, once one of its attempts times out, its other messages of the batch wait, uncontacted", async () => {
    const dead = await createWebhookFor(APP_2, { slowSince: new Date().toISOString() });
    const { hanging, allHanging } = hangingReceiver(dead.url);
    const events = Array.from({ length: PER_WEBHOOK + 2 }, () => ticketEvent(APP_2));
    const due = new Date(Date.now() - 1000).toISOString();
    for (const e of events) await ledgerRow(dead, e, { status: "retrying", attempts: 1, nextAttemptAt: due });
    const run = consume(
      events.map((e) => deliveryOf(e, dead.id)),
      { queue: "commerce-webhooks-slow" },
    );
    await allHanging.promise;
    for (const reject of hanging) reject(timedOut());
    const { result, sent } = await run;
    expect(hanging).toHaveLength(PER_WEBHOOK);
    expect(result.retryMessages).toHaveLength(PER_WEBHOOK); // the attempts made wait for their next one
    expect(result.explicitAcks).toHaveLength(2); // the others were handed to new messages
    const waiting = events.slice(PER_WEBHOOK);
    for (const e of waiting) {
      expect(sent.slow).toContainEqual(deliveryOf(e, dead.id));
      expect(await deliveryRow(e, dead.id)).toMatchObject({ status: "retrying", attempts: 1, leased_until: null });
    }
    expect(await logsOf(dead.id, APP_2)).toHaveLength(PER_WEBHOOK);
  });
});
