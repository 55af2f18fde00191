import { beforeAll, describe, expect, it } from "vitest";
import { callWaits, json, problem } from "../helpers/request";
import { eventsWhere, rowOf, rowsOf, type Store, storeFor } from "../orders/helpers";
import {
  COURIERS,
  courierBody,
  created,
  fakeCallback,
  SHIP,
  shipmentsIn,
  shippableOrder,
  shippingStoreOf,
} from "./helpers";

// Stores of this file's own.
const A = 9721;
const B = 9722;
let store: Store;
let other: Store;
let vans: { id: number };
let fakeId: number;
let origin: { id: number };

beforeAll(async () => {
  ({ store, vans, origin, fakeId } = await shippingStoreOf(A));
  other = await storeFor(B);
});

const { ship, status, shipped } = shipmentsIn(() => ({ store, vans }));

describe("MH4 create shipment", () => {
  it("ships an order's fulfillments with a custom courier: priced by its rules, linked, history, events", async () => {
    const { order, fulfillmentIds, shipment } = await shipped();
    expect(shipment).toMatchObject({
      order_id: order.id,
      fulfillment_ids: fulfillmentIds,
      courier_id: vans.id,
      service: "standard",
      direction: "forward",
      status: "created",
      cost: 20,
      currency: "SAR",
      weight: 1,
      origin: { pickup_location_id: origin.id, city_id: 1 },
      destination: { city_id: 1, district_id: 1, address1: "King Fahd Rd" },
      allowed_actions: ["purchase_label", "pick_up", "cancel"],
    });
    expect(shipment.tracking_number).toMatch(/^TR\d{14}$/);
    expect(shipment.carrier_reference).toBeNull();
    expect(shipment.status_history.map((h: { status: string }) => h.status)).toEqual(["created"]);
    const f = await rowsOf(
      "SELECT status, shipment_id, tracking_number FROM fulfillments WHERE order_id = ? ORDER BY id",
      order.id,
    );
    expect(f).toEqual(
      fulfillmentIds.map(() => ({
        status: "processing",
        shipment_id: shipment.id,
        tracking_number: shipment.tracking_number,
      })),
    );
    const [ev] = await eventsWhere(A, ["shipment.created"], "id", shipment.id);
    expect(ev!.data).toEqual({
      id: shipment.id,
      order_id: order.id,
      courier_id: vans.id,
      direction: "forward",
      status: "created",
      fulfillment_ids: fulfillmentIds,
    });
    // The shipment, and a page of them, with their fulfillments and history: one D1 round trip each.
    const one = await callWaits(`${SHIP}${shipment.id}/`, { token: store.token, appId: A });
    expect(await json(one.res)).toEqual(shipment);
    expect(one.waits.beyondAuth).toBe(1);
    expect((await other.as(`${SHIP}${shipment.id}/`)).status).toBe(404);
    const page = await callWaits(`${SHIP}?order_id=${order.id}`, { token: store.token, appId: A });
    expect((await json(page.res)).results).toEqual([shipment]);
    expect(page.waits.beyondAuth).toBe(1);
  });

  it("refuses a fulfillment shipped already, unknown ids, another store's courier, uncovered or inactive couriers", async () => {
    const { fulfillmentIds } = await shipped();
    const again = await ship({ fulfillment_ids: fulfillmentIds, courier_id: vans.id });
    expect(again.status).toBe(409);
    expect((await problem(again)).code).toBe("fulfillment_not_shippable");
    const o = await shippableOrder(store);
    expect((await ship({ fulfillment_ids: [99999999], courier_id: vans.id })).status).toBe(400);
    const foreign = await created(other, COURIERS, courierBody());
    const f404 = await ship({ fulfillment_ids: o.fulfillmentIds, courier_id: foreign.id });
    expect(f404.status).toBe(404);
    expect((await problem(f404)).code).toBe("courier_not_found");
    const jeddahOnly = await created(store, COURIERS, courierBody({ coverage: { cities: [2] }, price_rules: [] }));
    const uncovered = await ship({ fulfillment_ids: o.fulfillmentIds, courier_id: jeddahOnly.id });
    expect(uncovered.status).toBe(409);
    expect(await problem(uncovered)).toMatchObject({
      code: "courier_unavailable",
      detail: "The courier does not cover city 1.",
    });
    const heavy = await ship({
      fulfillment_ids: o.fulfillmentIds,
      courier_id: vans.id,
      packages: [{ weight: 31, length: 1, width: 1, height: 1 }],
    });
    expect(heavy.status).toBe(409);
    expect((await problem(heavy)).code).toBe("courier_unavailable");
    expect((await ship({ fulfillment_ids: o.fulfillmentIds, courier_id: vans.id, service: "rocket" })).status).toBe(
      400,
    );
    expect((await ship({ fulfillment_ids: [], courier_id: vans.id })).status).toBe(400);
    // Nothing of the refused requests was written.
    expect(
      (await rowOf("SELECT count(*) AS n FROM shipment_fulfillments WHERE fulfillment_id = ?", o.fulfillmentIds[0])).n,
    ).toBe(0);
  });
});

