import { invalidatesPublicCache } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { linksOf } from "../http";
import { CreateOrderSchema, OrderListSchema, OrderSchema, UpdateOrderSchema } from "./schemas";
import { createOrder, listOrders, ORDER_LIST, orderDetails, orderListOf, updateOrder } from "./service";

const tags = ["Orders"];
const common = { tags, specId: "MO4" } as const;
const orderId = idParam("order_id");

export const listOrdersRoute = merchantRoute({
  ...common,
  method: "get",
  path: "/merchant/orders/",
  operationId: "listOrders",
  summary: "List Orders",
  permission: "can_read_order",
  description:
    "The store's orders, newest first, with their lines, totals (VAT split per line) and invoices. Filters on " +
    "status, payment status, fulfillment status, provider, customer, dates and totals; `search` finds the " +
    "reference, or the customer's name or mobile number.",
  request: { query: listQuerySchema(ORDER_LIST) },
  responses: { 200: jsonContent(OrderListSchema, "A page of orders.") },
});

export const getOrderRoute = merchantRoute({
  ...common,
  method: "get",
  path: "/merchant/orders/{order_id}/",
  operationId: "getOrder",
  summary: "Order Details",
  permission: "can_read_order",
  description:
    "One order (FOUND path): its customer, receiver, lines with the items as they are now, totals, invoices, " +
    "`allowed_actions`, and for a pending card order its `payment_url`.",
  request: { params: orderId },
  errors: { 404: ["order_not_found"] },
  responses: { 200: jsonContent(OrderSchema, "The order.") },
});

export const createOrderRoute = merchantRoute({
  ...common,
  method: "post",
  path: "/merchant/orders/",
  operationId: "createOrder",
  summary: "Create Order",
  permission: "can_write_order",
  idempotent: true,
  description:
    "A phone order for a customer: priced and placed like a checkout (stock taken in the same guarded batch), " +
    "pending with a `payment_url` to send the customer (`card`), or waiting for its transfer or its delivery. " +
    "Emits `order.created`, `invoice.created`.",
  request: { body: jsonBody(CreateOrderSchema) },
  errors: {
    404: ["customer_not_found"],
    409: [
      "insufficient_stock",
      "below_minimum_order",
      "payment_provider_disabled",
      "voucher_usage_limit_reached",
      "concurrent_update",
    ],
  },
  responses: { 201: jsonContent(OrderSchema, "The pending order.") },
});

export const updateOrderRoute = merchantRoute({
  ...common,
  method: "patch",
  path: "/merchant/orders/{order_id}/",
  operationId: "updateOrder",
  summary: "Update Order",
  permission: "can_write_order",
  description:
    "Changes `notes`, `reference` and `custom_fields` (emits `order.updated`), or cancels a pending order " +
    "(`status: cancelled`): its stock, voucher use and wallet redemption go back, its invoice is voided " +
    "(emits `order.cancelled`). Any other move is a 409 `invalid_state_transition` naming the order's status " +
    "and `allowed_actions`: payment completes an order, a refund invoice refunds it.",
  request: { params: orderId, body: jsonBody(UpdateOrderSchema) },
  errors: { 404: ["order_not_found"], 409: ["invalid_state_transition"] },
  responses: { 200: jsonContent(OrderSchema, "The order after the change.") },
});

export const ordersRouter = createRouter();
// Stock changes: the cached catalogue reads (stock) of the store are made fresh before the answer.
ordersRouter.use("/merchant/orders/*", invalidatesPublicCache());
ordersRouter.openapi(listOrdersRoute, async (c) => {
  const ctx = serviceContext(c);
  return c.json(envelopeOf(c, await listOrders(ctx, listQueryOf(c, orderListOf(ctx.appId)), linksOf(c))), 200);
});
ordersRouter.openapi(getOrderRoute, async (c) =>
  c.json(await orderDetails(serviceContext(c), c.req.valid("param").order_id, linksOf(c)), 200),
);
ordersRouter.openapi(createOrderRoute, async (c) =>
  c.json(await createOrder(serviceContext(c), c.req.valid("json"), linksOf(c)), 201),
);
ordersRouter.openapi(updateOrderRoute, async (c) =>
  c.json(await updateOrder(serviceContext(c), c.req.valid("param").order_id, c.req.valid("json"), linksOf(c)), 200),
);
