import { beforeAll, describe, expect, it } from "vitest";
import { callWaits, json } from "../helpers/request";
import {
  CARTS,
  cartOf,
  cashbackOf,
  depositCashback,
  keyedCheckoutWaits,
  locationOf,
  MY_ORDERS,
  type Shopper,
  type Store,
  shopperOf,
  stocked,
  stockOf,
  storeFor,
  voucherOf,
} from "./helpers";

/**
 * How long Create Cart and Checkout keep a client waiting on D1, counted in round trips one after
 * another beyond the token check (test/helpers/d1-waits.ts), never timed: every read at once, then
 * the one guarded batch, which reads back what the answer shows. The cart has everything a read
 * depends on: a voucher, a location, cashback to redeem, two lines.
 */

const A = 8241;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const post = (s: Shopper, path: string, body: Record<string, unknown>) =>
  callWaits(path, { method: "POST", body, token: s.token, appId: A });

describe("D1 round trips of the order-placing writes", () => {
  it("Create Cart and Checkout each wait for D1 at most twice, with a voucher, a location and cashback", async () => {
    const s = await shopperOf(A);
    const [tea, cup] = [await stocked(A, 1000, 5), await stocked(A, 2500, 5)];
    const home = await locationOf(A, s.id);
    const voucher = await voucherOf(store);
    await depositCashback(store, s.id, 5);
    // A customer's first request in an isolate checks that the store exists, once per isolate, as
    // the token check is cached: the isolate sees one before the requests counted here.
    await cartOf(s, { items: [{ item_id: tea.id, qty: 1 }] });
    const created = await post(s, CARTS, {
      items: [
        { item_id: tea.id, qty: 2 },
        { item_id: cup.id, qty: 1 },
      ],
      voucher_code: voucher.code,
      location_id: home.id,
      wallet_redeem_amount: 5,
    });
    const cart = await json(created.res);
    expect(created.res.status, JSON.stringify(cart)).toBe(201);
    expect(cart).toMatchObject({ voucher_code: voucher.code, voucher_error: null, location_id: home.id });
    expect(created.waits.beyondAuth).toBeLessThanOrEqual(2);
    // The answer is Cart Details' own, though the batch read the cart back instead of a read after it.
    expect(await json(await s.as(`${CARTS}${cart.id}/`))).toEqual(cart);

    const placed = await post(s, `${CARTS}${cart.id}/checkout/`, { payment_provider: "cash_on_delivery" });
    const result = await json(placed.res);
    expect(placed.res.status, JSON.stringify(result)).toBe(201);
    // What the reads of the first round trip found: the voucher, the location, the cashback.
    expect(result.vouchers).toMatchObject([{ code: voucher.code, is_success: true }]);
    expect(result.order).toMatchObject({
      cart_id: cart.id,
      location: { id: home.id, address1: "King Fahd Rd" },
      wallet_redeem_amount: 5,
      total_amount: cart.total_cart_price + 5,
    });
    expect(await cashbackOf(A, s.id)).toBe(0);
    expect(placed.waits.beyondAuth).toBeLessThanOrEqual(2);
    // The order as the batch read it back is Order Details' own.
    expect(await json(await s.as(`${MY_ORDERS}${result.order.id}/`))).toEqual(result.order);
  });

  it("Checkout with an Idempotency-Key waits twice too (the key's claim goes with the first read); its replay places nothing", async () => {
    const s = await shopperOf(A);
    const tea = await stocked(A, 1000, 5);
    const cart = await json(await s.as(CARTS, { method: "POST", body: { items: [{ item_id: tea.id, qty: 2 }] } }));
    const keyed = () => keyedCheckoutWaits(A, s, cart.id, `checkout-${cart.id}`);
    const first = await keyed();
    const result = await json(first.res);
    expect(first.res.status, JSON.stringify(result)).toBe(201);
    // The claim goes out with the first read (not before it), so it never comes back in between.
    expect(first.waits.beyondAuth).toBeLessThanOrEqual(2);
    const replay = await keyed();
    expect(replay.res.status).toBe(201);
    expect(replay.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await json(replay.res)).order.id).toBe(result.order.id);
    // One order, two units taken once.
    expect(await stockOf(tea.id)).toBe(3);
  });
});