describe("status machine, cancel MH5, custom courier status", () => {
  it("walks created → picked_up → … → delivered; fulfillments ship then deliver; events per step", async () => {
    const { order, shipment } = await shipped();
    for (const s of [
      "picked_up",
      "in_transit",
      "out_for_delivery",
      "failed_attempt",
      "out_for_delivery",
      "delivered",
    ]) {
      const res = await status(shipment.id, s);
      expect(res.status, `${s}: ${await res.clone().text()}`).toBe(200);
    }
    const now = await json(await store.as(`${SHIP}${shipment.id}/`));
    expect(now.status).toBe("delivered");
    expect(now.delivered_at).toBeTruthy();
    expect(now.status_history.map((h: { status: string }) => h.status)).toEqual([
      "created",
      "picked_up",
      "in_transit",
      "out_for_delivery",
      "failed_attempt",
      "out_for_delivery",
      "delivered",
    ]);
    const f = await rowsOf("SELECT status FROM fulfillments WHERE order_id = ?", order.id);
    expect(f.every((r) => r.status === "delivered")).toBe(true);
    expect((await rowOf("SELECT fulfillment_status AS s FROM orders WHERE id = ?", order.id)).s).toBe("delivered");
    expect((await eventsWhere(A, ["shipment.status_changed"], "id", shipment.id)).length).toBe(6);
    expect((await eventsWhere(A, ["shipment.delivered"], "id", shipment.id)).length).toBe(1);
  });

  it("every illegal move is 409 invalid_state_transition naming the status and allowed actions", async () => {
    const illegal: Record<string, string[]> = {
      created: ["in_transit", "out_for_delivery", "delivered", "failed_attempt", "exception", "returned_to_sender"],
      picked_up: ["picked_up", "out_for_delivery", "delivered", "failed_attempt"],
      in_transit: ["picked_up", "in_transit", "delivered", "failed_attempt"],
      out_for_delivery: ["picked_up", "in_transit", "out_for_delivery"],
    };
    const path = ["picked_up", "in_transit", "out_for_delivery"];
    const { shipment } = await shipped();
    for (const [from, moves] of Object.entries(illegal)) {
      for (const to of moves) {
        const res = await status(shipment.id, to);
        const p = await problem(res);
        expect(res.status, `${from} → ${to}`).toBe(409);
        expect(p).toMatchObject({ code: "invalid_state_transition", current_status: from });
      }
      const next = path.shift();
      if (next) expect((await status(shipment.id, next)).status).toBe(200);
    }
    expect((await status(shipment.id, "delivered")).status).toBe(200);
    for (const to of ["picked_up", "in_transit", "out_for_delivery", "delivered", "exception", "returned_to_sender"]) {
      const res = await status(shipment.id, to);
      expect(res.status).toBe(409);
      expect(await problem(res)).toMatchObject({
        code: "invalid_state_transition",
        current_status: "delivered",
        allowed_actions: [],
      });
    }
    const cancel = await store.as(`${SHIP}${shipment.id}/cancel/`, { method: "POST" });
    expect(cancel.status).toBe(409);
    expect((await status(shipment.id, "created")).status).toBe(400);
    expect((await status(shipment.id, "cancelled")).status).toBe(400);
  });

  it("exception and returned_to_sender: exception resumes; returned_to_sender is final", async () => {
    const { shipment } = await shipped();
    for (const s of ["picked_up", "exception", "in_transit", "exception", "returned_to_sender"])
      expect((await status(shipment.id, s)).status).toBe(200);
    expect((await status(shipment.id, "in_transit")).status).toBe(409);
  });

  it("MH5 cancels before pickup (fulfillments freed, shippable again, event); after pickup 409", async () => {
    const { order, fulfillmentIds, shipment } = await shipped();
    const res = await store.as(`${SHIP}${shipment.id}/cancel/`, { method: "POST" });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: "cancelled", allowed_actions: [] });
    expect(body.cancelled_at).toBeTruthy();
    const f = await rowsOf("SELECT shipment_id FROM fulfillments WHERE order_id = ?", order.id);
    expect(f.every((r) => r.shipment_id === null)).toBe(true);
    expect((await eventsWhere(A, ["shipment.cancelled"], "id", shipment.id))[0]!.data).toMatchObject({
      previous_status: "created",
      status: "cancelled",
    });
    expect((await store.as(`${SHIP}${shipment.id}/cancel/`, { method: "POST" })).status).toBe(409);
    const again = await ship({ fulfillment_ids: fulfillmentIds, courier_id: vans.id });
    expect(again.status).toBe(201);
    const second = await json(again);
    await status(second.id, "picked_up");
    const late = await store.as(`${SHIP}${second.id}/cancel/`, { method: "POST" });
    expect(late.status).toBe(409);
    expect(await problem(late)).toMatchObject({ code: "invalid_state_transition", current_status: "picked_up" });
    expect((await store.as(`${SHIP}99999999/cancel/`, { method: "POST" })).status).toBe(404);
  });
});

