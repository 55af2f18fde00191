import { beforeAll, describe, expect, it } from "vitest";
import { hundredthsOf } from "../../src/core/fields";
import { APP_1, shardFor, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";

/**
 * One reading of amounts everywhere (core/fields' `hundredths`, over `minorOfMajor`): binary float
 * noise is not a decimal, more decimals than two are a 400 naming the field, never rounded.
 */

const ITEMS = "/order/v1/merchant/items/";
let token: string;
const as1 = (path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token, appId: APP_1 });
let seq = 0;
const sku = () => `MONEY-${Date.now().toString(36)}-${seq++}`;
const newItem = (price: unknown) =>
  as1(ITEMS, {
    method: "POST",
    body: { type: "product", service_type: "pickup", sku: sku(), price, name_en: "Tea", name_ar: "شاي" },
  });
const priceMinor = async (id: number) =>
  (await shardFor(APP_1)
    .prepare("SELECT price_minor FROM items WHERE id = ?")
    .bind(id)
    .first<{ price_minor: number }>())!.price_minor;

/** Amounts a JavaScript client sends every day, and what they mean. */
const NOISY: [number, number][] = [
  [0.1 + 0.2, 30],
  [1.1 * 3, 330],
  [0.07 * 100, 700],
  [19.99, 1999],
  [99_999_999_999, 9_999_999_999_900],
  // The smallest positive double is within a few units in the last place of 0.
  [5e-324, 0],
];
/** More decimals than the currency has, however small: refused. */
const TOO_PRECISE = [1e-9, 10.005, 1.005, 0.001, 10.000000001, 1e-15];

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_item", "can_write_item"]);
});

describe("hundredthsOf", () => {
  it("reads float noise as the amount meant, and bounds the count, not the noise", () => {
    for (const [n, minor] of NOISY) expect(hundredthsOf(n, { min: 0, max: 99_999_999_999 }), String(n)).toBe(minor);
    // 0.03 - 0.02 is 0.009999999999999998: below the bound as a double, at it once read.
    expect(hundredthsOf(0.03 - 0.02, { min: 0.01, max: 1 })).toBe(1);
    expect(hundredthsOf(-0, { min: 0, max: 1 })).toBe(0);
  });

  it("refuses excess decimals and out-of-range numbers with their own words", () => {
    for (const n of TOO_PRECISE)
      expect(hundredthsOf(n, { min: 0, max: 100 }), String(n)).toEqual({
        message: "At most 2 decimals.",
      });
    expect(hundredthsOf(-0.01, { min: 0, max: 100 })).toEqual({ message: "Must be at least 0." });
    expect(hundredthsOf(100.01, { min: 0, max: 100 })).toEqual({ message: "Must be at most 100." });
    expect(hundredthsOf(1.7976931348623157e308, { min: 0, max: 100 })).toEqual({ message: "Must be at most 100." });
    expect(hundredthsOf(Number.NaN, { min: 0, max: 100 })).toEqual({ message: "Must be at least 0." });
  });
});

