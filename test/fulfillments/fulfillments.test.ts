import { beforeAll, describe, expect, it } from "vitest";
import { sharedAuthCases, sharedCustomerAuthCases } from "../helpers/auth-cases";
import { createTicketsFor } from "../helpers/factories";
import { filtersMatching } from "../helpers/list-filters";
import { openApiDocument } from "../helpers/openapi";
import { json, problem } from "../helpers/request";
import { eventsWhere, locationOf, rowOf, rowsOf, type Store, shopperOf, stocked, storeFor } from "../orders/helpers";
import { deliveryItem, M_FULFILLMENTS, MY_FULFILLMENTS, paidOrderOf } from "./helpers";

// Stores of this file's own.
const A = 9601;
const B = 9602;
let store: Store;
let other: Store;

beforeAll(async () => {
  store = await storeFor(A);
  other = await storeFor(B);
});

const fulfillmentsOf = (orderId: number) =>
  rowsOf("SELECT * FROM fulfillments WHERE order_id = ? ORDER BY id", orderId);
const orderStatus = async (orderId: number) =>
  (await rowOf<{ s: string }>("SELECT fulfillment_status AS s FROM orders WHERE id = ?", orderId)).s;
const patch = (id: number, body: unknown, as = store) => as.as(`${M_FULFILLMENTS}${id}/`, { method: "PATCH", body });

