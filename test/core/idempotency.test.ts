import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { sha256Hex } from "../../src/core/crypto";
import { ApiError } from "../../src/core/errors";
import { purgeExpiredIdempotencyKeys } from "../../src/core/idempotency";
import { createRouter, jsonContent, z } from "../../src/core/openapi";
import { merchantRoute } from "../../src/core/routes";
import { observeStatements } from "../../src/db/client";
import { inlineSharedParts } from "../../src/openapi-shared-parts";
import { APP_1, APP_2, countRows, createPlainItem, db, shardFor, tokenFor } from "../helpers/factories";
import { BASE, call, json, problem } from "../helpers/request";

const ITEMS = "/order/v1/merchant/items/";
let token: string;

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_item", "can_write_item"]);
});

const newKey = () => `key-${crypto.randomUUID()}`;

const purchase = (itemId: number, body: unknown, key: string | null, as = token, appId = APP_1) =>
  call(`${ITEMS}${itemId}/purchase/`, {
    method: "POST",
    token: as,
    appId,
    body,
    headers: key === null ? {} : { "Idempotency-Key": key },
  });

/** On the item's store's shard: ids are unique per shard only. */
const stockOf = async (id: number, appId = APP_1) =>
  (await shardFor(appId)
    .prepare("SELECT stock_qty FROM items WHERE id = ? AND app_id = ?")
    .bind(id, appId)
    .first<{ stock_qty: number }>())!.stock_qty;

const eventsOf = (id: number) =>
  countRows("outbox_events", `type = 'item.updated' AND json_extract(payload, '$.data.id') = ${id}`);

describe("Idempotency-Key: replay", () => {
  it("three Record Item Purchase calls with one key take stock once, and emit one event", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    const key = newKey();
    const first = await purchase(item.id, { qty: 2 }, key);
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstBody = await first.text();
    for (let i = 0; i < 2; i++) {
      const again = await purchase(item.id, { qty: 2 }, key);
      expect(again.status).toBe(200);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.headers.get("content-type")).toContain("application/json");
      expect(await again.text()).toBe(firstBody);
    }
    expect(await stockOf(item.id)).toBe(8);
    expect(await eventsOf(item.id)).toBe(1);
    // Without a key, each call is a new purchase.
    await purchase(item.id, { qty: 2 }, null);
    expect(await stockOf(item.id)).toBe(6);
  });

  it("the same key without the trailing slash is the same request", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    const key = newKey();
    expect((await purchase(item.id, { qty: 1 }, key)).status).toBe(200);
    const res = await call(`${ITEMS}${item.id}/purchase`, {
      method: "POST",
      token,
      body: { qty: 1 },
      headers: { "Idempotency-Key": key },
    });
    expect(res.headers.get("idempotent-replayed")).toBe("true");
    expect(await stockOf(item.id)).toBe(9);
  });

  it("stores a 4xx and replays it: it is the answer", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 1 });
    const key = newKey();
    const first = await purchase(item.id, { qty: 5 }, key);
    expect(first.status).toBe(409);
    expect((await problem(first)).code).toBe("insufficient_stock");
    const again = await purchase(item.id, { qty: 5 }, key);
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    expect((await problem(again)).code).toBe("insufficient_stock");
  });

  it("409 idempotency_key_reused for another body or another path under the same key", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    const key = newKey();
    await purchase(item.id, { qty: 1 }, key);
    const other = await purchase(item.id, { qty: 2 }, key);
    expect(other.status).toBe(409);
    expect((await problem(other)).code).toBe("idempotency_key_reused");
    const elsewhere = await call(`${ITEMS}${item.id}/reserve/`, {
      method: "POST",
      token,
      body: { qty: 1 },
      headers: { "Idempotency-Key": key },
    });
    expect(elsewhere.status).toBe(409);
    expect((await problem(elsewhere)).code).toBe("idempotency_key_reused");
    expect(await stockOf(item.id)).toBe(9);
  });

  it("400 for a malformed key, naming the header", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    for (const bad of ["", "x".repeat(256), "del\u007fkey", "tab\tkey"]) {
      const res = await purchase(item.id, { qty: 1 }, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await problem(res)).errors).toHaveProperty(["Idempotency-Key"]);
    }
    expect((await purchase(item.id, { qty: 1 }, "x".repeat(255))).status).toBe(200);
    expect(await stockOf(item.id)).toBe(9);
  });
});

