import { z } from "@hono/zod-openapi";
import { nonEmpty, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { PlanSummarySchema } from "../../meals";
import { StoreFaceSchema } from "../stores";

const id = z.number().int();
const dateTime = z.string().openapi({ format: "date-time" });

export const ProviderPlanSchema = PlanSummarySchema.extend({
  provider_app_id: id.openapi({ description: "The provider store whose plan it is." }),
  listing_id: id
    .nullable()
    .openapi({ description: "This channel's listing of the plan, or null when it lists it not." }),
}).openapi("ProviderPlan");
export type ProviderPlan = z.infer<typeof ProviderPlanSchema>;

export const ProviderPlanListSchema = envelopeSchema(ProviderPlanSchema, "ProviderPlanList");

export const PlanListingSchema = z
  .object({
    id,
    provider_app_id: id,
    provider: StoreFaceSchema,
    plan_id: id,
    plan: PlanSummarySchema.nullable().openapi({
      description: "The provider's plan; null while the provider no longer offers it to channels.",
    }),
    is_available: z.boolean().openapi({
      description: "The provider offers the plan to channels now (active and marketplace-active): it may be sold.",
    }),
    is_active: z.boolean().openapi({ description: "The channel shows the listing." }),
    is_featured: z.boolean(),
    ordering: id,
    app_id: id.openapi({ description: "The channel." }),
    created_at: dateTime,
    modified_at: dateTime,
    deleted_at: dateTime.nullable(),
    is_deleted: z.boolean(),
  })
  .openapi("PlanListing");
export type PlanListing = z.infer<typeof PlanListingSchema>;

export const PlanListingListSchema = envelopeSchema(PlanListingSchema, "PlanListingList");

const listingFields = {
  is_active: z.boolean().openapi({ description: "Shown by the channel; default true." }),
  is_featured: z.boolean().openapi({ description: "Default false." }),
  ordering: ordering.openapi({ description: "Place among the channel's listings, ascending; default 0." }),
};

export const CreatePlanListingSchema = z
  .object({
    provider_app_id: id
      .positive()
      .openapi({ description: "A provider this store is actively connected to.", example: 2 }),
    plan_id: id.positive().openapi({ description: "One of the provider's plans offered to channels.", example: 1 }),
    is_active: listingFields.is_active.optional(),
    is_featured: listingFields.is_featured.optional(),
    ordering: listingFields.ordering.optional(),
  })
  .strict()
  .openapi("CreatePlanListing", { example: { provider_app_id: 2, plan_id: 1, is_featured: true } });
export type CreatePlanListing = z.output<typeof CreatePlanListingSchema>;

export const UpdatePlanListingSchema = nonEmpty(z.object(listingFields).partial().strict()).openapi(
  "UpdatePlanListing",
);
export type UpdatePlanListing = z.output<typeof UpdatePlanListingSchema>;