describe("Creation at payment", () => {
  it("one pending fulfillment per line to fulfil, typed by its item, with the customer's snapshot and events", async () => {
    const s = await shopperOf(A, { email: "f1@example.com" });
    const loc = await locationOf(A, s.id);
    const box = await deliveryItem(A);
    const ebook = await stocked(A, 500, 10, { type: "digital", serviceType: "online" });
    const massage = await stocked(A, 700, 10, { type: "service", serviceType: "on_site" });
    const ticket = await stocked(A, 300, 10, { type: "ticket", serviceType: "on_site" });
    const order = await paidOrderOf(
      store,
      s,
      [
        { item_id: box.id, qty: 2 },
        { item_id: ebook.id, qty: 1 },
        { item_id: massage.id, qty: 1 },
        { item_id: ticket.id, qty: 1 },
      ],
      { location_id: loc.id },
    );
    const rows = await fulfillmentsOf(order.id);
    expect(rows.map((r) => [r.item_id, r.type, r.qty, r.status])).toEqual([
      [box.id, "delivery", 2, "pending"],
      [ebook.id, "digital", 1, "pending"],
      [massage.id, "service", 1, "pending"],
    ]);
    expect(rows[0]).toMatchObject({
      app_id: A,
      customer_id: s.id,
      customer_name: s.row.name,
      customer_email: "f1@example.com",
      customer_phone: s.row.mobileNumber,
      total_amount_minor: 2000,
      location_id: loc.id,
    });
    expect(JSON.parse(rows[0]!.location)).toMatchObject({ id: loc.id, address1: "King Fahd Rd" });
    expect(rows[0]!.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const events = await eventsWhere(A, ["fulfillment.created"], "order_id", order.id);
    expect(events.map((e) => e.data.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(events[0]!.data).toMatchObject({ order_id: order.id, status: "pending" });
    expect(order.fulfillment_status).toBe("unfulfilled");
  });

  it("an unpaid order has none; a pickup-only item is a pickup", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await json(
      await s.as("/order/v1/carts/", { method: "POST", body: { items: [{ item_id: item.id, qty: 1 }] } }),
    );
    const res = await s.as(`/order/v1/carts/${cart.id}/checkout/`, {
      method: "POST",
      body: { payment_provider: "card" },
    });
    const r = await json(res);
    expect(res.status).toBe(201);
    expect(await fulfillmentsOf(r.order.id)).toEqual([]);
    const paid = await paidOrderOf(store, s, [{ item_id: item.id, qty: 1 }]);
    expect((await fulfillmentsOf(paid.id)).map((f) => f.type)).toEqual(["pickup"]);
  });
});

describe("MF2/MF3 list and details", () => {
  it("lists fulfillments and tickets together, filtered and paginated; details of one", async () => {
    const s = await shopperOf(B);
    const box = await deliveryItem(B);
    const order = await paidOrderOf(other, s, [{ item_id: box.id, qty: 1 }]);
    const [f] = await fulfillmentsOf(order.id);
    const show = await stocked(B, 100, 1, { type: "ticket" });
    await createTicketsFor(B, show.id, 2);

    const all = await json(await other.as(`${M_FULFILLMENTS}?page_size=2`));
    expect(all.count).toBe(3);
    expect(all.results).toHaveLength(2);
    expect(all.next).toContain("page=2");
    const page2 = await json(await other.as(`${M_FULFILLMENTS}?page_size=2&page=2`));
    expect(page2.results).toHaveLength(1);

    const tickets = await json(await other.as(`${M_FULFILLMENTS}?type=ticket`));
    expect(tickets.count).toBe(2);
    expect(tickets.results[0]).toMatchObject({ type: "ticket", status: "pending", qty: 1, total_amount: 100.5 });
    expect(tickets.results[0].item.id).toBe(show.id);

    const mine = await json(await other.as(`${M_FULFILLMENTS}?type__in=delivery,pickup&order_id=${order.id}`));
    expect(mine.results.map((r: any) => r.id)).toEqual([f!.id]);
    expect(mine.results[0]).toMatchObject({
      type: "delivery",
      status: "pending",
      order_id: order.id,
      order_item_id: order.items[0]!.id,
      invoice_item_id: null,
      total_amount: 10,
      customer_id: s.id,
    });
    const searched = await json(await other.as(`${M_FULFILLMENTS}?search=Box`));
    expect(searched.results.map((r: any) => r.id)).toEqual([f!.id]);

    const one = await other.as(`${M_FULFILLMENTS}${f!.id}/`);
    expect(one.status).toBe(200);
    expect(await json(one)).toMatchObject({ id: f!.id, item: { id: box.id }, name_en: "Box", location: null });

    const bad = await other.as(`${M_FULFILLMENTS}?type=parcel`);
    expect(bad.status).toBe(400);
    const out = await other.as(`${M_FULFILLMENTS}?page=9`);
    expect(out.status).toBe(400);
  });

  // Every declared filter at once was a 500 (D1: "Expression tree is too large").
  it("takes every filter it declares at once, for the merchant and the customer, and answers the rows that meet them all", async () => {
    const doc = await openApiDocument();
    const s = await shopperOf(A);
    const loc = await locationOf(A, s.id);
    const order = await paidOrderOf(store, s, [{ item_id: (await deliveryItem(A)).id, qty: 2 }], {
      location_id: loc.id,
    });
    const [f] = await fulfillmentsOf(order.id);
    for (const [path, as] of [
      [M_FULFILLMENTS, store.as],
      [MY_FULFILLMENTS, s.as],
    ] as const) {
      const one = await as(`${path}${f!.id}/`);
      const all = filtersMatching(doc, doc.paths[path]!.get!, await json(one), "Box");
      expect(all.used.length, `${path} left out: ${all.left.join(", ")}`).toBeGreaterThanOrEqual(80);
      const res = await as(`${path}?${all.query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await json(res)).results.map((r: { id: number }) => r.id)).toEqual([f!.id]);
      // One of them missed: nothing.
      const missed = await as(`${path}?${all.query.replace(/(^|&)qty=\d+/, "$1qty=3")}`);
      expect((await json(missed)).count, path).toBe(0);
    }
  });

  it("404 for another store's fulfillment; another store's list does not show it", async () => {
    const s = await shopperOf(B);
    const order = await paidOrderOf(other, s, [{ item_id: (await deliveryItem(B)).id, qty: 1 }]);
    const [f] = await fulfillmentsOf(order.id);
    const res = await store.as(`${M_FULFILLMENTS}${f!.id}/`);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("fulfillment_not_found");
    const list = await json(await store.as(`${M_FULFILLMENTS}?order_id=${order.id}`));
    expect(list.count).toBe(0);
    expect((await patch(f!.id, { notes: "x" })).status).toBe(404);
  });
});

describe("MF4 the state machine", () => {
  it("pending → processing → shipped → delivered, with events and the order's fulfillment_status", async () => {
    const s = await shopperOf(A);
    const box = await deliveryItem(A);
    const order = await paidOrderOf(store, s, [
      { item_id: box.id, qty: 1 },
      { item_id: box.id, qty: 3 },
    ]);
    const [f1, f2] = await fulfillmentsOf(order.id);
    for (const status of ["processing", "shipped"]) {
      const res = await patch(f1!.id, { status });
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await json(res)).status).toBe(status);
    }
    expect(await orderStatus(order.id)).toBe("partially_fulfilled");
    await patch(f2!.id, { status: "processing" });
    await patch(f2!.id, { status: "shipped" });
    expect(await orderStatus(order.id)).toBe("fulfilled");
    const d1 = await json(await patch(f1!.id, { status: "delivered" }));
    expect(d1).toMatchObject({ status: "delivered" });
    expect(d1.delivered_at).toBeTruthy();
    expect(d1.fulfilled_at).toBeTruthy();
    expect(await orderStatus(order.id)).toBe("fulfilled");
    await patch(f2!.id, { status: "delivered" });
    expect(await orderStatus(order.id)).toBe("delivered");

    const events = await eventsWhere(A, ["fulfillment.status_changed"], "id", f1!.id);
    expect(events.map((e) => [e.data.previous_status, e.data.status])).toEqual([
      ["pending", "processing"],
      ["processing", "shipped"],
      ["shipped", "delivered"],
    ]);
  });

  it("a cancelled line does not hold the order back", async () => {
    const s = await shopperOf(A);
    const box = await deliveryItem(A);
    const order = await paidOrderOf(store, s, [
      { item_id: box.id, qty: 1 },
      { item_id: box.id, qty: 2 },
    ]);
    const [f1, f2] = await fulfillmentsOf(order.id);
    const c = await json(await patch(f1!.id, { status: "cancelled" }));
    expect(c.cancelled_at).toBeTruthy();
    for (const status of ["processing", "shipped", "delivered"]) await patch(f2!.id, { status });
    expect(await orderStatus(order.id)).toBe("delivered");
  });

  const illegal: [string[], string, string[]][] = [
    [[], "shipped", ["processing", "cancelled"]],
    [[], "delivered", ["processing", "cancelled"]],
    [["processing"], "pending", ["shipped", "cancelled"]],
    [["processing"], "delivered", ["shipped", "cancelled"]],
    [["processing", "shipped"], "pending", ["delivered"]],
    [["processing", "shipped"], "processing", ["delivered"]],
    [["processing", "shipped"], "cancelled", ["delivered"]],
    [["processing", "shipped", "delivered"], "shipped", []],
    [["processing", "shipped", "delivered"], "cancelled", []],
    [["cancelled"], "pending", []],
    [["cancelled"], "processing", []],
  ];
  it.each(illegal)("after %j, a move to %s is a 409 naming the allowed actions", async (path, to, allowed) => {
    const s = await shopperOf(A);
    const order = await paidOrderOf(store, s, [{ item_id: (await deliveryItem(A)).id, qty: 1 }]);
    const [f] = await fulfillmentsOf(order.id);
    for (const status of path) expect((await patch(f!.id, { status })).status).toBe(200);
    const res = await patch(f!.id, { status: to, notes: "not written" });
    expect(res.status).toBe(409);
    const p = await problem(res);
    expect(p).toMatchObject({ code: "invalid_state_transition", allowed_actions: allowed });
    const row = await rowOf("SELECT status, notes FROM fulfillments WHERE id = ?", f!.id);
    expect(row.notes).toBeNull();
    expect(row.status).toBe(path.at(-1) ?? "pending");
  });

  it("the same status changes nothing; schedule, notes and location change with fulfillment.updated", async () => {
    const s = await shopperOf(A);
    const loc = await locationOf(A, s.id);
    const order = await paidOrderOf(store, s, [{ item_id: (await deliveryItem(A)).id, qty: 1 }]);
    const [f] = await fulfillmentsOf(order.id);
    const same = await patch(f!.id, { status: "pending" });
    expect(same.status).toBe(200);
    expect(await eventsWhere(A, ["fulfillment.updated", "fulfillment.status_changed"], "id", f!.id)).toEqual([]);
    const res = await patch(f!.id, { date: "2030-01-02", time: "09:30", notes: "Ring twice", location_id: loc.id });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      date: "2030-01-02",
      time: "09:30:00",
      notes: "Ring twice",
      location_id: loc.id,
      location: { id: loc.id },
    });
    const [e] = await eventsWhere(A, ["fulfillment.updated"], "id", f!.id);
    expect(e!.data).toMatchObject({ order_id: order.id, changes: ["date", "time", "location", "notes"] });
  });

  it("validation: unknown fields, empty body, bad date and status, another customer's location", async () => {
    const s = await shopperOf(A);
    const stranger = await shopperOf(A);
    const theirs = await locationOf(A, stranger.id);
    const order = await paidOrderOf(store, s, [{ item_id: (await deliveryItem(A)).id, qty: 1 }]);
    const [f] = await fulfillmentsOf(order.id);
    for (const body of [{}, { qty: 2 }, { date: "2030-02-30" }, { status: "lost" }, { time: "25:00" }]) {
      const res = await patch(f!.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const res = await patch(f!.id, { location_id: theirs.id });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("customer_location_not_found");
    expect((await patch(999_999_999, { notes: "x" })).status).toBe(404);
  });
});

describe("MF1 overview", () => {
  it("counts by status and type, today, upcoming and overdue in the store's calendar", async () => {
    const C = 9603;
    const st = await storeFor(C);
    const s = await shopperOf(C);
    const box = await deliveryItem(C);
    const order = await paidOrderOf(st, s, [
      { item_id: box.id, qty: 1 },
      { item_id: box.id, qty: 1 },
      { item_id: box.id, qty: 1 },
    ]);
    const [f1, f2, f3] = await fulfillmentsOf(order.id);
    const today = f1!.date as string;
    await st.as(`${M_FULFILLMENTS}${f2!.id}/`, { method: "PATCH", body: { date: "2999-01-01", status: "processing" } });
    await st.as(`${M_FULFILLMENTS}${f3!.id}/`, { method: "PATCH", body: { date: "2000-01-01" } });
    const show = await stocked(C, 100, 1, { type: "ticket" });
    await createTicketsFor(C, show.id, 1, { date: today });
    const res = await st.as(`${M_FULFILLMENTS}overview/`);
    expect(res.status).toBe(200);
    const o = await json(res);
    expect(o).toMatchObject({
      today,
      total: 4,
      by_type: { delivery: 3, ticket: 1, pickup: 0, digital: 0, service: 0 },
      by_status: { pending: 3, processing: 1, shipped: 0 },
      due_today: { total: 2, by_status: { pending: 2 } },
      upcoming: { total: 1, by_status: { processing: 1 } },
      overdue: 1,
    });
    expect(o.upcoming_days).toHaveLength(7);
    expect(o.upcoming_days[0]).toEqual({ date: today, count: 2 });
  });
});

describe("CA12 customer", () => {
  it("sees only their own; may change date, time, location, notes while pending or processing", async () => {
    const s = await shopperOf(A);
    const loc = await locationOf(A, s.id);
    const stranger = await shopperOf(A);
    const box = await deliveryItem(A);
    const order = await paidOrderOf(store, s, [{ item_id: box.id, qty: 1 }]);
    const theirs = await paidOrderOf(store, stranger, [{ item_id: box.id, qty: 1 }]);
    const [f] = await fulfillmentsOf(order.id);
    const [g] = await fulfillmentsOf(theirs.id);

    const list = await json(await s.as(MY_FULFILLMENTS));
    expect(list.results.map((r: any) => r.id)).toEqual([f!.id]);
    expect((await s.as(`${MY_FULFILLMENTS}${f!.id}/`)).status).toBe(200);
    const hidden = await s.as(`${MY_FULFILLMENTS}${g!.id}/`);
    expect(hidden.status).toBe(404);
    expect((await problem(hidden)).code).toBe("fulfillment_not_found");
    expect((await s.as(`${MY_FULFILLMENTS}${g!.id}/`, { method: "PATCH", body: { notes: "x" } })).status).toBe(404);

    const ok = await s.as(`${MY_FULFILLMENTS}${f!.id}/`, {
      method: "PATCH",
      body: { date: "2030-05-05", time: null, location_id: loc.id, notes: "Gate 3" },
    });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(await json(ok)).toMatchObject({ date: "2030-05-05", time: null, location_id: loc.id, notes: "Gate 3" });
    const status = await s.as(`${MY_FULFILLMENTS}${f!.id}/`, { method: "PATCH", body: { status: "cancelled" } });
    expect(status.status).toBe(400);
    const foreignLoc = await locationOf(A, stranger.id);
    const nope = await s.as(`${MY_FULFILLMENTS}${f!.id}/`, { method: "PATCH", body: { location_id: foreignLoc.id } });
    expect(nope.status).toBe(404);

    await patch(f!.id, { status: "processing" });
    expect((await s.as(`${MY_FULFILLMENTS}${f!.id}/`, { method: "PATCH", body: { notes: "ok" } })).status).toBe(200);
    await patch(f!.id, { status: "shipped" });
    const locked = await s.as(`${MY_FULFILLMENTS}${f!.id}/`, { method: "PATCH", body: { notes: "late" } });
    expect(locked.status).toBe(409);
    expect(await problem(locked)).toMatchObject({ code: "fulfillment_locked", status: "shipped" });
  });
});

sharedAuthCases({ method: "GET", path: M_FULFILLMENTS, permission: "can_read_order" });
sharedAuthCases({ method: "PATCH", path: `${M_FULFILLMENTS}1/`, permission: "can_write_order", body: { notes: "x" } });
sharedCustomerAuthCases({ method: "GET", path: MY_FULFILLMENTS });
