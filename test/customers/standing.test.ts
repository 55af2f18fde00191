import { beforeAll, describe, expect, it } from "vitest";
import { inlineSharedParts } from "../../src/openapi-shared-parts";
import { call, json, problem } from "../helpers/request";
import { CARTS, cartOf, checkout, rowOf, type Store, shopperOf, stocked, storeFor } from "../orders/helpers";
import { age, insertCustomer, newIp, newPhone, P, worldWith } from "./login-helpers";

// A store of this file alone.
const S = 4251;
let store: Store;

beforeAll(async () => {
  store = await storeFor(S);
});

const API = "/api/v1/customer";
const block = (id: number, isBlocked: boolean) =>
  store.as(`/order/v1/merchant/customers/${id}/`, { method: "PATCH", body: { is_blocked: isBlocked } });
const cartsOf = async (customerId: number) =>
  (await rowOf<{ n: number }>("SELECT count(*) AS n FROM carts WHERE customer_id = ?", customerId)).n;

/** A customer of the store logged in through CA3 and CA4, as an app does. */
async function login(p = newPhone(), id?: number) {
  const w = worldWith();
  const customerId = id ?? (await insertCustomer(S, p));
  const body = { country_code: "966", mobile_number: p.national };
  expect((await w.post(P.otp, body, { appId: S, ip: newIp() })).status).toBe(202);
  const res = await w.post(P.token, { ...body, otp: w.codeFor(p.e164) }, { appId: S, ip: newIp() });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(200);
  const as = (path: string, opts: { method?: string; body?: unknown } = {}) =>
    call(path, { ...opts, token: out.access_token, appId: S });
  return { id: customerId, phone: p, w, access: out.access_token as string, refresh: out.refresh_token as string, as };
}

/** What an app does with an access token: read the profile, create a cart, check one out. */
async function tryEverything(
  s: { as: (path: string, opts?: { method?: string; body?: unknown }) => Promise<Response> },
  cartId: number,
  itemId: number,
) {
  return [
    await s.as(`${API}/profile/`),
    await s.as(CARTS, { method: "POST", body: { items: [{ item_id: itemId, qty: 1 }] } }),
    await s.as(`${CARTS}${cartId}/checkout/`, { method: "POST", body: { payment_provider: "cash_on_delivery" } }),
  ];
}

describe("A blocked or deleted customer's access token stops at once", () => {
  it("blocked: the same token's profile read, cart and checkout are 403 customer_blocked; unblocking lets them log in again", async () => {
    const item = await stocked(S, 500, 50);
    const sara = await login();
    const created = await sara.as(CARTS, { method: "POST", body: { items: [{ item_id: item.id, qty: 1 }] } });
    expect(created.status).toBe(201);
    const cart = await json(created);
    expect((await block(sara.id, true)).status).toBe(200);
    const carts = await cartsOf(sara.id);

    for (const res of await tryEverything(sara, cart.id, item.id)) {
      expect(res.status, res.url).toBe(403);
      expect((await problem(res)).code).toBe("customer_blocked");
    }
    expect(await cartsOf(sara.id)).toBe(carts);
    expect(await rowOf("SELECT status, order_id FROM carts WHERE id = ?", cart.id)).toMatchObject({
      status: "open",
      order_id: null,
    });
    // No new access token either: the refresh tokens were revoked with the block.
    const refreshed = await sara.w.post(P.refresh, { refresh_token: sara.refresh }, { appId: S });
    expect(refreshed.status).toBe(401);
    expect((await problem(refreshed)).code).toBe("invalid_refresh_token");

    // Unblocked, the customer logs in again and has the app back.
    expect((await block(sara.id, false)).status).toBe(200);
    await age(S, sara.phone.e164, 61); // past the one-a-minute resend cooldown
    const again = await login(sara.phone, sara.id);
    const profile = await again.as(`${API}/profile/`);
    expect(profile.status).toBe(200);
    expect((await json(profile)).id).toBe(sara.id);
    expect((await again.as(CARTS, { method: "POST", body: { items: [{ item_id: item.id, qty: 1 }] } })).status).toBe(
      201,
    );
  });

  it("deleted (Delete Customer Account): the same token gets 401 token_revoked everywhere", async () => {
    const item = await stocked(S, 500, 50);
    const omar = await shopperOf(S);
    const cart = await cartOf(omar, { items: [{ item_id: item.id, qty: 1 }] });
    expect((await omar.as(`${API}/profile/`, { method: "DELETE" })).status).toBe(204);
    const carts = await cartsOf(omar.id);

    for (const res of await tryEverything(omar, cart.id, item.id)) {
      expect(res.status, res.url).toBe(401);
      expect((await problem(res)).code).toBe("token_revoked");
    }
    expect(await cartsOf(omar.id)).toBe(carts);
    expect((await rowOf<{ status: string }>("SELECT status FROM carts WHERE id = ?", cart.id)).status).toBe("open");
  });

  it("another customer of the store is not touched by a block", async () => {
    const layla = await shopperOf(S);
    const eve = await shopperOf(S);
    expect((await block(eve.id, true)).status).toBe(200);
    expect((await layla.as(`${API}/profile/`)).status).toBe(200);
  });

  it("the document declares 403 customer_blocked on customer operations", async () => {
    const doc = inlineSharedParts(await json(await call("/openapi.json", { appId: null })));
    const codesOf = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content["application/problem+json"].schema;
    const text = (path: string, method: string, status: string) => JSON.stringify(codesOf(path, method, status));
    expect(text(CARTS, "post", "403")).toContain("customer_blocked");
    expect(text(`${API}/profile/`, "get", "403")).toContain("customer_blocked");
    expect(text(`${API}/profile/`, "get", "401")).toContain("token_revoked");
  });

  it("the checkout would have gone through for a customer in good standing (the 403 above is the block's)", async () => {
    const item = await stocked(S, 500, 50);
    const ok = await shopperOf(S);
    const cart = await cartOf(ok, { items: [{ item_id: item.id, qty: 1 }] });
    const res = await checkout(ok, cart.id, { payment_provider: "cash_on_delivery" });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  });
});
