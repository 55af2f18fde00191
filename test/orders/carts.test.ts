import { beforeAll, describe, expect, it } from "vitest";
import { schemaErrors } from "../helpers/meals";
import { problem, json as read } from "../helpers/request";
import {
  CARTS,
  cartOf,
  checkedOut,
  eventsWhere,
  M_CARTS,
  rowOf,
  rowsOf,
  type Shopper,
  type Store,
  shopperOf,
  stocked,
  storeFor,
  voucherOf,
} from "./helpers";

// Stores of this file's own: 8101 (the store), 8102 (another tenant).
const A = 8101;
const B = 8102;
let store: Store;
let other: Store;
let sara: Shopper;

beforeAll(async () => {
  store = await storeFor(A);
  other = await storeFor(B);
  sara = await shopperOf(A);
});

const cartRow = (id: number) => rowOf("SELECT * FROM carts WHERE id = ?", id);
const cartLines = (id: number) =>
  rowsOf<{ item_id: number; qty: number; unit_price_minor: number; modifier_value_ids: string }>(
    "SELECT item_id, qty, unit_price_minor, modifier_value_ids FROM cart_items WHERE cart_id = ? ORDER BY id",
    id,
  );

describe("Cart Details (CA14, MO2)", () => {
  it("prices the cart now: a price change is flagged once (`cart_price_updated`), then seen", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 10);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 2 }] });
    expect(cart.total_cart_price).toBe(20);

    const first = await read(await s.as(`${CARTS}${cart.id}/`));
    expect(first).toMatchObject({ total_cart_price: 20, cart_price_updated: false });
    expect(schemaErrors("getMyCart", first)).toEqual([]);

    await rowOf("UPDATE items SET price_minor = 1250 WHERE id = ? RETURNING id", item.id);
    // The merchant's view shows the move but does not mark it seen.
    const merchant = await read(await store.as(`${M_CARTS}${cart.id}/`));
    expect(merchant).toMatchObject({ total_cart_price: 25, cart_price_updated: true });
    expect(schemaErrors("getCart", merchant)).toEqual([]);
    expect((await cartRow(cart.id)).quoted_total_minor).toBe(2000);

    const moved = await read(await s.as(`${CARTS}${cart.id}/`));
    expect(moved).toMatchObject({ total_cart_price: 25, sub_total_amount: 25, cart_price_updated: true });
    expect(moved.cart_items[0]).toMatchObject({ price: 12.5, total: 25 });
    expect((await cartRow(cart.id)).quoted_total_minor).toBe(2500);
    const seen = await read(await s.as(`${CARTS}${cart.id}/`));
    expect(seen.cart_price_updated).toBe(false);
    // The stored line keeps the price it was last written with; the view prices now.
    expect((await cartLines(cart.id))[0]!.unit_price_minor).toBe(1000);
  });

  it("flags a line whose item was deleted and leaves it out of the totals", async () => {
    const s = await shopperOf(A);
    const [kept, gone] = await Promise.all([stocked(A, 1000, 5), stocked(A, 400, 5)]);
    const cart = await cartOf(s, {
      items: [
        { item_id: kept.id, qty: 1 },
        { item_id: gone.id, qty: 1 },
      ],
    });
    expect(cart.total_cart_price).toBe(14);
    await rowOf("UPDATE items SET is_deleted = 1 WHERE id = ? RETURNING id", gone.id);
    const now = await read(await s.as(`${CARTS}${cart.id}/`));
    expect(now.total_cart_price).toBe(10);
    expect(now.cart_items[1]).toMatchObject({ item_id: gone.id, is_available: false });
    expect(now.cart_items[1].unavailable_reason).toMatch(/not in the store's catalogue/);
    expect(now.cart_price_updated).toBe(true);
  });

  it("another customer's cart, or another store's, is a 404 (read, update, checkout)", async () => {
    const item = await stocked(A, 500, 5);
    const cart = await cartOf(sara, { items: [{ item_id: item.id, qty: 1 }] });
    const eve = await shopperOf(A);
    const far = await shopperOf(B);
    for (const res of [
      await eve.as(`${CARTS}${cart.id}/`),
      await eve.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { notes: "mine now" } }),
      await eve.as(`${CARTS}${cart.id}/checkout/`, { method: "POST", body: { payment_provider: "cash_on_delivery" } }),
      await far.as(`${CARTS}${cart.id}/`),
      await other.as(`${M_CARTS}${cart.id}/`),
    ]) {
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("cart_not_found");
    }
    expect(await cartRow(cart.id)).toMatchObject({ status: "open", notes: null });
  });
});

