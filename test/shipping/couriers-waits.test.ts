import { beforeAll, describe, expect, it } from "vitest";
import { callWaits, json } from "../helpers/request";
import { eventsWhere, rowOf, type Store, storeFor } from "../orders/helpers";
import { CONFIG, COURIERS, courierBody, created, JEDDAH, OLAYA, PICKUPS, pickupBody, RIYADH } from "./helpers";

/**
 * How long the couriers, pickup locations and config keep a client waiting on D1, counted in round
 * trips one after another beyond the token check (test/helpers/d1-waits.ts), never timed: a write
 * reads at once, then writes in one batch that answers the row; a read waits once (twice on the
 * store's first courier read, which mirrors the carriers in one batch with its read again).
 */

const A = 9741;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const send = (path: string, method: string, body?: Record<string, unknown>) =>
  callWaits(path, { method, body, token: store.token, appId: A });

describe("D1 round trips of couriers, pickup locations and the config", () => {
  it("courier reads wait once (twice on the first), its change and delete twice", async () => {
    const first = await send(COURIERS, "GET");
    expect(first.res.status).toBe(200);
    const fake = (await json(first.res)).results.find((c: { code: string }) => c.code === "fake");
    expect(fake).toMatchObject({ type: "integrated" });
    const shown = await send(`${COURIERS}${fake.id}/`, "GET");
    expect(await json(shown.res)).toEqual(fake);
    expect(shown.waits.beyondAuth).toBeLessThanOrEqual(1);

    const vans = await created(store, COURIERS, courierBody());
    const changed = await send(`${COURIERS}${vans.id}/`, "PATCH", {
      name_en: "Faster Vans",
      price_rules: [{ city_id: JEDDAH, weight_from: 0, weight_to: 5, price: 12 }],
    });
    const body = await json(changed.res);
    expect(changed.res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ name_en: "Faster Vans", price_rules: [{ city_id: JEDDAH, price: 12 }] });
    expect(changed.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await json(await store.as(`${COURIERS}${vans.id}/`))).toEqual(body);
    // A rule for a city the stored coverage leaves out is still refused (the coverage read with the courier).
    const uncovered = await send(`${COURIERS}${vans.id}/`, "PATCH", {
      price_rules: [{ city_id: 99, weight_from: 0, weight_to: 5, price: 1 }],
    });
    expect(uncovered.res.status).toBe(400);

    const removed = await send(`${COURIERS}${vans.id}/`, "DELETE");
    expect(removed.res.status).toBe(204);
    expect(removed.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await rowOf("SELECT is_deleted FROM couriers WHERE id = ?", vans.id)).toEqual({ is_deleted: 1 });
    expect(await eventsWhere(A, ["courier.deleted"], "id", vans.id)).toHaveLength(1);

    const active = await send(`${COURIERS}active/`, "POST", { city_id: RIYADH });
    expect(active.res.status).toBe(200);
    expect(active.waits.beyondAuth).toBeLessThanOrEqual(1);
  });

  it("pickup locations and the config: each write waits twice at most, the default taken in the batch", async () => {
    const made = await send(PICKUPS, "POST", pickupBody({ is_default: true }));
    const a = await json(made.res);
    expect(made.res.status, JSON.stringify(a)).toBe(201);
    expect(made.waits.beyondAuth).toBeLessThanOrEqual(2);
    const other = await created(store, PICKUPS, pickupBody({ name_en: "Second" }));

    const taken = await send(`${PICKUPS}${other.id}/`, "PATCH", {
      is_default: true,
      district_id: OLAYA,
      city_id: RIYADH,
    });
    const b = await json(taken.res);
    expect(taken.res.status, JSON.stringify(b)).toBe(200);
    expect(b).toMatchObject({ id: other.id, is_default: true, district_id: OLAYA });
    expect(taken.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await json(await store.as(`${PICKUPS}${a.id}/`))).toMatchObject({ is_default: false });
    expect(await eventsWhere(A, ["pickup_location.updated"], "id", a.id)).toHaveLength(1);

    const config = await send(CONFIG, "POST", { default_pickup_location_id: other.id, enabled_courier_ids: [] });
    const c = await json(config.res);
    expect(config.res.status, JSON.stringify(c)).toBe(200);
    expect(c).toMatchObject({ default_pickup_location_id: other.id, enabled_courier_ids: [] });
    expect(config.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await json(await store.as(CONFIG))).toEqual(c);

    const dropped = await send(`${PICKUPS}${a.id}/`, "DELETE");
    expect(dropped.res.status).toBe(204);
    expect(dropped.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await eventsWhere(A, ["pickup_location.deleted"], "id", a.id)).toHaveLength(1);
  });
});
