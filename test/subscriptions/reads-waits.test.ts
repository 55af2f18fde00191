import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { storeSettings } from "../../src/modules/account/tables";
import { db } from "../helpers/factories";
import { callWaits, json } from "../helpers/request";
import { type Shopper, type Store, shopperOf, storeFor } from "../orders/helpers";
import { at, M_SUBS, MY_SUBS, subscribe } from "./helpers";

// A store of this file's own, a day ahead of UTC.
const A = 9695;
let store: Store;
let shopper: Shopper;
let id: number;

beforeAll(async () => {
  at("2026-04-01");
  store = await storeFor(A);
  await db(A)
    .insert(storeSettings)
    .values({ appId: A, timezone: "Pacific/Kiritimati" })
    .onConflictDoUpdate({ target: storeSettings.appId, set: { timezone: "Pacific/Kiritimati" } });
  shopper = await shopperOf(A);
  id = (await subscribe(store, shopper, { priceMinor: 3_000, cashback: 100 })).id;
});
afterAll(() => setClock(null));

describe("Subscriptions: D1 round trips of the reads", () => {
  it("a page of subscriptions with their invoices and customers waits for D1 once", async () => {
    const {
      res,
      waits: { beyondAuth },
    } = await callWaits(M_SUBS, { token: store.token, appId: A });
    expect(res.status).toBe(200);
    const [first] = (await json(res)).results;
    expect(first).toMatchObject({ id, customer: { id: shopper.id } });
    expect(first.invoices).toHaveLength(1);
    expect(beyondAuth).toBe(1);
  });

  it("one subscription, the merchant's or the customer's, waits for D1 once", async () => {
    for (const [path, token] of [
      [`${M_SUBS}${id}/`, store.token],
      [`${MY_SUBS}${id}/`, shopper.token],
    ] as const) {
      const {
        res,
        waits: { beyondAuth },
      } = await callWaits(path, { token, appId: A });
      expect(res.status).toBe(200);
      expect((await json(res)).invoices).toHaveLength(1);
      expect(beyondAuth).toBe(1);
    }
  });

  it("the statistics, in the store's calendar, wait for D1 once", async () => {
    at("2026-04-01");
    const {
      res,
      waits: { beyondAuth },
    } = await callWaits(`${M_SUBS}statistics/`, { token: store.token, appId: A });
    expect(res.status).toBe(200);
    // Noon in UTC is the next day in Kiritimati (UTC+14): the period ends on the store's today.
    expect(await json(res)).toMatchObject({ from: "2026-03-03", to: "2026-04-02", total: 1, new_in_period: 1 });
    expect(beyondAuth).toBe(1);
  });
});
