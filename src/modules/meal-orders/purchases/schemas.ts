import { z } from "@hono/zod-openapi";

/** Has Purchased Plan (MM4): whether the customer has bought a plan. */

export const HasPurchasedPlanBodySchema = z
  .object({ plan_id: z.number().int().positive().openapi({ description: "A plan of the store." }) })
  .strict()
  .openapi("HasPurchasedPlanRequest");

export const HasPurchasedPlanSchema = z
  .object({
    plan_id: z.number().int(),
    has_purchased: z
      .boolean()
      .openapi({ description: "The customer has a paid meal subscription of the plan (any status but `pending`)." }),
    purchases_count: z
      .number()
      .int()
      .openapi({ description: "How many paid subscriptions of the plan (renewals too)." }),
    active_subscription_id: z.number().int().nullable().openapi({
      description: "The customer's latest subscription of the plan that is `active` or `paused`; null when none.",
    }),
    last_purchased_at: z.string().nullable().openapi({
      format: "date-time",
      description: "When the latest paid subscription of the plan was placed; null when none.",
    }),
  })
  .openapi("HasPurchasedPlan");
export type HasPurchasedPlan = z.infer<typeof HasPurchasedPlanSchema>;
