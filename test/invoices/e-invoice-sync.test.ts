import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { consumerSink } from "../../src/modules/orders/einvoices/consumer";
import { signStores } from "../../src/modules/orders/einvoices/signer";
import { submitStores } from "../../src/modules/orders/einvoices/submitter";
import { warnExpiringUnits } from "../../src/modules/orders/einvoices/unit-sweeps";
import { db, shardFor, tokenFor } from "../helpers/factories";
import { call, json } from "../helpers/request";
import { M_ORDERS } from "../orders/helpers";
import { activeUnit, issue, pendingOrders, rowOf, SECRET, sellerStore } from "./e-invoice-chain-fixtures";
import { checkedOutInvoice, reportingStore } from "./e-invoice-reporting-fixtures";

/*
 * A mirror of the invoices (incremental sync, docs/interface-decisions.md) sees what the e-invoice
 * consumer writes in the webhooks Worker: the signature (the invoice's `zatca_qr`), ZATCA's answer
 * (`zatca_status`), a document that cannot be built yet (Invoice Details' messages). The order
 * shows none of these (its `invoices` are id, serial, type, status and total), so its modified_at
 * stays; a refund, which adds an invoice to the order, moves it and the refunded invoice's.
 */
const A = 8801;
const NO_ADDRESS = 8802;
const REFUNDS = 8803;
const UNITS_STORE = 8804;
const INVOICES = "/order/v1/merchant/invoices/";
const LONG_AGO = "2025-01-01T00:00:00.000Z";

/** Sets rows' modified_at long ago: whatever moves past it afterwards was moved by the writes under test. */
const age = (appId: number, table: "invoices" | "orders" | "einvoice_units", ids: number[]) =>
  shardFor(appId)
    .prepare(`UPDATE ${table} SET modified_at = ? WHERE app_id = ? AND id IN (${ids.join(",")})`)
    .bind(LONG_AGO, appId)
    .run();

describe("the e-invoice consumer's writes move the invoice's modified_at", () => {
  it("signed, then reported: each comes back on modified_at__gte; the order's view and modified_at stay", async () => {
    const { api, token } = await reportingStore(A);
    const { invoice, placed } = await checkedOutInvoice(A, token);
    const get = (path: string) => call(path, { token, appId: A }).then((r) => json(r));
    const invoiceSince = (since: string) =>
      get(`${INVOICES}?id=${invoice.id}&modified_at__gte=${since}&order_by=modified_at`);
    const orderPath = `${M_ORDERS}${placed.order.id}/`;
    await age(A, "invoices", [invoice.id]);
    expect((await invoiceSince("2025-06-01T00:00:00.000Z")).results).toEqual([]);
    const order = await get(orderPath);

    await signStores(db(A), [A], SECRET);
    const [signed] = (await invoiceSince("2025-06-01T00:00:00.000Z")).results;
    expect(signed).toMatchObject({ id: invoice.id, zatca_status: "pending", zatca_qr: expect.any(String) });
    expect(signed.modified_at > LONG_AGO).toBe(true);
    // Nothing since the signature.
    expect((await get(`${INVOICES}?id=${invoice.id}&modified_at__gt=${signed.modified_at}`)).results).toEqual([]);

    // The submission a minute later (the consumer's clock, fixed): reported, its time the invoice's.
    const later = Date.parse(signed.modified_at) + 60_000;
    const { sink, settle } = consumerSink({
      EVENTS: { send: async () => {}, sendBatch: async () => {} } as unknown as Queue,
    });
    expect((await submitStores(db(A), sink, api, SECRET, [A], () => later)).submitted).toBe(1);
    await settle();
    const [reported] = (await get(`${INVOICES}?id=${invoice.id}&modified_at__gt=${signed.modified_at}`)).results;
    expect(reported).toMatchObject({
      id: invoice.id,
      zatca_status: "reported",
      modified_at: new Date(later).toISOString(),
    });

    // The order shows none of it: the same view, modified_at included (a mirror of the orders reads nothing new).
    expect(await get(orderPath)).toEqual(order);
  });

  it("a document that cannot be built moves its invoice once, not on each retry of the sweep", async () => {
    await sellerStore(NO_ADDRESS, false);
    await activeUnit(NO_ADDRESS);
    const [orderId] = await pendingOrders(NO_ADDRESS, 1);
    await issue(NO_ADDRESS, orderId!);
    const { id } = await rowOf(NO_ADDRESS, "SELECT id FROM invoices WHERE order_id = ? AND type = 'invoice'", orderId);
    await age(NO_ADDRESS, "invoices", [id]);
    const modifiedAt = async () =>
      (await rowOf(NO_ADDRESS, "SELECT modified_at FROM invoices WHERE id = ?", id)).modified_at as string;

    expect(await signStores(db(NO_ADDRESS), [NO_ADDRESS], SECRET)).toBe(0);
    const stalled = await modifiedAt();
    expect(stalled > LONG_AGO).toBe(true);
    // The sweep finds the same reason: no change to mirror.
    await age(NO_ADDRESS, "invoices", [id]);
    expect(await signStores(db(NO_ADDRESS), [NO_ADDRESS], SECRET)).toBe(0);
    expect(await modifiedAt()).toBe(LONG_AGO);
  });
});

