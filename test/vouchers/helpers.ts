import { expect } from "vitest";
import { APP_1, shardFor } from "../helpers/factories";
import { call, json } from "../helpers/request";

export const VOUCHERS = "/order/v1/merchant/vouchers/";

let serial = 0;
/** A code no other test of the file uses. */
export const newCode = (prefix = "V") => `${prefix}${Date.now().toString(36)}${(serial++).toString(36)}`.toUpperCase();

/** Creates a voucher through the API (201 expected) and returns its body. */
export async function createVoucher(token: string, body: Record<string, unknown> = {}, appId = 1) {
  const res = await call(VOUCHERS, {
    method: "POST",
    token,
    appId,
    body: { code: newCode(), title_en: "Ten off", title_ar: "خصم عشرة", kind: "percentage", value: 10, ...body },
  });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out as Record<string, any>;
}

/** An order row of the store, inserted directly (the orders module's API is not needed here). */
export async function insertOrder(appId: number, customerId: number | null): Promise<number> {
  const row = await shardFor(appId)
    .prepare(
      "INSERT INTO orders (app_id, customer_id, currency, sub_total_minor, total_minor) VALUES (?, ?, 'SAR', 1000, 1000) RETURNING id",
    )
    .bind(appId, customerId)
    .first<{ id: number }>();
  return row!.id;
}

/** The `voucher.used` events of one voucher, oldest first. */
export async function usedEvents(voucherId: number) {
  const rows = await shardFor(APP_1)
    .prepare(
      "SELECT id, payload FROM outbox_events WHERE type = 'voucher.used' AND json_extract(payload, '$.data.id') = ? ORDER BY rowid",
    )
    .bind(voucherId)
    .all<{ id: string; payload: string }>();
  return rows.results.map((r) => ({ rowId: r.id, ...(JSON.parse(r.payload) as { id: string; data: any }) }));
}
