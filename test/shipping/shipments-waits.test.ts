import { beforeAll, describe, expect, it } from "vitest";
import { callWaits, json } from "../helpers/request";
import { eventsWhere, rowOf, rowsOf } from "../orders/helpers";
import { SHIP, shippableOrder, shippingStoreOf } from "./helpers";

/**
 * How long the shipment writes keep a client waiting on D1, counted in round trips one after
 * another beyond the token check (test/helpers/d1-waits.ts), never timed: every read at once, the
 * courier's booking (a carrier's HTTP call, not a D1 wait), then one guarded batch that reads the
 * shipment back. A pickup or a delivery adds the read of the fulfillments' statuses (the orders
 * module's, by the ids the first read found): 3.
 */

const A = 9731;
let at: Awaited<ReturnType<typeof shippingStoreOf>>;

beforeAll(async () => {
  at = await shippingStoreOf(A);
});

const post = (path: string, body: Record<string, unknown>) =>
  callWaits(path, { method: "POST", body, token: at.store.token, appId: A });

describe("D1 round trips of the shipment writes", () => {
  it("Create Shipment waits twice with a custom courier and with a carrier; its answer is Shipment Details'", async () => {
    for (const courierId of [at.vans.id, at.fakeId]) {
      const o = await shippableOrder(at.store);
      const { res, waits } = await post(SHIP, { fulfillment_ids: o.fulfillmentIds, courier_id: courierId });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(body).toMatchObject({
        order_id: o.order.id,
        courier_id: courierId,
        direction: "forward",
        status: "created",
        fulfillment_ids: o.fulfillmentIds,
        origin: { pickup_location_id: at.origin.id },
        status_history: [{ status: "created", source: "merchant" }],
      });
      expect(waits.beyondAuth).toBeLessThanOrEqual(2);
      expect(await json(await at.store.as(`${SHIP}${body.id}/`))).toEqual(body);
      // Stored: the fulfillments linked and processing; emitted: shipment.created.
      const linked = await rowsOf("SELECT status, shipment_id FROM fulfillments WHERE order_id = ?", o.order.id);
      expect(linked).toEqual(o.fulfillmentIds.map(() => ({ status: "processing", shipment_id: body.id })));
      expect(await eventsWhere(A, ["shipment.created"], "id", body.id)).toHaveLength(1);
    }
  });

  it("a status report waits twice (the fulfillments' statuses read with the shipment), Cancel and Create Return too", async () => {
    const o = await shippableOrder(at.store);
    const shipment = await json((await post(SHIP, { fulfillment_ids: o.fulfillmentIds, courier_id: at.vans.id })).res);
    const picked = await post(`${SHIP}${shipment.id}/status/`, { status: "picked_up" });
    expect(picked.res.status).toBe(200);
    expect(await json(picked.res)).toMatchObject({ status: "picked_up", allowed_actions: expect.any(Array) });
    expect(picked.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(
      await rowOf("SELECT count(*) AS n FROM fulfillments WHERE shipment_id = ? AND status = 'shipped'", shipment.id),
    ).toEqual({
      n: o.fulfillmentIds.length,
    });
    const transit = await post(`${SHIP}${shipment.id}/status/`, { status: "in_transit" });
    const moved = await json(transit.res);
    expect(transit.res.status).toBe(200);
    expect(moved.status_history.map((h: { status: string }) => h.status)).toEqual([
      "created",
      "picked_up",
      "in_transit",
    ]);
    expect(transit.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await json(await at.store.as(`${SHIP}${shipment.id}/`))).toEqual(moved);
    await post(`${SHIP}${shipment.id}/status/`, { status: "out_for_delivery" });
    const delivered = await post(`${SHIP}${shipment.id}/status/`, { status: "delivered" });
    expect(await json(delivered.res)).toMatchObject({ status: "delivered" });
    expect(delivered.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(
      await rowOf("SELECT count(*) AS n FROM fulfillments WHERE shipment_id = ? AND status = 'delivered'", shipment.id),
    ).toEqual({
      n: o.fulfillmentIds.length,
    });

    const back = await post(`${SHIP}${shipment.id}/return/`, {});
    const ret = await json(back.res);
    expect(back.res.status, JSON.stringify(ret)).toBe(201);
    expect(ret).toMatchObject({
      direction: "return",
      return_of_id: shipment.id,
      return_status: "requested",
      fulfillment_ids: o.fulfillmentIds,
      courier_id: at.vans.id,
    });
    expect(back.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await eventsWhere(A, ["shipment.return_created"], "id", ret.id)).toHaveLength(1);

    // A carrier's shipment, cancelled: the carrier is told between the read and the batch.
    const o2 = await shippableOrder(at.store);
    const carried = await json((await post(SHIP, { fulfillment_ids: o2.fulfillmentIds, courier_id: at.fakeId })).res);
    const cancelled = await post(`${SHIP}${carried.id}/cancel/`, {});
    expect(cancelled.res.status).toBe(200);
    expect(await json(cancelled.res)).toMatchObject({ id: carried.id, status: "cancelled", allowed_actions: [] });
    expect(cancelled.waits.beyondAuth).toBeLessThanOrEqual(2);
    // The fulfillments are free again, and the cancellation was emitted.
    expect(await rowOf("SELECT count(*) AS n FROM fulfillments WHERE shipment_id = ?", carried.id)).toEqual({ n: 0 });
    expect(await eventsWhere(A, ["shipment.cancelled"], "id", carried.id)).toHaveLength(1);
  });
});
