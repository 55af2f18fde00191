import { beforeAll, describe, expect, it } from "vitest";
import { callWaits, json } from "../helpers/request";
import { type Catalogue, catalogueOf } from "./helpers";

// Stores of this file's own, so that no cached read answers first (a cache hit runs no statement).
const A = 7113;
const B = 7114;
let catalogue: Catalogue;

beforeAll(async () => {
  catalogue = await catalogueOf(A, B);
});

describe("Catalogue reads: D1 round trips", () => {
  it("the customer app's items and categories, a page or one, wait for D1 once", async () => {
    const { full } = catalogue;
    for (const [path, check] of [
      ["/order/v1/items/", (b: any) => expect(b.results.map((r: { id: number }) => r.id)).toContain(full.item.id)],
      [`/order/v1/items/${full.item.id}/`, (b: any) => expect(b.variants.length).toBeGreaterThan(0)],
      ["/order/v1/categories/", (b: any) => expect(b.results[0]).toMatchObject({ items_count: 2 })],
      [`/order/v1/categories/${full.category.id}/`, (b: any) => expect(b).toMatchObject({ items_count: 2 })],
    ] as const) {
      const {
        res,
        waits: { beyondAuth },
      } = await callWaits(path, { appId: A });
      expect(res.status, path).toBe(200);
      check(await json(res));
      expect(beyondAuth, path).toBe(1);
    }
  });

  it("the merchant's modifier categories, a page or one, with their values wait for D1 once", async () => {
    const opts = { token: catalogue.tokenA, appId: A };
    const page = await callWaits("/order/v1/merchant/items/modifiers/", opts);
    const body = await json(page.res);
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.some((c: { values: unknown[] }) => c.values.length > 0)).toBe(true);
    expect(page.waits.beyondAuth).toBe(1);
    const first = body.results[0];
    const one = await callWaits(`/order/v1/merchant/items/modifiers/${first.id}/`, opts);
    expect(await json(one.res)).toEqual(first);
    expect(one.waits.beyondAuth).toBe(1);
  });
});
