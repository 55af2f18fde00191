import { beforeAll, describe, expect, it } from "vitest";
import { createTicketsFor } from "../helpers/factories";
import { callWaits, json } from "../helpers/request";
import { rowsOf, type Shopper, type Store, shopperOf, stocked, storeFor } from "../orders/helpers";
import { deliveryItem, M_FULFILLMENTS, MY_FULFILLMENTS, paidOrderOf } from "./helpers";

// A store of this file's own.
const A = 9691;
let store: Store;
let shopper: Shopper;
let fulfillmentId: number;
let itemId: number;

beforeAll(async () => {
  store = await storeFor(A);
  shopper = await shopperOf(A);
  const box = await deliveryItem(A);
  itemId = box.id;
  const order = await paidOrderOf(store, shopper, [{ item_id: box.id, qty: 1 }]);
  fulfillmentId = Number((await rowsOf("SELECT id FROM fulfillments WHERE order_id = ?", order.id))[0]!.id);
  const show = await stocked(A, 100, 1, { type: "ticket" });
  await createTicketsFor(A, show.id, 2);
});

describe("Fulfillments: D1 round trips of the reads", () => {
  it("a page of fulfillments and tickets with their items waits for D1 once", async () => {
    const {
      res,
      waits: { beyondAuth },
    } = await callWaits(M_FULFILLMENTS, { token: store.token, appId: A });
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(page.count).toBe(3);
    expect(page.results.every((r: { item: unknown }) => r.item !== null)).toBe(true);
    expect(beyondAuth).toBe(1);
  });

  it("one fulfillment with its item, the merchant's or the customer's, waits for D1 once", async () => {
    for (const [path, token] of [
      [`${M_FULFILLMENTS}${fulfillmentId}/`, store.token],
      [`${MY_FULFILLMENTS}${fulfillmentId}/`, shopper.token],
    ] as const) {
      const {
        res,
        waits: { beyondAuth },
      } = await callWaits(path, { token, appId: A });
      expect(res.status).toBe(200);
      expect((await json(res)).item.id).toBe(itemId);
      expect(beyondAuth).toBe(1);
    }
  });

  it("the overview, in the store's calendar, waits for D1 once", async () => {
    const {
      res,
      waits: { beyondAuth },
    } = await callWaits(`${M_FULFILLMENTS}overview/`, { token: store.token, appId: A });
    expect(res.status).toBe(200);
    expect((await json(res)).total).toBe(3);
    expect(beyondAuth).toBe(1);
  });
});