describe("fake carrier: signed webhooks", () => {
  it("creates at the carrier; signed callbacks move it (carrier words normalised); unsigned/wrong/stale change nothing", async () => {
    const { order, shipment } = await shipped(fakeId);
    expect(shipment.tracking_number).toMatch(/^FK/);
    expect(shipment.cost).toBe(15);
    const ref = (await rowOf("SELECT carrier_reference AS r FROM shipments WHERE id = ?", shipment.id)).r as string;
    expect(shipment.carrier_reference).toBe(ref);
    for (const how of ["unsigned", "wrong", "stale"] as const) {
      const res = await fakeCallback(A, [{ reference: ref, status: "PICKED_UP" }], how);
      expect(res.status, how).toBe(400);
      expect((await problem(res)).code).toBe("webhook_signature_invalid");
    }
    expect((await rowOf("SELECT status FROM shipments WHERE id = ?", shipment.id)).status).toBe("created");
    const merchantTry = await status(shipment.id, "picked_up");
    expect(merchantTry.status).toBe(409);
    expect((await problem(merchantTry)).code).toBe("courier_not_custom");
    const res = await fakeCallback(A, [
      { reference: ref, status: "PICKED_UP" },
      { reference: ref, status: "IN_TRANSIT", note: "Hub" },
      { reference: ref, status: "DELIVERED" },
      { reference: "fk_nothing", status: "IN_TRANSIT" },
    ]);
    const out = await json(res);
    expect(res.status).toBe(200);
    expect(out.applied).toBe(2);
    expect(out.ignored.map((i: { reference: string; status: string }) => [i.reference, i.status])).toEqual([
      [ref, "delivered"],
      ["fk_nothing", "in_transit"],
    ]);
    const now = await json(await store.as(`${SHIP}${shipment.id}/`));
    expect(now.status).toBe("in_transit");
    expect(now.status_history.at(-1)).toMatchObject({
      status: "in_transit",
      source: "carrier",
      carrier_status: "IN_TRANSIT",
      note: "Hub",
    });
    await fakeCallback(A, [
      { reference: ref, status: "OUT_FOR_DELIVERY" },
      { reference: ref, status: "DELIVERED" },
    ]);
    expect((await rowOf("SELECT status FROM shipments WHERE id = ?", shipment.id)).status).toBe("delivered");
    const f = await rowsOf("SELECT status FROM fulfillments WHERE order_id = ?", order.id);
    expect(f.every((r) => r.status === "delivered")).toBe(true);
  });
});