describe("Update Cart (CA14)", () => {
  it("replaces the lines, keeps what is not sent, and emits cart.updated", async () => {
    const s = await shopperOf(A);
    const [one, two] = await Promise.all([stocked(A, 1000, 5), stocked(A, 300, 5)]);
    const cart = await cartOf(s, { items: [{ item_id: one.id, qty: 1 }], notes: "keep me" });
    const res = await s.as(`${CARTS}${cart.id}/`, {
      method: "PATCH",
      body: { items: [{ item_id: two.id, qty: 3 }] },
    });
    const out = await read(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(out).toMatchObject({ notes: "keep me", total_cart_price: 9, cart_price_updated: false });
    expect(out.cart_items.map((l: { item_id: number; qty: number }) => [l.item_id, l.qty])).toEqual([[two.id, 3]]);
    expect(await cartLines(cart.id)).toEqual([
      { item_id: two.id, qty: 3, unit_price_minor: 300, modifier_value_ids: "[]" },
    ]);
    expect((await cartRow(cart.id)).quoted_total_minor).toBe(900);
    const updated = await read(await s.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { notes: null } }));
    expect(updated.notes).toBeNull();
    expect(updated.cart_items).toHaveLength(1);
    const events = await eventsWhere(A, ["cart.updated"], "id", cart.id);
    expect(events.map((e) => e.data)).toEqual([{ id: cart.id }, { id: cart.id }]);
  });

  it("applies a voucher code, and says why one does not apply (`voucher_error`) without failing", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1033, 5);
    const good = await voucherOf(store, { kind: "percentage", value: 10 });
    const high = await voucherOf(store, { kind: "fixed", value: 5, min_order_amount: 1000 });
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 2 }] });

    const applied = await read(
      await s.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { voucher_code: good.code.toLowerCase() } }),
    );
    // 20.66 less 10% (2.066 → 2.07) = 18.59; its VAT 2.42 (18.59 → 16.17 + 2.42).
    expect(applied).toMatchObject({
      voucher_code: good.code.toLowerCase(),
      voucher_error: null,
      sub_total_amount: 20.66,
      sub_total_discounts_amount: 2.07,
      total_discounts_amount: 2.07,
      total_amount: 18.59,
      total_cart_price: 18.59,
      tax_amount: 2.42,
      total_amount_excluding_tax: 16.17,
    });

    const refused = await read(
      await s.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { voucher_code: high.code } }),
    );
    expect(refused).toMatchObject({ voucher_code: high.code, total_amount: 20.66, sub_total_discounts_amount: 0 });
    expect(refused.voucher_error).toBe("The cart must come to at least 1000 for this voucher; it comes to 20.66.");

    const unknown = await read(
      await s.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { voucher_code: "NOPE-404" } }),
    );
    expect(unknown.voucher_error).toBe("No voucher with this code.");
    const cleared = await read(await s.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { voucher_code: null } }));
    expect(cleared).toMatchObject({ voucher_code: null, voucher_error: null, total_amount: 20.66 });
  });

  it("spends cashback on the cart up to its total (`wallet_redeem_amount`)", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }], wallet_redeem_amount: 4.5 });
    expect(cart).toMatchObject({ total_amount: 10, wallet_redeem_amount: 4.5, total_amount_with_redeem: 5.5 });
    expect(cart.total_cart_price).toBe(5.5);
    const capped = await read(
      await s.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { wallet_redeem_amount: 50 } }),
    );
    expect(capped).toMatchObject({ wallet_redeem_amount: 10, total_amount_with_redeem: 0, total_cart_price: 0 });
  });

  it("a checked-out cart cannot change: 409 cart_checked_out naming its order; nothing written", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    const result = await checkedOut(s, cart.id, { payment_provider: "cash_on_delivery" });
    const before = await cartRow(cart.id);
    expect(before).toMatchObject({ status: "checked_out", order_id: result.order.id });
    const res = await s.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { items: [{ item_id: item.id, qty: 3 }] } });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "cart_checked_out", order_id: result.order.id });
    expect(await cartRow(cart.id)).toEqual(before);
    expect((await cartLines(cart.id))[0]!.qty).toBe(1);
    expect(await eventsWhere(A, ["cart.updated"], "id", cart.id)).toEqual([]);
    // Its details still show it, checked out, never flagged.
    const details = await read(await s.as(`${CARTS}${cart.id}/`));
    expect(details).toMatchObject({ status: "checked_out", order_id: result.order.id, cart_price_updated: false });
  });
});

describe("List Carts (MO1)", () => {
  it("lists the store's carts as last priced, with filters; another store sees none of them", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 250, 5);
    const c1 = await cartOf(s, { items: [{ item_id: item.id, qty: 2 }] });
    const c2 = await cartOf(s, {
      items: [
        { item_id: item.id, qty: 1 },
        { item_id: item.id, qty: 1 },
      ],
      cart_provider: "web",
    });
    await checkedOut(s, c1.id, { payment_provider: "cash_on_delivery" });
    const res = await store.as(`${M_CARTS}?customer_id=${s.id}`);
    const page = await read(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("listCarts", page)).toEqual([]);
    expect(page.count).toBe(2);
    expect(page.results.map((c: { id: number }) => c.id)).toEqual([c2.id, c1.id]);
    expect(page.results[0]).toMatchObject({
      customer_id: s.id,
      status: "open",
      cart_provider: "web",
      items_count: 2,
      total_cart_price: 5,
      order_id: null,
    });
    expect(page.results[1]).toMatchObject({ status: "checked_out", items_count: 1, total_cart_price: 5 });
    expect(page.results[1].order_id).toBeGreaterThan(0);
    const open = await read(await store.as(`${M_CARTS}?customer_id=${s.id}&status=open`));
    expect(open.results.map((c: { id: number }) => c.id)).toEqual([c2.id]);
    const theirs = await read(await other.as(`${M_CARTS}?customer_id=${s.id}`));
    expect(theirs.count).toBe(0);
    expect((await store.as(`${M_CARTS}?status=closed`)).status).toBe(400);
  });
});
