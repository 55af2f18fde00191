import type { Context } from "hono";
import { customerOf } from "../../../core/auth";
import { makeServiceContext, serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { customerRoute, merchantRoute } from "../../../core/routes";
import type { AppEnv } from "../../../env";
import { linksOf } from "../../orders";
import { MealOrderListSchema, MealOrderSchema } from "../orders/schemas";
import { MEAL_ORDER_LIST } from "../orders/service";
import { type ContextOf, listMyChannelOrders, listSalesChannelOrders, salesChannelOrder } from "./service";

const contextOf =
  (c: Context<AppEnv>): ContextOf =>
  (appId, db) =>
    makeServiceContext(db, appId, c.env, (p) => c.executionCtx.waitUntil(p));

const SIDES =
  "As a channel (marketplace) store: the orders its customers placed through it at the provider stores it is " +
  "actively connected to (nothing once a connection is deactivated or deleted). As a provider store: the orders " +
  "it received through channels (`channel_app_id`). Each order is its provider's (`app_id`).";

export const listSalesChannelOrdersRoute = merchantRoute({
  tags: ["Sales channel orders"],
  specId: "MX3",
  permission: "can_read_sales_channels",
  method: "get",
  path: "/sales-channels/meals/orders/",
  operationId: "listSalesChannelMealOrders",
  summary: "Sales Channel Orders",
  description: `Meal orders placed through sales channels, newest first. ${SIDES}`,
  request: { query: listQuerySchema(MEAL_ORDER_LIST) },
  responses: { 200: jsonContent(MealOrderListSchema, "A page of meal orders.") },
});

export const getSalesChannelOrderRoute = merchantRoute({
  tags: ["Sales channel orders"],
  specId: "MX3",
  permission: "can_read_sales_channels",
  method: "get",
  path: "/sales-channels/meals/orders/{order_id}/",
  operationId: "getSalesChannelMealOrder",
  summary: "Sales Channel Order Details",
  description: `One meal order placed through a sales channel (any other is a 404). ${SIDES}`,
  request: { params: idParam("order_id") },
  errors: { 404: ["meal_order_not_found"] },
  responses: { 200: jsonContent(MealOrderSchema, "The meal order.") },
});

export const listMyChannelOrdersRoute = customerRoute({
  tags: ["Customer app: sales channels"],
  specId: "CA15",
  method: "get",
  path: "/sales-channels/orders/",
  operationId: "listMyChannelMealOrders",
  summary: "List Channel Orders",
  description:
    "The meal orders the customer placed through this channel store at its providers, newest first, while the " +
    "channel's connection with each provider is active.",
  request: { query: listQuerySchema(MEAL_ORDER_LIST) },
  responses: { 200: jsonContent(MealOrderListSchema, "A page of the customer's channel orders.") },
});

export const channelOrdersMerchantRouter = createRouter();
channelOrdersMerchantRouter.openapi(listSalesChannelOrdersRoute, async (c) =>
  c.json(
    envelopeOf(
      c,
      await listSalesChannelOrders(c.env, serviceContext(c), contextOf(c), listQueryOf(c, MEAL_ORDER_LIST), linksOf(c)),
    ),
    200,
  ),
);
channelOrdersMerchantRouter.openapi(getSalesChannelOrderRoute, async (c) =>
  c.json(
    await salesChannelOrder(c.env, serviceContext(c), contextOf(c), c.req.valid("param").order_id, linksOf(c)),
    200,
  ),
);

export const channelOrdersCustomerRouter = createRouter();
channelOrdersCustomerRouter.openapi(listMyChannelOrdersRoute, async (c) =>
  c.json(
    envelopeOf(
      c,
      await listMyChannelOrders(
        c.env,
        serviceContext(c),
        contextOf(c),
        customerOf(c).customerId,
        listQueryOf(c, MEAL_ORDER_LIST),
        linksOf(c),
      ),
    ),
    200,
  ),
);
