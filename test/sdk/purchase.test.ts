/**
 * The SDK against the Worker itself (its fetch handler on local D1, in workerd): a whole purchase as
 * a customer app makes it (OTP login, browsing the catalogue page by page, a cart, a checkout under
 * the Idempotency-Key the SDK made, the order's details), the merchant's side of it, an expired
 * access token refreshed on the way, and a delivery signed by the API's own signing verified by the
 * SDK. What the SDK does against fakes (retries, concurrent refreshes) is test/node/sdk-client.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createClient, type SdkClient, unwrap, verifyWebhook } from "../../sdk/src/index";
import { signatureHeader } from "../../src/modules/webhooks/signing";
import { insertCustomer, newIp, newPhone, worldWith } from "../customers/login-helpers";
import { APP_1, createPlainItem, customerTokenFor, tokenFor } from "../helpers/factories";
import { BASE, fetchWorker } from "../helpers/request";

const world = worldWith();
const phone = newPhone();
let customerId: number;
let itemIds: number[];
let merchantToken: string;
/** Every request the SDK sent, as it left it. */
const sent: Request[] = [];

/** An SDK client whose fetch is the Worker's own handler (one client IP, for the login's per-IP ceiling). */
function sdk(config: Partial<Parameters<typeof createClient>[0]> = {}): SdkClient {
  const ip = newIp();
  return createClient({
    baseUrl: BASE,
    appId: APP_1,
    merchantToken,
    fetch: async (request) => {
      sent.push(request.clone());
      const withIp = new Request(request);
      withIp.headers.set("cf-connecting-ip", ip);
      return fetchWorker(withIp, world.env);
    },
    ...config,
  });
}

beforeAll(async () => {
  customerId = await insertCustomer(APP_1, phone);
  const items = await Promise.all([
    createPlainItem(APP_1, { priceMinor: 4_600, stockQty: 10, nameEn: "Museum pass" }),
    createPlainItem(APP_1, { priceMinor: 1_150, stockQty: 10, nameEn: "Audio guide" }),
    createPlainItem(APP_1, { priceMinor: 900, stockQty: 10, nameEn: "Map" }),
  ]);
  itemIds = items.map((i) => i.id);
  merchantToken = await tokenFor(APP_1, ["can_read_order", "can_write_order"]);
});

