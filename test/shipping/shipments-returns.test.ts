import { beforeAll, describe, expect, it } from "vitest";
import { json, problem } from "../helpers/request";
import { eventsWhere, rowOf, type Store } from "../orders/helpers";
import { SHIP, shipmentsIn, shippingStoreOf } from "./helpers";

// A store of this file's own (shipments.test.ts has 9721 and 9722).
const A = 9723;
let store: Store;
let vans: { id: number };

beforeAll(async () => {
  ({ store, vans } = await shippingStoreOf(A));
});

const { status, shipped } = shipmentsIn(() => ({ store, vans }));

describe("MH6 return shipment", () => {
  it("only a delivered forward shipment; a linked return in the other direction; received when delivered back", async () => {
    const { shipment, fulfillmentIds } = await shipped();
    const early = await store.as(`${SHIP}${shipment.id}/return/`, { method: "POST", body: {} });
    expect(early.status).toBe(409);
    expect((await problem(early)).code).toBe("shipment_not_returnable");
    for (const s of ["picked_up", "in_transit", "out_for_delivery", "delivered"]) await status(shipment.id, s);
    const res = await store.as(`${SHIP}${shipment.id}/return/`, {
      method: "POST",
      body: { fulfillment_ids: [fulfillmentIds[1]] },
    });
    const ret = await json(res);
    expect(res.status, JSON.stringify(ret)).toBe(201);
    expect(ret).toMatchObject({
      direction: "return",
      return_of_id: shipment.id,
      return_status: "requested",
      status: "created",
      fulfillment_ids: [fulfillmentIds[1]],
      origin: shipment.destination,
      destination: shipment.origin,
      cod_amount: 0,
    });
    expect((await eventsWhere(A, ["shipment.return_created"], "id", ret.id))[0]!.data).toMatchObject({
      return_of_id: shipment.id,
    });
    const twice = await store.as(`${SHIP}${shipment.id}/return/`, {
      method: "POST",
      body: { fulfillment_ids: [fulfillmentIds[1]] },
    });
    expect(twice.status).toBe(409);
    expect((await problem(twice)).code).toBe("shipment_not_returnable");
    expect(
      (await store.as(`${SHIP}${shipment.id}/return/`, { method: "POST", body: { fulfillment_ids: [99999999] } }))
        .status,
    ).toBe(400);
    expect((await store.as(`${SHIP}${ret.id}/return/`, { method: "POST", body: {} })).status).toBe(409);
    for (const s of ["picked_up", "in_transit", "out_for_delivery", "delivered"])
      expect((await status(ret.id, s)).status).toBe(200);
    const done = await json(await store.as(`${SHIP}${ret.id}/`));
    expect(done).toMatchObject({ status: "delivered", return_status: "received" });
    // The forward shipment's fulfillments stay delivered: a return does not move them back.
    expect((await rowOf("SELECT status FROM fulfillments WHERE id = ?", fulfillmentIds[1])).status).toBe("delivered");
    // Half the order came back: it is still delivered; once the other half is received too, returned.
    const orderOf = async () =>
      (await rowOf("SELECT fulfillment_status FROM orders WHERE id = ?", ret.order_id)).fulfillment_status;
    expect(await orderOf()).toBe("delivered");
    const rest = await store.as(`${SHIP}${shipment.id}/return/`, {
      method: "POST",
      body: { fulfillment_ids: [fulfillmentIds[0]] },
    });
    const second = await json(rest);
    expect(rest.status, JSON.stringify(second)).toBe(201);
    for (const s of ["picked_up", "in_transit", "out_for_delivery"]) await status(second.id, s);
    expect(await orderOf()).toBe("delivered");
    await status(second.id, "delivered");
    expect(await orderOf()).toBe("returned");
  });
});
