import { beforeAll, describe, expect, it } from "vitest";
import { APP_1, createCustomerFor, createPlainItem, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { callWaits, json } from "../helpers/request";
import { insertOrder, newCode, usedEvents, VOUCHERS } from "./helpers";

/**
 * How long the voucher writes keep a merchant waiting on D1, counted in round trips one after
 * another beyond the token check (test/helpers/d1-waits.ts), never timed: every check's read in
 * one round trip, then one batch that writes and reads its answer back.
 */

// A store of this file's own.
const A = 8612;
let token: string;

beforeAll(async () => {
  await ensureTenant(A);
  token = await tokenFor(A, ["can_read_order", "can_write_order"]);
  // The token is checked once per isolate: a request before the counted ones holds it.
  await callWaits(VOUCHERS, { token, appId: A });
});

const send = (method: string, path: string, body: Record<string, unknown>) =>
  callWaits(path, { method, token, appId: A, body });
const voucherRow = (id: number) =>
  shardFor(APP_1)
    .prepare("SELECT code, usage_count, item_ids FROM vouchers WHERE id = ?")
    .bind(id)
    .first<{ code: string; usage_count: number; item_ids: string }>();
const eventsOf = async (type: string, id: number) =>
  (await shardFor(APP_1)
    .prepare("SELECT count(*) AS n FROM outbox_events WHERE type = ? AND json_extract(payload, '$.data.id') = ?")
    .bind(type, id)
    .first<{ n: number }>())!.n;

describe("D1 round trips of the voucher writes", () => {
  it("Create Voucher and Update Voucher, with items to check and a new code, each wait at most twice", async () => {
    const item = await createPlainItem(A);
    const code = newCode();
    const created = await send("POST", VOUCHERS, {
      code,
      title_en: "Ten off",
      title_ar: "خصم عشرة",
      kind: "percentage",
      value: 10,
      discount_on: "items",
      item_ids: [item.id],
    });
    const voucher = await json(created.res);
    expect(created.res.status, JSON.stringify(voucher)).toBe(201);
    expect(voucher).toMatchObject({ code, value: 10, item_ids: [item.id], usage_count: 0 });
    expect(await eventsOf("voucher.created", voucher.id)).toBe(1);
    expect(created.waits.beyondAuth).toBeLessThanOrEqual(2);

    const renamed = newCode();
    const updated = await send("PATCH", `${VOUCHERS}${voucher.id}/`, { code: renamed, item_ids: [item.id], value: 15 });
    const body = await json(updated.res);
    expect(updated.res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id: voucher.id, code: renamed, value: 15, item_ids: [item.id] });
    expect(await voucherRow(voucher.id)).toMatchObject({ code: renamed });
    expect(await eventsOf("voucher.updated", voucher.id)).toBe(1);
    expect(updated.waits.beyondAuth).toBeLessThanOrEqual(2);
  });

  it("Update Voucher Usage waits at most twice to use and release, once when nothing changes", async () => {
    const created = await send("POST", VOUCHERS, {
      code: newCode(),
      title_en: "Ten off",
      title_ar: "خصم عشرة",
      kind: "percentage",
      value: 10,
      usage_limit: 5,
      per_customer_limit: 2,
    });
    const voucher = await json(created.res);
    const customer = await createCustomerFor(A);
    const order = await insertOrder(A, customer.id);
    const usage = `${VOUCHERS}${voucher.code}/usage/`;
    const expected = {
      code: voucher.code,
      usage_limit: 5,
      per_customer_limit: 2,
      customer_id: customer.id,
    };

    const used = await send("POST", usage, { order_id: order, action: "use" });
    expect(used.res.status).toBe(200);
    expect(await json(used.res)).toEqual({ ...expected, usage_count: 1, customer_usage_count: 1 });
    expect(used.waits.beyondAuth).toBeLessThanOrEqual(2);

    const repeated = await send("POST", usage, { order_id: order, action: "use" });
    expect(repeated.res.status).toBe(200);
    expect(await json(repeated.res)).toEqual({ ...expected, usage_count: 1, customer_usage_count: 1 });
    expect(repeated.waits.beyondAuth).toBeLessThanOrEqual(1);

    const released = await send("POST", usage, { order_id: order, action: "release" });
    expect(released.res.status).toBe(200);
    expect(await json(released.res)).toEqual({ ...expected, usage_count: 0, customer_usage_count: 0 });
    expect(released.waits.beyondAuth).toBeLessThanOrEqual(2);

    expect((await voucherRow(voucher.id))!.usage_count).toBe(0);
    expect((await usedEvents(voucher.id)).map((e) => e.data.action)).toEqual(["use", "release"]);
  });
});
