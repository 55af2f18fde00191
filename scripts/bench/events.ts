/**
 * `--only events`: what emitting an event adds to a write. The real `emit()` against local D1
 * (wrangler's platform proxy, in this process): the same UPDATE in a batch of its own (the
 * baseline), with emit() (its outbox row in the same batch), and with the queue send it defers.
 */
import { fmt, type Scenario, STATE } from "./harness";
import { pct } from "./load";

const EMIT_RUNS = Number(process.env.BENCH_EMIT_RUNS ?? 300);

/** Times the same ticket update written alone, with emit(), and with emit() and its publish awaited. */
async function measureEmit() {
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<{ SHARD_1: unknown; EVENTS: unknown }>({
    configPath: "wrangler.toml",
    persist: { path: `${STATE}/v3` },
  });
  // The Worker's modules are typed for workerd: imported by a non-literal path (see test/node).
  const paths = {
    client: "../../src/db/client",
    outbox: "../../src/core/events/outbox",
    tables: "../../src/modules/tickets/tables",
    orm: "drizzle-orm",
  };
  const { createDb } = await import(paths.client);
  const { emit, newEvent } = await import(paths.outbox);
  const { tickets } = await import(paths.tables);
  const { eq } = await import(paths.orm);
  const db = createDb(proxy.env.SHARD_1);
  const update = (i: number) =>
    db
      .update(tickets)
      .set({ modifiedAt: new Date(i).toISOString() })
      .where(eq(tickets.id, 1));
  // Events of a store with no webhooks (app 99), so that nothing is delivered later.
  const event = () => newEvent(99, "ticket.updated", { id: 1 });
  let deferred: Promise<unknown>[] = [];
  const sink = { queue: proxy.env.EVENTS, defer: (p: Promise<unknown>) => void deferred.push(p) };
  const variants: { name: string; run: (i: number) => Promise<unknown> }[] = [
    { name: "UPDATE alone (baseline)", run: (i) => db.batch([update(i)]) },
    { name: "UPDATE + emit(): what a request waits for", run: (i) => emit(db, sink, [update(i)], [event()]) },
    {
      name: "UPDATE + emit() + the queue send it defers",
      run: async (i) => {
        await emit(db, sink, [update(i)], [event()]);
        await Promise.all(deferred);
      },
    },
  ];
  const samples = variants.map(() => [] as number[]);
  for (let i = 0; i < EMIT_RUNS; i++) {
    for (const [j, v] of variants.entries()) {
      const t = performance.now();
      await v.run(i);
      samples[j]!.push(performance.now() - t);
      // Deferred work finishes between runs, outside the timings it does not belong to.
      await Promise.all(deferred);
      deferred = [];
    }
  }
  await proxy.dispose();
  return variants.map((v, j) => ({ name: v.name, p50: pct(samples[j]!, 0.5), p99: pct(samples[j]!, 0.99) }));
}

export const events: Scenario = {
  name: "events",
  heading: "## Events: what emit() adds to a write",
  goal: "what a request waits for when its write emits an event, as a ratio of the same write without it (no threshold set).",
  async run() {
    const rows = await measureEmit();
    return [
      `${EMIT_RUNS} runs each, interleaved; ms. \`emit()\` adds the outbox row to the write's batch (one transaction) and`,
      "sends the event to the queue after the response.",
      "",
      "| write | p50 | p99 | p50 vs baseline |",
      "|---|---:|---:|---:|",
      ...rows.map((r) => `| ${r.name} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.p50 / rows[0]!.p50)} |`),
    ];
  },
};
