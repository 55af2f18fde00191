import { beforeAll, describe, expect, it } from "vitest";
import { APP_1, shardFor } from "../helpers/factories";
import { callWaits, json } from "../helpers/request";
import { CARTS, cartOf, locationOf, M_CARTS, type Store, shopperOf, stocked, storeFor, voucherOf } from "./helpers";

/**
 * How long the cart reads and Update Cart keep a client waiting on D1, counted in round trips one
 * after another beyond the token check (test/helpers/d1-waits.ts), never timed: Cart Details reads
 * the cart with everything it is priced and shown with at once; Update Cart reads that, then writes
 * one guarded batch that reads the cart back.
 */

// A store of this file's own.
const A = 8613;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const quotedTotal = async (id: number) =>
  (await shardFor(APP_1)
    .prepare("SELECT quoted_total_minor FROM carts WHERE id = ?")
    .bind(id)
    .first<{ quoted_total_minor: number }>())!.quoted_total_minor;

describe("D1 round trips of the cart reads and Update Cart", () => {
  it("Update Cart waits twice at most; Cart Details, the customer's and the merchant's, and List Carts once", async () => {
    const s = await shopperOf(A);
    const [tea, cup] = [await stocked(A, 1000, 5), await stocked(A, 2500, 5)];
    const home = await locationOf(A, s.id);
    const voucher = await voucherOf(store);
    // A customer's first request in an isolate checks that the store exists, once per isolate, as
    // the token check is cached: the isolate sees one before the requests counted here.
    const cart = await cartOf(s, { items: [{ item_id: tea.id, qty: 1 }] });
    await callWaits(M_CARTS, { token: store.token, appId: A });

    const updated = await callWaits(`${CARTS}${cart.id}/`, {
      method: "PATCH",
      token: s.token,
      appId: A,
      body: {
        items: [
          { item_id: tea.id, qty: 2 },
          { item_id: cup.id, qty: 1 },
        ],
        voucher_code: voucher.code,
        location_id: home.id,
        notes: "Ring twice",
      },
    });
    const body = await json(updated.res);
    expect(updated.res.status, JSON.stringify(body)).toBe(200);
    // 20 + 25 = 45, less the voucher's 10%.
    expect(body).toMatchObject({
      id: cart.id,
      voucher_code: voucher.code,
      voucher_error: null,
      location_id: home.id,
      notes: "Ring twice",
      total_cart_price: 40.5,
      cart_price_updated: false,
      customer: { id: s.id },
    });
    expect(
      body.cart_items.map((l: { item_id: number; qty: number; item: { id: number } }) => [l.item_id, l.qty, l.item.id]),
    ).toEqual([
      [tea.id, 2, tea.id],
      [cup.id, 1, cup.id],
    ]);
    expect(await quotedTotal(cart.id)).toBe(4050);
    expect(updated.waits.beyondAuth).toBeLessThanOrEqual(2);

    const mine = await callWaits(`${CARTS}${cart.id}/`, { token: s.token, appId: A });
    expect(mine.res.status).toBe(200);
    // The answer of the update is Cart Details' own.
    expect(await json(mine.res)).toEqual(body);
    expect(mine.waits.beyondAuth).toBeLessThanOrEqual(1);

    const merchants = await callWaits(`${M_CARTS}${cart.id}/`, { token: store.token, appId: A });
    expect(merchants.res.status).toBe(200);
    expect(await json(merchants.res)).toEqual(body);
    expect(merchants.waits.beyondAuth).toBeLessThanOrEqual(1);

    const listed = await callWaits(`${M_CARTS}?customer_id=${s.id}`, { token: store.token, appId: A });
    expect(listed.res.status).toBe(200);
    expect((await json(listed.res)).results).toMatchObject([
      { id: cart.id, customer_id: s.id, items_count: 2, total_cart_price: 40.5, voucher_code: voucher.code },
    ]);
    expect(listed.waits.beyondAuth).toBeLessThanOrEqual(1);
  });
});
