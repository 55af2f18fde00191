import { z } from "@hono/zod-openapi";
import { ORDER_STATUSES } from "../tables";

export const OrderStatisticsSchema = z
  .object({
    customer_id: z.number().int(),
    orders_count: z.number().int().openapi({ description: "Every order of the customer's, whatever its status." }),
    orders_count_by_status: z
      .object(
        Object.fromEntries(ORDER_STATUSES.map((s) => [s, z.number().int()])) as Record<
          (typeof ORDER_STATUSES)[number],
          z.ZodNumber
        >,
      )
      .openapi({ description: "The orders per status; every status is present (0 when none)." }),
    completed_orders_count: z.number().int(),
    cancelled_orders_count: z.number().int(),
    total_spent: z.number().openapi({
      description: "Major units: the totals of the completed orders less what was refunded of them (VAT included).",
    }),
    average_order_value: z.number().openapi({
      description: "total_spent ÷ completed orders, rounded to the currency's decimals; 0 without one.",
    }),
    first_order_at: z.string().nullable().openapi({ description: "When the customer's first order was placed." }),
    last_order_at: z.string().nullable(),
    active_recurring_purchases_count: z.number().int(),
    currency: z.string(),
  })
  .openapi("CustomerOrderStatistics");

export type OrderStatistics = z.infer<typeof OrderStatisticsSchema>;
