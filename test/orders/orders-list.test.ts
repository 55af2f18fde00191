import { beforeAll, describe, expect, it } from "vitest";
import { observeRoundTrips, observeStatements } from "../../src/db/client";
import { APP_1, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { pageIds as ids, problem, json as read } from "../helpers/request";
import {
  depositCashback,
  M_ORDERS,
  MY_ORDERS,
  orderOf,
  orderRow,
  rowsOf,
  type Shopper,
  type Store,
  shopperOf,
  stocked,
  storeFor,
} from "./helpers";

// Stores of this file's own: 8301 (the store), 8302 (another tenant).
const A = 8301;
const B = 8302;
let store: Store;
let other: Store;
const uniq = Date.now().toString(36);

beforeAll(async () => {
  store = await storeFor(A);
  other = await storeFor(B);
});

const cancel = (id: number, as = store) =>
  as.as(`${M_ORDERS}${id}/`, { method: "PATCH", body: { status: "cancelled" } });

describe("List Orders (MO4) and the customer's (CA11)", () => {
  let nadia: Shopper;
  let omar: Shopper;
  const o: Record<string, any> = {};

  beforeAll(async () => {
    nadia = await shopperOf(A, { name: `Nadia ${uniq}` });
    omar = await shopperOf(A, { name: `Omar ${uniq}` });
    const item = await stocked(A, 1000, 50);
    o.card = (await orderOf(nadia, [{ item_id: item.id, qty: 1 }], "card")).order;
    o.bank = (await orderOf(nadia, [{ item_id: item.id, qty: 2 }], "bank_transfer")).order;
    await depositCashback(store, omar.id, 100);
    o.wallet = (await orderOf(omar, [{ item_id: item.id, qty: 3 }], "wallet")).order;
    const res = await store.as(M_ORDERS, {
      method: "POST",
      body: { customer_id: omar.id, items: [{ item_id: item.id, qty: 1 }], reference: `REF-${uniq}` },
    });
    expect(res.status).toBe(201);
    o.phone = await read(res);
  });

  it("filters on customer, status, payment status and creation time", async () => {
    const page = await read(await store.as(`${M_ORDERS}?customer_id=${nadia.id}`));
    expect(schemaErrors("listOrders", page)).toEqual([]);
    expect(page.count).toBe(2);
    expect(ids(page)).toEqual([o.bank.id, o.card.id]);
    expect(page.results[0]).toMatchObject({ customer: { id: nadia.id }, items: [expect.objectContaining({ qty: 2 })] });
    expect(ids(await read(await store.as(`${M_ORDERS}?customer_id=${omar.id}&status=completed`)))).toEqual([
      o.wallet.id,
    ]);
    expect(
      ids(await read(await store.as(`${M_ORDERS}?customer_id=${nadia.id}&payment_status=pending_review`))),
    ).toEqual([o.bank.id]);
    expect(ids(await read(await store.as(`${M_ORDERS}?customer_id=${omar.id}&payment_provider=card`)))).toEqual([
      o.phone.id,
    ]);
    const since = encodeURIComponent(o.bank.created_at);
    expect(ids(await read(await store.as(`${M_ORDERS}?customer_id=${nadia.id}&created_at__gte=${since}`)))).toEqual([
      o.bank.id,
    ]);
    expect(ids(await read(await store.as(`${M_ORDERS}?customer_id=${nadia.id}&created_at__lt=${since}`)))).toEqual([
      o.card.id,
    ]);
    expect((await store.as(`${M_ORDERS}?status=shipped`)).status).toBe(400);
  });

  it("searches the reference, the customer's name or mobile number", async () => {
    expect(ids(await read(await store.as(`${M_ORDERS}?search=REF-${uniq}`)))).toEqual([o.phone.id]);
    expect(ids(await read(await store.as(`${M_ORDERS}?search=${encodeURIComponent(`nadia ${uniq}`)}`)))).toEqual([
      o.bank.id,
      o.card.id,
    ]);
    const mobile = omar.row.mobileNumber.slice(-7);
    expect(ids(await read(await store.as(`${M_ORDERS}?search=${mobile}`)))).toEqual([o.phone.id, o.wallet.id]);
    expect((await read(await other.as(`${M_ORDERS}?search=REF-${uniq}`))).count).toBe(0);
    // A filter narrows the search's matches; a customer's search finds only their own orders.
    expect(ids(await read(await store.as(`${M_ORDERS}?search=${mobile}&status=completed`)))).toEqual([o.wallet.id]);
    const mine = await read(await nadia.as(`${MY_ORDERS}?search=${encodeURIComponent(`nadia ${uniq}`)}`));
    expect(ids(mine)).toEqual([o.bank.id, o.card.id]);
    expect((await read(await nadia.as(`${MY_ORDERS}?search=${mobile}`))).count).toBe(0);
  });

  it("details: the order with its customer, lines, invoices and allowed actions; 404 in another store", async () => {
    const res = await store.as(`${M_ORDERS}${o.wallet.id}/`);
    const got = await read(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("getOrder", got)).toEqual([]);
    expect(got).toMatchObject({
      id: o.wallet.id,
      status: "completed",
      customer: { id: omar.id, name: `Omar ${uniq}` },
      allowed_actions: ["refund"],
      payment_url: null,
    });
    const sqls: string[] = [];
    let trips = 0;
    const stop = observeStatements((q) => sqls.push(q));
    const stopTrips = observeRoundTrips(() => trips++);
    expect((await store.as(`${M_ORDERS}${o.wallet.id}/`)).status).toBe(200);
    stop();
    stopTrips();
    // Besides the token's lookup: the order and every nested level in one round trip.
    const lookups = sqls.filter((q) => q.includes("merchant_api_tokens")).length;
    expect([trips - lookups, sqls.length - lookups]).toEqual([1, 1]);
    const missing = await other.as(`${M_ORDERS}${o.wallet.id}/`);
    expect(missing.status).toBe(404);
    expect((await problem(missing)).code).toBe("order_not_found");
    expect((await other.as(`${M_ORDERS}${o.wallet.id}/`, { method: "PATCH", body: { notes: "x" } })).status).toBe(404);
    expect((await orderRow(o.wallet.id)).notes).toBeNull();
  });

  it("List Orders: the count, the page and every nested level in one round trip, within D1's 100 bound parameters", async () => {
    for (const query of [
      "",
      `?customer_id=${nadia.id}`,
      `?search=${encodeURIComponent(`nadia ${uniq}`)}&page_size=1`,
      // Five terms of the trigram indexes, the most a request takes, still bind at most 100 parameters.
      `?${["nadia", uniq, "Nadia", "adia", uniq.toUpperCase()].map((t) => `search=${encodeURIComponent(t)}`).join("&")}`,
    ]) {
      const sqls: string[] = [];
      let trips = 0;
      const stop = observeStatements((q) => sqls.push(q));
      const stopTrips = observeRoundTrips(() => trips++);
      const res = await store.as(`${M_ORDERS}${query}`);
      stop();
      stopTrips();
      expect(res.status).toBe(200);
      expect((await read(res)).results[0]).toMatchObject({
        items: [expect.objectContaining({ item: expect.any(Object) })],
      });
      const own = sqls.filter((q) => !q.includes("merchant_api_tokens"));
      expect(own, query).toHaveLength(1);
      expect(trips - (sqls.length - own.length), query).toBe(1);
      expect(own[0]!.split("?").length - 1, query).toBeLessThanOrEqual(100);
    }
  });

  it("a customer sees only their own orders; another's is a 404", async () => {
    const page = await read(await nadia.as(MY_ORDERS));
    expect(schemaErrors("listMyOrders", page)).toEqual([]);
    expect(ids(page)).toEqual([o.bank.id, o.card.id]);
    const mine = await read(await nadia.as(`${MY_ORDERS}${o.card.id}/`));
    expect(schemaErrors("getMyOrder", mine)).toEqual([]);
    expect(mine).toMatchObject({ id: o.card.id, status: "pending" });
    expect(mine.payment_url).toMatch(/\/order\/v1\/checkout\//);
    const theirs = await nadia.as(`${MY_ORDERS}${o.wallet.id}/`);
    expect(theirs.status).toBe(404);
    expect((await problem(theirs)).code).toBe("order_not_found");
    const far = await shopperOf(B);
    expect((await far.as(`${MY_ORDERS}${o.card.id}/`)).status).toBe(404);
    expect((await read(await far.as(MY_ORDERS))).count).toBe(0);
  });
});

describe("List Orders' search (MO4): trigram indexes of names, mobile numbers and references", () => {
  // Stores of this block's own: everything in them is made here.
  const S = 8305;
  const T = 8306;
  let shop: Store;
  let twin: Store;
  let item: { id: number };
  // A mobile number of this run's own, and the same number in the other store.
  const mobile = `96657${String(Date.now() % 1e7).padStart(7, "0")}`;
  const middle = mobile.slice(4, 10);
  const c: Record<string, Awaited<ReturnType<typeof shopperOf>>> = {};
  const o: Record<string, { id: number }> = {};
  const search = async (as: Store, term: string) => {
    const res = await as.as(`${M_ORDERS}?search=${encodeURIComponent(term)}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return ids(await read(res));
  };
  const phoneOrder = async (as: Store, customerId: number, reference?: string) => {
    const res = await as.as(M_ORDERS, {
      method: "POST",
      body: { customer_id: customerId, items: [{ item_id: item.id, qty: 1 }], reference },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await read(res)) as { id: number };
  };

  beforeAll(async () => {
    shop = await storeFor(S);
    twin = await storeFor(T);
    item = await stocked(S, 1000, 100);
    c.nadia = await shopperOf(S, { name: `Nadia Qasim ${uniq}`, mobileNumber: mobile });
    c.arabic = await shopperOf(S, { name: "نادية العتيبي" });
    c.quoted = await shopperOf(S, { name: 'Dana "the cook"' });
    c.accent = await shopperOf(S, { name: "Émile Roux" });
    c.twin = await shopperOf(T, { name: `Nadia Qasim ${uniq}`, mobileNumber: mobile });
    o.nadia = await phoneOrder(shop, c.nadia.id);
    o.arabic = await phoneOrder(shop, c.arabic.id);
    o.quoted = await phoneOrder(shop, c.quoted.id);
    o.accent = await phoneOrder(shop, c.accent.id);
    o.ref = await phoneOrder(shop, c.quoted.id, `POS-${uniq}-#7`);
    const twinItem = await stocked(T, 1000, 10);
    const res = await twin.as(M_ORDERS, {
      method: "POST",
      body: { customer_id: c.twin.id, items: [{ item_id: twinItem.id, qty: 1 }], reference: `POS-${uniq}-#7` },
    });
    expect(res.status).toBe(201);
    o.twin = await read(res);
  });

  it("finds a fragment of a mobile number, a name (Latin, Arabic, quoted) or a reference, in the store only", async () => {
    expect(await search(shop, middle)).toEqual([o.nadia!.id]);
    expect(await search(twin, middle)).toEqual([o.twin!.id]);
    expect(await search(shop, `qasim ${uniq}`.toUpperCase())).toEqual([o.nadia!.id]);
    expect(await search(shop, "العتيب")).toEqual([o.arabic!.id]);
    expect(await search(shop, '"the cook"')).toEqual([o.ref!.id, o.quoted!.id]);
    expect(await search(shop, 'the "cook')).toEqual([]);
    expect(await search(shop, `os-${uniq}-#`)).toEqual([o.ref!.id]);
    expect(await search(twin, `${uniq}-#`)).toEqual([o.twin!.id]);
    // Case is folded for ASCII letters only, as before the index (`containsText`).
    expect(await search(shop, "ÉMILE")).toEqual([o.accent!.id]);
    expect(await search(shop, "émile")).toEqual([]);
  });

  it("a term under 3 characters, which has no trigram, or one with a NUL, is still searched", async () => {
    expect(await search(shop, "نا")).toEqual([o.arabic!.id]);
    expect(await search(shop, "#7")).toEqual([o.ref!.id]);
    expect(await search(shop, "É")).toEqual([o.accent!.id]);
    // FTS5 would refuse the NUL (a 500): the term is tested as before, and contained nowhere.
    expect(await search(shop, `${middle}\0`)).toEqual([]);
  });

  it("follows a customer's new name and number, and an order's new reference (the indexes' triggers)", async () => {
    const patch = async (path: string, body: unknown) =>
      expect((await shop.as(path, { method: "PATCH", body })).status).toBe(200);
    await patch(`/order/v1/merchant/customers/${c.nadia!.id}/`, { name: `Layla Haddad ${uniq}` });
    expect(await search(shop, `qasim ${uniq}`)).toEqual([]);
    expect(await search(shop, `haddad ${uniq}`)).toEqual([o.nadia!.id]);
    expect(await search(twin, `qasim ${uniq}`)).toEqual([o.twin!.id]);
    await patch(`/order/v1/merchant/customers/${c.nadia!.id}/`, { mobile_number: "0561234987" });
    expect(await search(shop, middle)).toEqual([]);
    expect(await search(shop, "61234987")).toEqual([o.nadia!.id]);
    expect(await search(shop, `haddad ${uniq}`)).toEqual([o.nadia!.id]);
    await patch(`${M_ORDERS}${o.ref!.id}/`, { reference: `WEB-${uniq}-7` });
    expect(await search(shop, `POS-${uniq}`)).toEqual([]);
    expect(await search(shop, `web-${uniq}`)).toEqual([o.ref!.id]);
    await patch(`${M_ORDERS}${o.ref!.id}/`, { reference: null });
    expect(await search(shop, `web-${uniq}`)).toEqual([]);
    expect(await search(twin, `POS-${uniq}`)).toEqual([o.twin!.id]);
  });
});

describe("List Orders' count from the store's kept counters (order_counts)", () => {
  // A store of its own, so that its counts are exact.
  const C = 8303;
  const counted = async () =>
    Object.fromEntries(
      (
        await rowsOf<{ status: string; n: number }>(
          "SELECT status, count(*) AS n FROM orders WHERE app_id = ? AND is_deleted = 0 GROUP BY status",
          C,
        )
      ).map((r) => [r.status, r.n]),
    );
  const kept = async () =>
    Object.fromEntries(
      (
        await rowsOf<{ status: string; n: number }>("SELECT status, n FROM order_counts WHERE app_id = ? AND n > 0", C)
      ).map((r) => [r.status, r.n]),
    );

  it("stays exact through concurrent checkouts, cancels, soft and hard deletes; the list counts from it", async () => {
    const mine = await storeFor(C);
    const s = await shopperOf(C);
    const item = await stocked(C, 1000, 100);
    // Checkouts at the same time: each counter update is in its order's own statement.
    const placed = await Promise.all(Array.from({ length: 6 }, () => orderOf(s, [{ item_id: item.id, qty: 1 }])));
    const [a, b, c, d] = placed.map((p) => p.order.id as number);
    expect((await cancel(a!, mine)).status).toBe(200);
    expect((await cancel(b!, mine)).status).toBe(200);
    await shardFor(APP_1).prepare("UPDATE orders SET is_deleted = 1 WHERE id = ?").bind(c).run();
    await shardFor(APP_1).batch([
      shardFor(APP_1).prepare("DELETE FROM order_items WHERE order_id = ?").bind(d),
      shardFor(APP_1)
        .prepare("DELETE FROM invoice_items WHERE invoice_id IN (SELECT id FROM invoices WHERE order_id = ?)")
        .bind(d),
      shardFor(APP_1).prepare("DELETE FROM invoices WHERE order_id = ?").bind(d),
      shardFor(APP_1).prepare("DELETE FROM transactions WHERE order_id = ?").bind(d),
      shardFor(APP_1).prepare("DELETE FROM orders WHERE id = ?").bind(d),
    ]);
    expect(await counted()).toEqual({ pending: 2, cancelled: 2 });
    expect(await kept()).toEqual(await counted());

    for (const [query, count, fromCounters] of [
      // A page of 1: the count is not the page's own.
      ["?page_size=1", 4, true],
      ["?status=pending&page_size=1", 2, true],
      ["?status=cancelled&page_size=1", 2, true],
      ["?status=completed", 0, true],
      [`?customer_id=${s.id}&page_size=1`, 4, false],
    ] as const) {
      const sqls: string[] = [];
      const stop = observeStatements((q) => sqls.push(q));
      const page = await read(await mine.as(`${M_ORDERS}${query}`));
      stop();
      expect(page.count, query).toBe(count);
      expect(
        sqls.some((q) => q.includes("order_counts")),
        query,
      ).toBe(fromCounters);
    }
  });
});
