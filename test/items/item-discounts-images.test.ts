import { describe, expect, it } from "vitest";
import { json, problem } from "../helpers/request";
import { ITEMS, itemsMerchant, sku } from "./helpers";

const as1 = itemsMerchant();

describe("Discounts and images", () => {
  const make = async (price: number) =>
    json(
      await as1(ITEMS, {
        method: "POST",
        body: { type: "product", service_type: "pickup", sku: sku("DI"), price, name_en: "Pie", name_ar: "فطيرة" },
      }),
    );

  it("a discount is stored once per item and the Item's discount object is computed from it", async () => {
    const item = await make(80);
    const res = await as1(`${ITEMS}${item.id}/discount/`, {
      method: "POST",
      body: { kind: "percentage", value: 25, trial_kind: "fixed", trial_value: 70, is_usage_price: true },
    });
    expect(res.status).toBe(201);
    expect(await json(res)).toEqual({
      id: expect.any(Number),
      item: item.id,
      kind: "percentage",
      value: 25,
      trial_kind: "fixed",
      trial_value: 70,
      is_usage_price: true,
      starts_at: null,
      ends_at: null,
    });
    expect((await json(await as1(`${ITEMS}${item.id}/`))).discount).toEqual({
      is_applied: true,
      is_trial_applied: true,
      is_usage_price: true,
      price_after_discount_no_trial: 60,
      price_after_discount: 10,
    });
    expect(
      (await as1(`${ITEMS}${item.id}/discount/`, { method: "POST", body: { kind: "fixed", value: 1 } })).status,
    ).toBe(409);
    const updated = await json(
      await as1(`${ITEMS}${item.id}/discount/`, {
        method: "PATCH",
        body: { trial_kind: null, trial_value: null, ends_at: "2020-01-01T00:00:00Z" },
      }),
    );
    expect(updated).toMatchObject({ trial_kind: null, ends_at: "2020-01-01T00:00:00.000Z" });
    expect((await json(await as1(`${ITEMS}${item.id}/`))).discount).toEqual({
      is_applied: false,
      is_trial_applied: false,
      is_usage_price: false,
      price_after_discount_no_trial: 80,
      price_after_discount: 80,
    });
    expect((await as1(`${ITEMS}${item.id}/discount/`, { method: "DELETE" })).status).toBe(204);
    expect((await as1(`${ITEMS}${item.id}/discount/`)).status).toBe(404);
    expect(
      (await as1(`${ITEMS}${item.id}/discount/`, { method: "POST", body: { kind: "fixed", value: 5 } })).status,
    ).toBe(201);
  });

  it.each([
    ["a percentage over 100", { kind: "percentage", value: 101 }, "value"],
    ["3 decimals", { kind: "fixed", value: 1.005 }, "value"],
    ["a trial value without its kind", { kind: "fixed", value: 1, trial_value: 2 }, "trial_value"],
    [
      "an end before the start",
      { kind: "fixed", value: 1, starts_at: "2026-02-01T00:00:00Z", ends_at: "2026-01-01T00:00:00Z" },
      "ends_at",
    ],
  ])("400 for a discount with %s", async (_n, body, field) => {
    const item = await make(10);
    const res = await as1(`${ITEMS}${item.id}/discount/`, { method: "POST", body });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });

  it("adds, changes and deletes an item's images, which the Item object shows in order", async () => {
    const item = await make(5);
    const a = await json(
      await as1(`${ITEMS}${item.id}/images/`, {
        method: "POST",
        body: { url: "https://cdn.example.com/a.jpg", alt_en: "A", alt_ar: "أ" },
      }),
    );
    const b = await json(
      await as1(`${ITEMS}${item.id}/images/`, { method: "POST", body: { url: "https://cdn.example.com/b.jpg" } }),
    );
    expect(a).toEqual({
      id: expect.any(Number),
      url: "https://cdn.example.com/a.jpg",
      alt_en: "A",
      alt_ar: "أ",
      ordering: 1,
    });
    expect(b.ordering).toBe(2);
    expect(
      await json(await as1(`${ITEMS}${item.id}/images/${a.id}/`, { method: "PATCH", body: { ordering: 3 } })),
    ).toMatchObject({ id: a.id, ordering: 3 });
    expect((await json(await as1(`${ITEMS}${item.id}/`))).images.map((i: { id: number }) => i.id)).toEqual([
      b.id,
      a.id,
    ]);
    expect((await as1(`${ITEMS}${item.id}/images/${b.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await json(await as1(`${ITEMS}${item.id}/`))).images.map((i: { id: number }) => i.id)).toEqual([a.id]);
    expect(
      (await as1(`${ITEMS}${item.id}/images/`, { method: "POST", body: { url: "http://cdn.example.com/c.jpg" } }))
        .status,
    ).toBe(400);
    const other = await make(5);
    expect((await as1(`${ITEMS}${other.id}/images/${a.id}/`, { method: "PATCH", body: { ordering: 1 } })).status).toBe(
      404,
    );
  });
});
