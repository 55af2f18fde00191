import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { linksOf } from "../http";
import { OrderListSchema, OrderSchema } from "./schemas";
import { listMyOrders, ORDER_LIST, orderDetails, orderListOf } from "./service";

const tags = ["Customer app: orders"];
const common = { tags, specId: "CA11" } as const;

export const listMyOrdersRoute = customerRoute({
  ...common,
  method: "get",
  path: "/orders/",
  operationId: "listMyOrders",
  summary: "List Orders",
  description: "The customer's own orders, newest first, with the same fields and filters as the merchant's list.",
  request: { query: listQuerySchema(ORDER_LIST) },
  responses: { 200: jsonContent(OrderListSchema, "A page of the customer's orders.") },
});

export const getMyOrderRoute = customerRoute({
  ...common,
  method: "get",
  path: "/orders/{order_id}/",
  operationId: "getMyOrder",
  summary: "Order Details",
  description: "One of the customer's orders; another customer's is a 404. A pending card order has its `payment_url`.",
  request: { params: idParam("order_id") },
  errors: { 404: ["order_not_found"] },
  responses: { 200: jsonContent(OrderSchema, "The order.") },
});

export const ordersCustomerRoutes = createRouter();
ordersCustomerRoutes.openapi(listMyOrdersRoute, async (c) => {
  const ctx = serviceContext(c);
  const q = listQueryOf(c, orderListOf(ctx.appId));
  return c.json(envelopeOf(c, await listMyOrders(ctx, customerOf(c).customerId, q, linksOf(c))), 200);
});
ordersCustomerRoutes.openapi(getMyOrderRoute, async (c) =>
  c.json(
    await orderDetails(serviceContext(c), c.req.valid("param").order_id, linksOf(c), customerOf(c).customerId),
    200,
  ),
);