describe("Idempotency-Key: concurrency and scope", () => {
  it("409 idempotency_key_in_flight with Retry-After while the first request runs", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    const key = newKey();
    const mine = await tokenFor(APP_1, ["can_write_item"]);
    const { id: tokenId } = (await shardFor(APP_1)
      .prepare("SELECT id FROM merchant_api_tokens WHERE token_hash = ?")
      .bind(await sha256Hex(mine))
      .first<{ id: number }>())!;
    // The claim a running request holds: its lease has not expired.
    await shardFor(APP_1)
      .prepare(
        "INSERT INTO idempotency_keys (app_id, principal, key, method, path, body_hash, state, expires_at) " +
          "VALUES (?, ?, ?, 'POST', ?, ?, 'in_flight', ?)",
      )
      .bind(
        APP_1,
        `merchant:${tokenId}`,
        key,
        `${ITEMS}${item.id}/purchase/`,
        await sha256Hex(JSON.stringify({ qty: 1 })),
        new Date(Date.now() + 60_000).toISOString(),
      )
      .run();
    const res = await purchase(item.id, { qty: 1 }, key, mine);
    expect(res.status).toBe(409);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((await problem(res)).code).toBe("idempotency_key_in_flight");
    expect(await stockOf(item.id)).toBe(10);
  });

  it("two concurrent requests with one key: exactly one runs", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    const key = newKey();
    const results = await Promise.all([1, 2, 3].map(() => purchase(item.id, { qty: 1 }, key)));
    const statuses = results.map((r) => r.status);
    const ran = results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") === null);
    expect(ran, statuses.join()).toHaveLength(1);
    for (const r of results) if (r !== ran[0]) expect([200, 409]).toContain(r.status);
    expect(await stockOf(item.id)).toBe(9);
    expect(await eventsOf(item.id)).toBe(1);
  });

  it("keys are per principal: another token's same key runs on its own", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    const key = newKey();
    const other = await tokenFor(APP_1, ["can_write_item"]);
    await purchase(item.id, { qty: 1 }, key);
    const res = await purchase(item.id, { qty: 1 }, key, other);
    expect(res.status).toBe(200);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(await stockOf(item.id)).toBe(8);
  });

  it("keys are per store: another store's same key runs on its own", async () => {
    const mine = await createPlainItem(APP_1, { stockQty: 10 });
    const theirs = await createPlainItem(APP_2, { stockQty: 10 });
    const key = newKey();
    await purchase(mine.id, { qty: 1 }, key);
    const res = await purchase(theirs.id, { qty: 1 }, key, await tokenFor(APP_2, ["can_write_item"]), APP_2);
    expect(res.status).toBe(200);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect([await stockOf(mine.id), await stockOf(theirs.id, APP_2)]).toEqual([9, 9]);
  });

  it("an expired key is not replayed: the request runs again and takes the key over", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    const key = newKey();
    await purchase(item.id, { qty: 1 }, key);
    await shardFor(APP_1)
      .prepare("UPDATE idempotency_keys SET expires_at = '2020-01-01T00:00:00.000Z' WHERE key = ?")
      .bind(key)
      .run();
    const res = await purchase(item.id, { qty: 1 }, key);
    expect(res.status).toBe(200);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(await stockOf(item.id)).toBe(8);
    const row = await shardFor(APP_1)
      .prepare("SELECT state, expires_at FROM idempotency_keys WHERE key = ?")
      .bind(key)
      .first<{ state: string; expires_at: string }>();
    expect(row!.state).toBe("done");
    expect(Date.parse(row!.expires_at)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // And the scheduled purge removes keys past their 24 hours.
    await shardFor(APP_1)
      .prepare("UPDATE idempotency_keys SET expires_at = '2020-01-01T00:00:00.000Z' WHERE key = ?")
      .bind(key)
      .run();
    await purgeExpiredIdempotencyKeys(db());
    expect(await countRows("idempotency_keys", "expires_at < '2021-01-01'")).toBe(0);
  });
});

describe("Idempotency-Key: a Worker that dies between the commit and the stored response", () => {
  // The store of the response fails as if the Worker had stopped there: its write batch had landed.
  const dyingAfterCommit = () =>
    observeStatements((q) => {
      if (/^update "idempotency_keys" set "state" = \?, "response_status"/.test(q)) throw new Error("killed");
    });
  const keyRow = (key: string) =>
    shardFor(APP_1).prepare("SELECT state, response_status FROM idempotency_keys WHERE key = ?").bind(key).first();
  // The lease's minute passes (its rows' times moved back rather than waiting).
  const leasePasses = (key: string) =>
    shardFor(APP_1)
      .prepare(
        "UPDATE idempotency_keys SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '-2 minutes'), " +
          "expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', expires_at, '-2 minutes') WHERE key = ?",
      )
      .bind(key)
      .run();

  it("the key is committed in the write's own batch: a retry never runs the write again", async () => {
    const item = await createPlainItem(APP_1, { stockQty: 10 });
    const key = newKey();
    const stop = dyingAfterCommit();
    let first: Response;
    try {
      first = await purchase(item.id, { qty: 1 }, key);
    } finally {
      stop();
    }
    // The answer leaves before its copy is stored (after the response): the client has it; the
    // store's failure only leaves the key committed without it.
    expect(first.status).toBe(200);
    expect(await stockOf(item.id)).toBe(9);
    expect(await keyRow(key)).toEqual({ state: "committed", response_status: null });
    // Within the lease the first request may still answer: the retry waits.
    const soon = await purchase(item.id, { qty: 1 }, key);
    expect(soon.status).toBe(409);
    expect((await problem(soon)).code).toBe("idempotency_key_in_flight");
    // After it, the answer is known lost: refused, never run again.
    await leasePasses(key);
    const late = await purchase(item.id, { qty: 1 }, key);
    expect(late.status).toBe(409);
    const body = await problem(late);
    expect(body.code).toBe("idempotency_key_response_lost");
    expect(body.detail).toContain("will not run again");
    expect(await stockOf(item.id)).toBe(9);
    expect(await eventsOf(item.id)).toBe(1);
  });
});

