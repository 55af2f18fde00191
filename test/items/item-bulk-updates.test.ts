import { describe, expect, it } from "vitest";
import { APP_1, APP_2, countRows, createFullItem, shardFor } from "../helpers/factories";
import { json, problem } from "../helpers/request";
import { ITEMS, itemsMerchant, sku } from "./helpers";

const as1 = itemsMerchant();

describe("Bulk updates", () => {
  const make = async (price: number) =>
    json(
      await as1(ITEMS, {
        method: "POST",
        body: {
          type: "product",
          service_type: "pickup",
          sku: sku("BK"),
          price,
          name_en: "Bun",
          name_ar: "كعك",
          served_from_date: "2026-01-01",
          served_to_date: "2026-12-31",
        },
      }),
    );

  it("sets prices of several items at once and emits item.updated for each", async () => {
    const [a, b] = [await make(1), await make(2)];
    const res = await as1(`${ITEMS}bulk-update-prices/`, {
      method: "POST",
      body: {
        items: [
          { id: a.id, price: 3.5 },
          { id: b.id, price: 0 },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.count).toBe(2);
    expect(body.results.map((i: { id: number; price: number }) => [i.id, i.price])).toEqual([
      [a.id, 3.5],
      [b.id, 0],
    ]);
    expect(
      (await shardFor(APP_1)
        .prepare("SELECT price_minor FROM items WHERE id = ?")
        .bind(a.id)
        .first<{ price_minor: number }>())!.price_minor,
    ).toBe(350);
    expect(
      await countRows(
        "outbox_events",
        `type = 'item.updated' AND json_extract(payload, '$.data.id') IN (${a.id}, ${b.id})`,
      ),
    ).toBe(2);
  });

  it("writes nothing when one id is unknown or another store's, naming it", async () => {
    const a = await make(1);
    const theirs = await createFullItem(APP_2);
    const res = await as1(`${ITEMS}bulk-update-prices/`, {
      method: "POST",
      body: {
        items: [
          { id: a.id, price: 9 },
          { id: theirs.item.id, price: 9 },
        ],
      },
    });
    expect(res.status).toBe(404);
    expect(Object.keys((await problem(res)).errors!)).toEqual([String(theirs.item.id)]);
    expect((await json(await as1(`${ITEMS}${a.id}/`))).price).toBe(1);
  });

  it("updates fields of several items, checked against what is stored", async () => {
    const [a, b] = [await make(1), await make(2)];
    const ok = await as1(`${ITEMS}bulk-update/`, {
      method: "POST",
      body: {
        items: [
          { id: a.id, name_en: "Bagel", stock_qty: 4 },
          { id: b.id, off_days: ["friday", "saturday"] },
        ],
      },
    });
    expect(ok.status).toBe(200);
    expect((await json(ok)).results.map((i: Record<string, unknown>) => [i.name_en, i.off_days])).toEqual([
      ["Bagel", []],
      ["Bun", ["friday", "saturday"]],
    ]);
    const bad = await as1(`${ITEMS}bulk-update/`, {
      method: "POST",
      body: {
        items: [
          { id: a.id, name_en: "Roll" },
          { id: b.id, served_from_date: "2027-06-01" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty(["items.1.served_from_date"]);
    expect((await json(await as1(`${ITEMS}${a.id}/`))).name_en).toBe("Bagel");
  });

  it.each([
    ["101 entries", { items: Array.from({ length: 101 }, (_, i) => ({ id: i + 1, price: 1 })) }, "items"],
    [
      "a repeated id",
      {
        items: [
          { id: 1, price: 1 },
          { id: 1, price: 2 },
        ],
      },
      "items",
    ],
    ["a negative price", { items: [{ id: 1, price: -2 }] }, "items.0.price"],
  ])("400 for %s", async (_n, body, field) => {
    const res = await as1(`${ITEMS}bulk-update-prices/`, { method: "POST", body });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });
});
