/**
 * A whole purchase through the SDK (sdk/), as README.md's "SDK" section shows it: the demo
 * customer's OTP login, the catalogue page by page, a cart, a checkout under the Idempotency-Key the
 * SDK makes, the order's details, and the merchant's view of it. test/sdk/purchase.test.ts makes the
 * same calls against the Worker.
 *
 * With `npm start` running (port 8787):
 *   TOKEN=$(npm run -s token -- --app-id 1 --permissions can_read_order) npx tsx examples/sdk-purchase/purchase.ts
 */
import { createClient, isProblem, unwrap } from "../../sdk/src/index.js";

const client = createClient({
  baseUrl: process.env.API_URL ?? "http://127.0.0.1:8787",
  appId: 1,
  merchantToken: process.env.TOKEN,
});

// Log in: under `npm start` the demo customer's number is a test number whose code is always 123456.
const phone = { country_code: "966", mobile_number: "0534501056" };
await client.POST("/api/v1/customer/auth/otp/", { body: phone });
const login = unwrap(await client.POST("/api/v1/customer/auth/token/", { body: { ...phone, otp: "123456" } }));
client.setCustomerTokens({ accessToken: login.access_token, refreshToken: login.refresh_token });

// Browse: every item of the catalogue, 5 a page (the SDK follows `next`).
for await (const item of client.paginate("/order/v1/items/", { params: { query: { page_size: 5 } } })) {
  console.log(`item ${item.id}: ${item.name_en}, ${item.price} SAR`);
}

// A cart of two museum passes, then checkout: the SDK sends an Idempotency-Key of its own making
// (and the same one again if it retries), so the order is placed once.
const cart = unwrap(await client.POST("/order/v1/carts/", { body: { items: [{ item_id: 4, qty: 2 }] } }));
const checkout = unwrap(
  await client.POST("/order/v1/carts/{cart_id}/checkout/", {
    params: { path: { cart_id: cart.id } },
    body: { payment_provider: "cash_on_delivery" },
  }),
);
console.log(`order ${checkout.order.id}: ${checkout.total_amount} ${checkout.currency}`);

// The order's details as the customer sees them; the access token is refreshed if it expired meanwhile.
const order = unwrap(
  await client.GET("/order/v1/orders/{order_id}/", { params: { path: { order_id: checkout.order.id } } }),
);
console.log(`status ${order.status}, payment ${order.payment_status}, ${order.items.length} line(s)`);

// The merchant's side, with the merchant token: the same order in the store's back office.
try {
  const seen = unwrap(
    await client.GET("/order/v1/merchant/orders/{order_id}/", { params: { path: { order_id: checkout.order.id } } }),
  );
  console.log(`merchant sees order ${seen.id} of customer ${seen.customer_id}`);
} catch (e) {
  // A typed problem: switch on its code (here, a missing or wrong TOKEN).
  if (isProblem(e, "not_authenticated") || isProblem(e, "missing_permission")) console.log(`merchant: ${e.detail}`);
  else throw e;
}
