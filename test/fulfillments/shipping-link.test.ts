import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { emit, unionEvents } from "../../src/core/events/outbox";
import { fulfillmentShipmentStatements, fulfillmentsForShipment } from "../../src/modules/orders";
import { serviceCtx } from "../helpers/factories";
import { eventsWhere, locationOf, rowOf, rowsOf, type Store, shopperOf, storeFor } from "../orders/helpers";
import { deliveryItem, M_FULFILLMENTS, paidOrderOf } from "./helpers";

// Stores of this file's own.
const A = 9611;
const B = 9612;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
  await storeFor(B);
});

async function twoLines() {
  const s = await shopperOf(A);
  const loc = await locationOf(A, s.id);
  const box = await deliveryItem(A);
  const order = await paidOrderOf(
    store,
    s,
    [
      { item_id: box.id, qty: 1 },
      { item_id: box.id, qty: 2 },
    ],
    { location_id: loc.id },
  );
  const rows = await rowsOf("SELECT id FROM fulfillments WHERE order_id = ? ORDER BY id", order.id);
  return { order, ids: rows.map((r) => r.id as number), loc, s };
}

async function apply(appId: number, p: Parameters<typeof fulfillmentShipmentStatements>[1]) {
  const ctx = serviceCtx(appId);
  const { statements, events } = await fulfillmentShipmentStatements(ctx, p);
  // Nothing to move or link gives no statement and no event: nothing to send.
  if (statements.length) await emit(ctx.db, ctx.events, statements, unionEvents(events));
  await ctx.settle();
}

describe("what the shipping module uses", () => {
  it("fulfillmentsForShipment: the store's rows with their order; another store's ids are absent", async () => {
    const { order, ids, loc, s } = await twoLines();
    const got = await fulfillmentsForShipment(serviceCtx(A), [ids[1]!, ids[0]!, 999_999_999]);
    expect(got.map((f) => f.id)).toEqual(ids);
    expect(got[0]).toMatchObject({
      order_id: order.id,
      type: "delivery",
      status: "pending",
      location_id: loc.id,
      customer_id: s.id,
      location: { id: loc.id },
      order: { id: order.id, payment_status: "paid", currency: "SAR" },
    });
    expect(await fulfillmentsForShipment(serviceCtx(B), ids)).toEqual([]);
    expect(await fulfillmentsForShipment(serviceCtx(A), [])).toEqual([]);
  });

  it("links a shipment, moves forward through the machine, sets the order's status, emits per row", async () => {
    const { order, ids } = await twoLines();
    // One was already processing; the other jumps pending → shipped with the shipment.
    await store.as(`${M_FULFILLMENTS}${ids[0]}/`, { method: "PATCH", body: { status: "processing" } });
    await apply(A, { fulfillmentIds: ids, shipmentId: 77, trackingNumber: "TRK1", status: "shipped" });
    const rows = await rowsOf("SELECT * FROM fulfillments WHERE order_id = ? ORDER BY id", order.id);
    expect(rows.map((r) => [r.status, r.shipment_id, r.tracking_number])).toEqual([
      ["shipped", 77, "TRK1"],
      ["shipped", 77, "TRK1"],
    ]);
    expect(rows[0]!.fulfilled_at).toBeTruthy();
    expect((await rowOf("SELECT fulfillment_status AS s FROM orders WHERE id = ?", order.id)).s).toBe("fulfilled");
    const changed = await eventsWhere(A, ["fulfillment.status_changed"], "order_id", order.id);
    expect(changed.map((e) => [e.data.id, e.data.previous_status, e.data.status])).toEqual(
      expect.arrayContaining([
        [ids[0], "pending", "processing"],
        [ids[0], "processing", "shipped"],
        [ids[1], "pending", "shipped"],
      ]),
    );
    expect(new Set(changed.map((e) => e.id)).size).toBe(changed.length);
    const updated = await eventsWhere(A, ["fulfillment.updated"], "order_id", order.id);
    expect(updated.map((e) => e.data.changes)).toEqual([
      ["shipment_id", "tracking_number"],
      ["shipment_id", "tracking_number"],
    ]);

    // Delivered: the last open one makes the order delivered; a second call moves nothing.
    await apply(A, { fulfillmentIds: ids, status: "delivered" });
    const again = await fulfillmentShipmentStatements(serviceCtx(A), { fulfillmentIds: ids, status: "delivered" });
    expect(again).toEqual({ statements: [], events: [] });
    expect((await rowOf("SELECT fulfillment_status AS s FROM orders WHERE id = ?", order.id)).s).toBe("delivered");
    const delivered = await eventsWhere(A, ["fulfillment.status_changed"], "status", "delivered");
    expect(delivered.filter((e) => ids.includes(e.data.id))).toHaveLength(2);
  });

  it("never moves a cancelled one, nor another store's; a null shipment unlinks; an SQL id works", async () => {
    const { ids } = await twoLines();
    await store.as(`${M_FULFILLMENTS}${ids[0]}/`, { method: "PATCH", body: { status: "cancelled" } });
    await apply(B, { fulfillmentIds: ids, shipmentId: 5, status: "shipped" });
    await apply(A, { fulfillmentIds: ids, shipmentId: sql`(SELECT 40 + 2)`, status: "processing" });
    let rows = await rowsOf("SELECT status, shipment_id FROM fulfillments WHERE id IN (?, ?) ORDER BY id", ...ids);
    expect(rows).toEqual([
      { status: "cancelled", shipment_id: 42 },
      { status: "processing", shipment_id: 42 },
    ]);
    await apply(A, { fulfillmentIds: ids, shipmentId: null });
    rows = await rowsOf("SELECT status, shipment_id FROM fulfillments WHERE id IN (?, ?) ORDER BY id", ...ids);
    expect(rows.map((r) => r.shipment_id)).toEqual([null, null]);
  });
});
