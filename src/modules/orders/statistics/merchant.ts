import { serviceContext } from "../../../core/context";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { OrderStatisticsSchema } from "./schemas";
import { customerOrderStatistics } from "./service";

export const getCustomerOrderStatisticsRoute = merchantRoute({
  method: "get",
  path: "/merchant/customers/{customer_id}/order-statistics/",
  operationId: "getCustomerOrderStatistics",
  summary: "Customer Order Statistics",
  tags: ["Customers"],
  specId: "MC3",
  permission: "can_read_order",
  description:
    "How a customer orders: their orders per status, what they spent (completed orders less refunds), the " +
    "average order value, their first and last order, and their active recurring purchases. Counted now, " +
    "from the orders themselves.",
  request: { params: idParam("customer_id") },
  errors: { 404: ["customer_not_found"] },
  responses: { 200: jsonContent(OrderStatisticsSchema, "The customer's order statistics.") },
});

/** MC3: a customer's order statistics (served by orders, which own the orders). */
export const customerStatisticsRouter = createRouter().openapi(getCustomerOrderStatisticsRoute, async (c) =>
  c.json(await customerOrderStatistics(serviceContext(c), c.req.valid("param").customer_id), 200),
);
