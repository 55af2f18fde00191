import { describe, expect, it } from "vitest";
import { createCustomerFor, customerTokenFor, shardFor, tokenFor } from "../helpers/factories";
import { platformCall, platformStore } from "../helpers/platform";
import { call, json, problem } from "../helpers/request";
import { browse, cardOrder, formAction, startPayment } from "../orders/card-payments";

const STORES = "/platform/v1/stores/";

/** A store's row read on its own shard (placement may have put the store on any). */
const rowsOn = (appId: number, sql: string, id: number) =>
  shardFor(appId)
    .prepare(sql)
    .bind(appId, id)
    .all()
    .then((r) => r.results);
const SETTINGS = "/api/v1/dashboard/admin/settings/";

describe("suspending a store", () => {
  it("refuses its merchant, customer and public requests with 403 app_suspended until reactivated; data kept", async () => {
    const { storeId } = await platformStore({ currency: "USD" });
    const merchant = await tokenFor(storeId);
    const customer = await customerTokenFor(storeId, (await createCustomerFor(storeId)).id);
    const requests = [
      () => call(SETTINGS, { token: merchant, appId: storeId }),
      () => call("/api/v1/customer/profile/", { token: customer, appId: storeId }),
      () => call("/order/v1/items/", { appId: storeId }),
    ];
    const before = await Promise.all(requests.map((r) => r()));
    expect(before.map((r) => r.status)).toEqual([200, 200, 200]);
    const settingsBefore = await json(before[0]!);

    const suspended = await platformCall(`${STORES}${storeId}/suspend/`, {
      method: "POST",
      body: { reason: "Unpaid invoice" },
    });
    expect(suspended.status).toBe(200);
    expect(await json(suspended)).toMatchObject({
      id: storeId,
      status: "suspended",
      suspended_at: expect.any(String),
      suspension_reason: "Unpaid invoice",
    });
    for (const send of requests) {
      const res = await send();
      expect(res.status).toBe(403);
      const body = await problem(res);
      expect(body.code).toBe("app_suspended");
      expect(body.detail).toContain("Contact the platform");
    }
    const again = await platformCall(`${STORES}${storeId}/suspend/`, { method: "POST", body: { reason: "x" } });
    expect(again.status).toBe(409);
    expect(await problem(again)).toMatchObject({ code: "invalid_state_transition", current_status: "suspended" });

    const reactivated = await platformCall(`${STORES}${storeId}/reactivate/`, { method: "POST" });
    expect(reactivated.status).toBe(200);
    expect(await json(reactivated)).toMatchObject({ status: "active", suspended_at: null, suspension_reason: null });
    const after = await Promise.all(requests.map((r) => r()));
    expect(after.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await json(after[0]!)).toEqual(settingsBefore);

    const twice = await platformCall(`${STORES}${storeId}/reactivate/`, { method: "POST" });
    expect(twice.status).toBe(409);
    expect((await problem(twice)).code).toBe("invalid_state_transition");

    const events = await shardFor(storeId)
      .prepare("SELECT type, payload FROM outbox_events WHERE app_id = ? AND type LIKE 'store.%' ORDER BY rowid")
      .bind(storeId)
      .all<{ type: string; payload: string }>();
    expect(events.results.map((e) => [e.type, JSON.parse(e.payload).data])).toEqual([
      ["store.suspended", { id: storeId, reason: "Unpaid invoice" }],
      ["store.reactivated", { id: storeId }],
    ]);
  });

  it("refuses a new payment from its pay links; a payment already started still settles", async () => {
    const { storeId } = await platformStore();
    const started = await cardOrder(storeId, 1, 2000);
    const waiting = await cardOrder(storeId, 1, 3000);
    const { page } = await startPayment(started.payment_url);
    const pay = formAction(await (await browse(page)).text(), "pay");

    await platformCall(`${STORES}${storeId}/suspend/`, { method: "POST", body: { reason: "Review" } });
    const refused = await browse(waiting.payment_url);
    expect(refused.status).toBe(403);
    expect((await problem(refused)).code).toBe("app_suspended");
    const cardTransactions = (orderId: number) =>
      rowsOn(
        storeId,
        "SELECT * FROM transactions WHERE app_id = ? AND order_id = ? AND payment_provider = 'card'",
        orderId,
      );
    expect(await cardTransactions(waiting.order.id)).toEqual([]);
    const paid = await browse(pay, "POST");
    expect(paid.status).toBe(200);
    const [order] = await rowsOn(storeId, "SELECT * FROM orders WHERE app_id = ? AND id = ?", started.order.id);
    expect(order).toMatchObject({ status: "completed", payment_status: "paid" });

    await platformCall(`${STORES}${storeId}/reactivate/`, { method: "POST" });
    await startPayment(waiting.payment_url);
  });

  it("lists stores by status; 404 for an unknown store", async () => {
    const { orgId, storeId } = await platformStore();
    await platformCall(`${STORES}${storeId}/suspend/`, { method: "POST", body: { reason: "Review" } });
    const list = await json(await platformCall(`${STORES}?organization_id=${orgId}&status=suspended`));
    expect(list.results.map((s: { id: number }) => s.id)).toEqual([storeId]);
    const none = await json(await platformCall(`${STORES}?organization_id=${orgId}&status=active`));
    expect(none.count).toBe(0);
    const missing = await platformCall(`${STORES}999999999/suspend/`, { method: "POST", body: { reason: "x" } });
    expect(missing.status).toBe(404);
    expect((await problem(missing)).code).toBe("store_not_found");
  });
});