describe("Item prices", () => {
  it.each(NOISY)("a price of %s is stored as %s minor units", async (price, minor) => {
    const res = await newItem(price);
    expect(res.status, await res.clone().text()).toBe(201);
    const item = await json(res);
    expect(item.price).toBe(minor / 100);
    expect(await priceMinor(item.id)).toBe(minor);
  });

  it.each([...TOO_PRECISE, -1, -0.01, 100_000_000_000, 1.7976931348623157e308])(
    "a price of %s is a 400 naming price",
    async (price) => {
      const res = await newItem(price);
      expect(res.status).toBe(400);
      expect((await problem(res)).errors).toHaveProperty("price");
    },
  );

  it("updates, bulk price updates, bulk updates and variants read amounts the same way", async () => {
    const item = await json(await newItem(1));
    const patch = await as1(`${ITEMS}${item.id}/`, { method: "PATCH", body: { price: 0.1 + 0.2 } });
    expect(patch.status).toBe(200);
    expect(await priceMinor(item.id)).toBe(30);
    const bulk = await as1(`${ITEMS}bulk-update-prices/`, {
      method: "POST",
      body: { items: [{ id: item.id, price: 1.1 * 3 }] },
    });
    expect(bulk.status).toBe(200);
    expect(await priceMinor(item.id)).toBe(330);
    const scalar = await as1(`${ITEMS}bulk-update/`, {
      method: "POST",
      body: { items: [{ id: item.id, price: 0.07 * 100 }] },
    });
    expect(scalar.status, await scalar.clone().text()).toBe(200);
    expect(await priceMinor(item.id)).toBe(700);
    for (const [path, body, field] of [
      [`${ITEMS}${item.id}/`, { price: 1e-9 }, "price"],
      [`${ITEMS}bulk-update-prices/`, { items: [{ id: item.id, price: 10.005 }] }, "items.0.price"],
      [`${ITEMS}bulk-update/`, { items: [{ id: item.id, price: -0.5 }] }, "items.0.price"],
    ] as const) {
      const res = await as1(path, {
        method: path.endsWith("update/") || path.endsWith("prices/") ? "POST" : "PATCH",
        body,
      });
      expect(res.status, path).toBe(400);
      expect((await problem(res)).errors, path).toHaveProperty([field]);
    }
    expect(await priceMinor(item.id)).toBe(700);
  });

  it("a price filter reads float noise as the amount meant; more decimals are a 400", async () => {
    const item = await json(await newItem(0.3));
    const hit = await as1(`${ITEMS}?id=${item.id}&price=0.30000000000000004`);
    expect(hit.status).toBe(200);
    expect((await json(hit)).results.map((i: { id: number }) => i.id)).toEqual([item.id]);
    for (const q of ["price=0.305", "price__gte=1e-9", "price__lte=100000000000", "price=abc"]) {
      const res = await as1(`${ITEMS}?${q}`);
      expect(res.status, q).toBe(400);
      expect(Object.keys((await problem(res)).errors ?? {}), q).toEqual([q.split("=")[0]]);
    }
  });
});

describe("Discount values", () => {
  const discountOf = async (body: Record<string, unknown>) => {
    const item = await json(await newItem(100));
    const res = await as1(`${ITEMS}${item.id}/discount/`, { method: "POST", body });
    return { item, res };
  };
  const stored = async (itemId: number) =>
    shardFor(APP_1).prepare("SELECT value, trial_value FROM item_discounts WHERE item_id = ?").bind(itemId).first();

  it("float noise is the value meant, for fixed amounts and percentages (kept in hundredths)", async () => {
    const fixed = await discountOf({ kind: "fixed", value: 0.1 + 0.2, trial_kind: "percentage", trial_value: 1.1 * 3 });
    expect(fixed.res.status).toBe(201);
    expect(await json(fixed.res)).toMatchObject({ value: 0.3, trial_value: 3.3 });
    expect(await stored(fixed.item.id)).toEqual({ value: 30, trial_value: 330 });
    const percent = await discountOf({ kind: "percentage", value: 0.07 * 100 });
    expect(percent.res.status).toBe(201);
    expect(await json(percent.res)).toMatchObject({ value: 7 });
    expect(await stored(percent.item.id)).toEqual({ value: 700, trial_value: null });
    expect((await json(await as1(`${ITEMS}${percent.item.id}/`))).discount.price_after_discount).toBe(93);
  });

  it.each([
    ...TOO_PRECISE.map((value) => [{ kind: "fixed", value }, "value"] as const),
    [{ kind: "percentage", value: 12.345 }, "value"],
    [{ kind: "percentage", value: 100.01 }, "value"],
    [{ kind: "fixed", value: -1 }, "value"],
    [{ kind: "fixed", value: 1, trial_kind: "fixed", trial_value: 0.005 }, "trial_value"],
    [{ kind: "fixed", value: 1, trial_kind: "percentage", trial_value: 101 }, "trial_value"],
  ] as const)("refuses %j, never rounds it: a 400 naming %s", async (body, field) => {
    const { item, res } = await discountOf(body);
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
    expect(await stored(item.id)).toBeNull();
  });

  it("a change of kind is checked against the stored value: a fixed 500.00 does not become 500%", async () => {
    const { item, res } = await discountOf({ kind: "fixed", value: 10, trial_kind: "fixed", trial_value: 500 });
    expect(res.status).toBe(201);
    const path = `${ITEMS}${item.id}/discount/`;
    const kind = await as1(path, { method: "PATCH", body: { trial_kind: "percentage" } });
    expect(kind.status).toBe(400);
    expect((await problem(kind)).errors).toHaveProperty("trial_value");
    const ok = await as1(path, { method: "PATCH", body: { kind: "percentage" } });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ kind: "percentage", value: 10, trial_value: 500 });
  });
});