describe("an order's nested changes move its modified_at", () => {
  it("a refund adds an invoice to the order: the order and the refunded invoice (its lines' refunded qty) move", async () => {
    const { token } = await reportingStore(REFUNDS);
    const { invoice, placed } = await checkedOutInvoice(REFUNDS, token);
    await age(REFUNDS, "invoices", [invoice.id]);
    await age(REFUNDS, "orders", [placed.order.id]);
    const refunded = await call(`${INVOICES}${invoice.id}/refund/`, {
      method: "POST",
      token,
      appId: REFUNDS,
      body: { refund_reason: "Damaged" },
    });
    expect(refunded.status, await refunded.clone().text()).toBe(201);
    const refund = await json(refunded);

    const since = "2025-06-01T00:00:00.000Z";
    const orders = await json(
      await call(`${M_ORDERS}?id=${placed.order.id}&modified_at__gte=${since}`, { token, appId: REFUNDS }),
    );
    expect(orders.results).toHaveLength(1);
    expect(orders.results[0].invoices.map((i: { id: number }) => i.id)).toEqual([invoice.id, refund.id]);
    const invoices = await json(
      await call(`${INVOICES}?order_id=${placed.order.id}&modified_at__gte=${since}&order_by=id`, {
        token,
        appId: REFUNDS,
      }),
    );
    expect(invoices.results.map((i: { id: number }) => i.id)).toEqual([invoice.id, refund.id]);
    const details = await json(await call(`${INVOICES}${invoice.id}/`, { token, appId: REFUNDS }));
    expect(details.items.every((l: { refunded_qty: number; qty: number }) => l.refunded_qty === l.qty)).toBe(true);
  });
});

describe("a mirror of the e-invoicing units", () => {
  it("the cron's expiry warning and a signature move the unit's modified_at; modified_at__gte brings it back", async () => {
    await sellerStore(UNITS_STORE);
    const unitId = await activeUnit(UNITS_STORE);
    const now = Date.now();
    await shardFor(UNITS_STORE)
      .prepare("UPDATE einvoice_units SET production_not_after = ?, modified_at = ? WHERE id = ?")
      .bind(new Date(now + 10 * 86_400_000).toISOString(), LONG_AGO, unitId)
      .run();
    const token = await tokenFor(UNITS_STORE);
    const units = (q: string) =>
      call(`/order/v1/merchant/einvoicing/units/?${q}`, { token, appId: UNITS_STORE }).then((r) => json(r));
    const since = "2025-06-01T00:00:00.000Z";
    expect((await units(`modified_at__gte=${since}`)).results).toEqual([]);

    const pending: Promise<unknown>[] = [];
    await warnExpiringUnits(env, (p) => pending.push(p), now);
    await Promise.all(pending);
    const [warned] = (await units(`modified_at__gte=${since}&order_by=modified_at`)).results;
    expect(warned).toMatchObject({ id: unitId, modified_at: new Date(now).toISOString() });

    // A signature moves the chain's head (`signed_icv`), shown on the unit.
    const [orderId] = await pendingOrders(UNITS_STORE, 1);
    await issue(UNITS_STORE, orderId!);
    await age(UNITS_STORE, "einvoice_units", [unitId]);
    expect(await signStores(db(UNITS_STORE), [UNITS_STORE], SECRET)).toBe(1);
    const [signed] = (await units(`modified_at__gte=${since}`)).results;
    expect(signed).toMatchObject({ id: unitId, signed_icv: 1, last_icv: 1 });
    // Units are never deleted: the list takes no include_deleted.
    expect(
      (await call("/order/v1/merchant/einvoicing/units/?include_deleted=true", { token, appId: UNITS_STORE })).status,
    ).toBe(400);
  });
});