describe("Idempotency-Key: failures release the key", () => {
  // A route of its own on the real app, whose handler fails on demand.
  let mode: "crash" | "retry" | "ok" | "overrun" = "crash";
  let itemId = 0;
  let runs = 0;
  const app = createApp();
  const testRouter = createRouter().openapi(
    merchantRoute({
      method: "post",
      path: "/test/idempotent/",
      operationId: "testIdempotent",
      summary: "Test",
      beyondSpec: "test only",
      permission: "can_write_item",
      idempotent: true,
      request: { body: { content: { "application/json": { schema: z.object({ n: z.number() }) } } } },
      responses: { 201: jsonContent(z.object({ runs: z.number() }), "ok") },
    }),
    async (c) => {
      runs++;
      if (mode === "crash") throw new Error("boom");
      if (mode === "overrun") {
        // The request outlived its lease and a retry took the key over; then it writes (one statement).
        await shardFor(APP_1)
          .prepare("UPDATE idempotency_keys SET created_at = '2000-01-01T00:00:00.000Z' WHERE key = ?")
          .bind(c.req.header("Idempotency-Key"))
          .run();
        await c.get("db").run(sql`UPDATE items SET stock_qty = stock_qty - 1 WHERE id = ${itemId}`);
      }
      if (mode === "retry") throw ApiError.conflict("concurrent_update", "retry");
      return c.json({ runs }, 201);
    },
  );
  app.route("/", testRouter);
  const send = async (key: string) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}/test/idempotent/`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "app-id": String(APP_1),
          "content-type": "application/json",
          "Idempotency-Key": key,
        },
        body: JSON.stringify({ n: 1 }),
      }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  };

  it("a 5xx (a thrown error) releases the key, so that a retry runs; the success is then kept", async () => {
    const key = newKey();
    mode = "crash";
    runs = 0;
    expect((await send(key)).status).toBe(500);
    expect(await countRows("idempotency_keys", `key = '${key}'`)).toBe(0);
    mode = "retry";
    expect((await send(key)).status).toBe(409);
    expect(await countRows("idempotency_keys", `key = '${key}'`)).toBe(0);
    mode = "ok";
    const ok = await send(key);
    expect(ok.status).toBe(201);
    expect(await json(ok)).toEqual({ runs: 3 });
    const replay = await send(key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(replay)).toEqual({ runs: 3 });
    expect(runs).toBe(3);
  });
  it("a request whose claim was taken over after its lease cannot commit its write", async () => {
    itemId = (await createPlainItem(APP_1, { stockQty: 10 })).id;
    mode = "overrun";
    expect((await send(newKey())).status).toBe(500);
    expect(await stockOf(itemId)).toBe(10);
  });
});

describe("Idempotency-Key in the document", () => {
  it("declares the header, the replay header and the 409 codes on the operations that take it", async () => {
    const doc = inlineSharedParts(await json(await call("/openapi.json")));
    const op = doc.paths["/order/v1/merchant/items/{item_id}/purchase/"].post;
    const header = op.parameters.find((p: { name: string }) => p.name === "Idempotency-Key");
    // Optional: `required` absent (its default, false).
    expect(header).toMatchObject({ in: "header" });
    expect(header.required ?? false).toBe(false);
    expect(header.description).toContain("24 hours");
    expect(op.responses["200"].headers).toHaveProperty("Idempotent-Replayed");
    const conflict = op.responses["409"];
    expect(conflict.headers).toHaveProperty("Retry-After");
    const codes = JSON.stringify(conflict.content["application/problem+json"].schema);
    expect(codes).toContain("idempotency_key_reused");
    expect(codes).toContain("idempotency_key_in_flight");
    expect(codes).toContain("idempotency_key_response_lost");
    // An operation that does not take it declares neither.
    const get = doc.paths["/order/v1/merchant/items/{item_id}/"].get;
    expect((get.parameters ?? []).some((p: { name: string }) => p.name === "Idempotency-Key")).toBe(false);
  });
});
