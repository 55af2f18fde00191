import { describe, expect, it } from "vitest";
import { APP_1, countRows, shardFor } from "../helpers/factories";
import { json, problem } from "../helpers/request";
import { expectHeldFor, ITEMS, itemsMerchant, sku } from "./helpers";

const as1 = itemsMerchant();

describe("Stock: reservations and purchases", () => {
  const withStock = async (qty: number) =>
    json(
      await as1(ITEMS, {
        method: "POST",
        body: {
          type: "product",
          service_type: "pickup",
          sku: sku("ST"),
          price: 5,
          name_en: "Cake",
          name_ar: "كعكة",
          stock_qty: qty,
        },
      }),
    );
  const stockOf = async (id: number) => (await json(await as1(`${ITEMS}${id}/`))).stock;

  it("a reservation holds units until it is used; one that asks too much gets 409 with what is available", async () => {
    const item = await withStock(3);
    const before = Date.now();
    const res = await as1(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 2, minutes: 5 } });
    expect(res.status).toBe(201);
    const r = await json(res);
    expect(r).toMatchObject({ id: expect.any(Number), item: item.id, qty: 2 });
    expectHeldFor(r.expires_at, before, 5 * 60_000);
    expect(await stockOf(item.id)).toEqual({ in_stock: true, qty: 1 });
    const tooMuch = await as1(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 2 } });
    expect(tooMuch.status).toBe(409);
    expect(await problem(tooMuch)).toMatchObject({ code: "insufficient_stock", available: 1 });
    const bought = await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { reservation_id: r.id } });
    expect(bought.status).toBe(200);
    expect((await json(bought)).stock).toEqual({ in_stock: true, qty: 1 });
    expect(
      (await shardFor(APP_1)
        .prepare("SELECT stock_qty FROM items WHERE id = ?")
        .bind(item.id)
        .first<{ stock_qty: number }>())!.stock_qty,
    ).toBe(1);
    const again = await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { reservation_id: r.id } });
    expect(again.status).toBe(409);
    expect((await problem(again)).code).toBe("reservation_used");
  });

  it("an expired reservation holds nothing and cannot be used", async () => {
    const item = await withStock(2);
    const r = await json(await as1(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 2 } }));
    await shardFor(APP_1)
      .prepare("UPDATE item_reservations SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(r.id)
      .run();
    expect(await stockOf(item.id)).toEqual({ in_stock: true, qty: 2 });
    const res = await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { reservation_id: r.id } });
    expect(res.status).toBe(409);
    expect((await problem(res)).code).toBe("reservation_expired");
    expect(
      (await shardFor(APP_1)
        .prepare("SELECT stock_qty FROM items WHERE id = ?")
        .bind(item.id)
        .first<{ stock_qty: number }>())!.stock_qty,
    ).toBe(2);
  });

  it("a purchase never takes stock below zero", async () => {
    const item = await withStock(1);
    const res = await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { qty: 2 } });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "insufficient_stock", available: 1 });
    expect((await json(await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { qty: 1 } }))).stock).toEqual(
      { in_stock: false, qty: 0 },
    );
  });

  it("requests racing for the last unit: exactly one reservation and one purchase succeed", async () => {
    const a = await withStock(1);
    const reserves = await Promise.all(
      Array.from({ length: 6 }, () => as1(`${ITEMS}${a.id}/reserve/`, { method: "POST", body: { qty: 1 } })),
    );
    expect(reserves.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(
      await countRows("outbox_events", `type = 'item.updated' AND json_extract(payload, '$.data.id') = ${a.id}`),
    ).toBe(1);
    const b = await withStock(1);
    const purchases = await Promise.all(
      Array.from({ length: 6 }, () => as1(`${ITEMS}${b.id}/purchase/`, { method: "POST", body: { qty: 1 } })),
    );
    expect(purchases.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(
      (await shardFor(APP_1)
        .prepare("SELECT stock_qty FROM items WHERE id = ?")
        .bind(b.id)
        .first<{ stock_qty: number }>())!.stock_qty,
    ).toBe(0);
    expect(
      await countRows("outbox_events", `type = 'item.updated' AND json_extract(payload, '$.data.id') = ${b.id}`),
    ).toBe(1);
  });
});