describe("a whole purchase through the SDK", () => {
  it("login by OTP, browse, cart, checkout under the SDK's key, the order's details, and the merchant's view", async () => {
    const client = sdk();

    // Login: a code by SMS (the test reads the one queued), exchanged for the tokens.
    const otp = await client.POST("/api/v1/customer/auth/otp/", {
      body: { country_code: "966", mobile_number: phone.national },
    });
    expect(otp.response.status).toBe(202);
    const login = unwrap(
      await client.POST("/api/v1/customer/auth/token/", {
        body: { country_code: "966", mobile_number: phone.national, otp: world.codeFor(phone.e164) },
      }),
    );
    expect(login.customer.id).toBe(customerId);
    client.setCustomerTokens({ accessToken: login.access_token, refreshToken: login.refresh_token });

    // Browse the catalogue a page of one at a time: every item, following `next`.
    const browsed: number[] = [];
    for await (const item of client.paginate("/order/v1/items/", { params: { query: { page_size: 1 } } })) {
      browsed.push(item.id);
    }
    expect(browsed.sort((a, b) => a - b)).toEqual([...itemIds].sort((a, b) => a - b));
    const pass = unwrap(await client.GET("/order/v1/items/{item_id}/", { params: { path: { item_id: itemIds[0]! } } }));
    expect(pass).toMatchObject({ id: itemIds[0], name_en: "Museum pass", price: 46 });

    // A cart of two passes and a guide, then checkout: cash on delivery, under a key the SDK made.
    const cart = unwrap(
      await client.POST("/order/v1/carts/", {
        body: {
          items: [
            { item_id: itemIds[0]!, qty: 2 },
            { item_id: itemIds[1]!, qty: 1 },
          ],
        },
      }),
    );
    const checkout = await client.POST("/order/v1/carts/{cart_id}/checkout/", {
      params: { path: { cart_id: cart.id } },
      body: { payment_provider: "cash_on_delivery" },
    });
    const result = unwrap(checkout);
    expect(checkout.response.status).toBe(201);
    expect(result).toMatchObject({ total_amount: 103.5, currency: "SAR" });
    const keyed = sent.filter((r) => new URL(r.url).pathname.endsWith(`/carts/${cart.id}/checkout/`));
    expect(keyed).toHaveLength(1);
    const key = keyed[0]!.headers.get("idempotency-key");
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The API holds the SDK's key: the same call under it again is the first answer, not a second order.
    const again = await client.POST("/order/v1/carts/{cart_id}/checkout/", {
      params: { path: { cart_id: cart.id }, header: { "Idempotency-Key": key! } },
      body: { payment_provider: "cash_on_delivery" },
    });
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(unwrap(again).order.id).toBe(result.order.id);

    // The order's details, as the customer sees them.
    const mine = unwrap(
      await client.GET("/order/v1/orders/{order_id}/", { params: { path: { order_id: result.order.id } } }),
    );
    expect(mine).toMatchObject({ id: result.order.id, total_amount: 103.5, payment_status: "unpaid" });
    expect(mine.items.map((l) => [l.item_id, l.qty])).toEqual([
      [itemIds[0], 2],
      [itemIds[1], 1],
    ]);

    // The merchant's side: the same client, the merchant token, the store's orders.
    const merchantOrders: number[] = [];
    for await (const order of client.paginate("/order/v1/merchant/orders/", {})) merchantOrders.push(order.id);
    expect(merchantOrders).toContain(result.order.id);
    const seen = unwrap(
      await client.GET("/order/v1/merchant/orders/{order_id}/", { params: { path: { order_id: result.order.id } } }),
    );
    expect(seen).toMatchObject({ id: result.order.id, customer_id: customerId, total_amount: 103.5 });

    // The headers the SDK set: app-id on every call, each operation's own credential.
    const auth = (path: string) => sent.find((r) => new URL(r.url).pathname === path)?.headers.get("authorization");
    expect(sent.every((r) => r.headers.get("app-id") === String(APP_1))).toBe(true);
    expect(auth("/api/v1/customer/auth/otp/")).toBeNull();
    expect(auth("/order/v1/items/")).toBeNull();
    expect(auth("/order/v1/carts/")).toBe(`Bearer ${login.access_token}`);
    expect(auth("/order/v1/merchant/orders/")).toBe(`Bearer ${merchantToken}`);
  });

  it("an expired access token is refreshed with the refresh token and the call replayed", async () => {
    // A customer of their own: a number's next code waits out the resend cooldown.
    const other = newPhone();
    const otherId = await insertCustomer(APP_1, other);
    const client = sdk();
    await client.POST("/api/v1/customer/auth/otp/", { body: { country_code: "966", mobile_number: other.national } });
    const login = unwrap(
      await client.POST("/api/v1/customer/auth/token/", {
        body: { country_code: "966", mobile_number: other.national, otp: world.codeFor(other.e164) },
      }),
    );
    const expired = await customerTokenFor(APP_1, otherId, { expiresIn: -60 });
    const reported: { accessToken: string; refreshToken: string }[] = [];
    const later = sdk({
      customer: { accessToken: expired, refreshToken: login.refresh_token, onTokens: (t) => void reported.push(t) },
    });
    const orders = await later.GET("/order/v1/orders/");
    expect(orders.response.status).toBe(200);
    expect(reported).toHaveLength(1);
    expect(reported[0]!.refreshToken).not.toBe(login.refresh_token);
    expect(later.customerTokens()).toEqual(reported[0]);
    // The old refresh token was replaced: the API refuses it now.
    const reused = await client.POST("/api/v1/customer/auth/token/refresh/", {
      body: { refresh_token: login.refresh_token },
    });
    expect(reused.response.status).toBe(401);
  });
});

it("verifyWebhook accepts a delivery signed by the API's own signing, and refuses it altered", async () => {
  const secret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
  const body = JSON.stringify({ event: "order.created", app_id: APP_1, data: { id: 1 } });
  const at = Math.floor(Date.now() / 1000);
  const headers = {
    "webhook-id": "evt_1.1",
    "webhook-timestamp": String(at),
    "webhook-signature": await signatureHeader([secret], "evt_1.1", at, body),
  };
  expect(await verifyWebhook(secret, headers, body)).toMatchObject({ event: "order.created" });
  await expect(verifyWebhook(secret, headers, body.replace("created", "paid"))).rejects.toThrow(/No signature/);
});
