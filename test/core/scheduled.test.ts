// This file needs a database of its own: a run of every scheduled task sweeps every store's rows, which
// files sharing a database would see change under them.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { SCHEDULED_TASKS, tasksOfRun } from "../../src/scheduled-tasks";
import { APP_1, shardFor } from "../helpers/factories";
import { call } from "../helpers/request";
import { orderOf, orderRow, rowOf, shopperOf, stocked, stockOf, storeFor } from "../orders/helpers";

const A = 8731;
beforeAll(async () => {
  await storeFor(A);
});

/** One run of the Worker's cron, as Cloudflare (or wrangler dev's /__scheduled?cron=) starts it. */
async function runCron(cron: string) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron, scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** A card order of 2 from a stock of 5, its payment deadline already past. */
async function overdueOrder() {
  const item = await stocked(A, 1000, 5);
  const { order } = await orderOf(await shopperOf(A), [{ item_id: item.id, qty: 2 }], "card");
  await shardFor(APP_1)
    .prepare("UPDATE orders SET expires_at = ? WHERE id = ?")
    .bind(new Date(Date.now() - 60_000).toISOString(), order.id)
    .run();
  return { item, order };
}

/** An idempotency key a day past its expiry: the purge task deletes it. */
async function staleKey(key: string) {
  const past = new Date(Date.now() - 86_400_000).toISOString();
  await shardFor(A)
    .prepare(
      "INSERT INTO idempotency_keys (app_id, principal, key, method, path, body_hash, state, expires_at) VALUES (?, 'merchant:1', ?, 'POST', '/x/', 'h', 'done', ?)",
    )
    .bind(A, key, past)
    .run();
}
const keyCount = async (key: string) =>
  (await rowOf<{ n: number }>("SELECT count(*) AS n FROM idempotency_keys WHERE app_id = ? AND key = ?", A, key)).n;

describe("tasksOfRun", () => {
  it("runs the task a run names, and all of them for anything else (a deployed cron expression)", () => {
    expect(tasksOfRun("expire-unpaid-orders")).toEqual(["expire-unpaid-orders"]);
    expect(tasksOfRun("*/5 * * * *")).toEqual(SCHEDULED_TASKS);
    expect(tasksOfRun("")).toEqual(SCHEDULED_TASKS);
    expect(tasksOfRun(undefined)).toEqual(SCHEDULED_TASKS);
  });
});

describe("The scheduled handler", () => {
  it("a run naming one task does that one only: the overdue order expires, the stale key stays", async () => {
    const { item, order } = await overdueOrder();
    await staleKey("only-one");
    expect(await stockOf(item.id)).toBe(3);
    await runCron("expire-unpaid-orders");
    expect((await orderRow(order.id)).status).toBe("expired");
    expect(await stockOf(item.id)).toBe(5);
    expect(await keyCount("only-one")).toBe(1);
  });

  it("the deployed cron runs every task: the order expires and the key is purged", async () => {
    const { item, order } = await overdueOrder();
    await staleKey("all");
    await runCron("*/5 * * * *");
    expect((await orderRow(order.id)).status).toBe("expired");
    expect(await stockOf(item.id)).toBe(5);
    expect(await keyCount("all")).toBe(0);
  });

  it("is not reachable over HTTP: /__scheduled is wrangler dev's (--test-scheduled), not a route of the Worker", async () => {
    const { order } = await overdueOrder();
    for (const path of ["/__scheduled", "/__scheduled?cron=expire-unpaid-orders", "/cdn-cgi/handler/scheduled"]) {
      const res = await call(path, { appId: null });
      expect(res.status, path).toBe(404);
    }
    expect((await orderRow(order.id)).status).toBe("pending");
  });
});
