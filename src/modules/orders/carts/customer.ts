import { customerOf } from "../../../core/auth";
import { invalidatesPublicCache } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { CheckoutResultSchema, CheckoutSchema } from "../checkout/schemas";
import { checkoutCart } from "../checkout/service";
import { linksOf } from "../http";
import { cartDetails } from "./details";
import { CartSchema, CreateCartSchema, UpdateCartSchema } from "./schemas";
import { createCart, updateCart } from "./service";

const tags = ["Customer app: checkout"];
const common = { tags, specId: "CA14" } as const;
const cartId = idParam("cart_id");
const LINES =
  "Each line names an item (or a variant) of the store, a quantity, the item's modifier values and, for a " +
  "bundle, its choices per bundle category (within each category's minimum and maximum). A line that cannot " +
  "be ordered is a 400 naming it (`items.N`).";

export const createCartRoute = customerRoute({
  ...common,
  method: "post",
  path: "/carts/",
  operationId: "createCart",
  summary: "Create Cart",
  description: `A new cart of the customer's, priced now. ${LINES} Emits \`cart.created\`.`,
  request: { body: jsonBody(CreateCartSchema) },
  errors: { 404: ["customer_not_found"] },
  responses: { 201: jsonContent(CartSchema, "The cart with its totals.") },
});

export const getCartRoute = customerRoute({
  ...common,
  method: "get",
  path: "/carts/{cart_id}/",
  operationId: "getMyCart",
  summary: "Cart Details",
  description:
    "The customer's cart priced now: lines that can no longer be ordered are flagged (`is_available`) and left " +
    "out of the totals; `cart_price_updated` says the total moved since the customer last saw it.",
  request: { params: cartId },
  errors: { 404: ["customer_not_found", "cart_not_found"] },
  responses: { 200: jsonContent(CartSchema, "The cart.") },
});

export const updateCartRoute = customerRoute({
  ...common,
  method: "patch",
  path: "/carts/{cart_id}/",
  operationId: "updateMyCart",
  summary: "Update Cart",
  description: `Changes an open cart; \`items\` replaces all its lines. ${LINES} Emits \`cart.updated\`.`,
  request: { params: cartId, body: jsonBody(UpdateCartSchema) },
  errors: { 404: ["customer_not_found", "cart_not_found"], 409: ["cart_checked_out"] },
  responses: { 200: jsonContent(CartSchema, "The cart with its new totals.") },
});

export const checkoutCartRoute = customerRoute({
  ...common,
  method: "post",
  path: "/carts/{cart_id}/checkout/",
  operationId: "checkoutCart",
  summary: "Checkout",
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "Places the order of an open cart: re-prices it, then in one guarded batch takes every line's stock, uses " +
    "the voucher, takes the wallet's part and creates the pending order, its unpaid invoice and transactions " +
    "(of two customers racing for the last unit, one gets it and the other a 409 `insufficient_stock`). " +
    "Answers the checkout result: totals, vouchers, the store's payment methods, the order, and for `card` the " +
    "`payment_url` to send the customer to. A zero total, or `wallet`, is paid at once. Unpaid card orders " +
    "release their stock after the store's `payment_ttl_minutes`. Emits `order.created`, `invoice.created`.",
  request: { params: cartId, body: jsonBody(CheckoutSchema) },
  errors: {
    404: ["customer_not_found", "cart_not_found"],
    409: [
      "cart_checked_out",
      "cart_empty",
      "item_unavailable",
      "insufficient_stock",
      "insufficient_balance",
      "below_minimum_order",
      "payment_provider_disabled",
      "voucher_usage_limit_reached",
      "concurrent_update",
    ],
  },
  responses: { 201: jsonContent(CheckoutResultSchema, "The checkout result with the pending (or paid) order.") },
});

export const cartsCustomerRouter = createRouter();
// Stock changes: the cached catalogue reads (stock) of the store are made fresh before the answer.
cartsCustomerRouter.use("/carts/:cart_id/checkout/", invalidatesPublicCache());

cartsCustomerRouter.openapi(createCartRoute, async (c) =>
  c.json(await createCart(serviceContext(c), customerOf(c).customerId, c.req.valid("json")), 201),
);
cartsCustomerRouter.openapi(getCartRoute, async (c) =>
  c.json(
    await cartDetails(serviceContext(c), c.req.valid("param").cart_id, { customerId: customerOf(c).customerId }),
    200,
  ),
);
cartsCustomerRouter.openapi(updateCartRoute, async (c) =>
  c.json(
    await updateCart(serviceContext(c), customerOf(c).customerId, c.req.valid("param").cart_id, c.req.valid("json")),
    200,
  ),
);
cartsCustomerRouter.openapi(checkoutCartRoute, async (c) =>
  c.json(
    await checkoutCart(
      serviceContext(c),
      customerOf(c).customerId,
      c.req.valid("param").cart_id,
      c.req.valid("json"),
      linksOf(c),
    ),
    201,
  ),
);
