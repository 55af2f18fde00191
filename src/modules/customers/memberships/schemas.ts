import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../../core/listing";
import { MEMBERSHIP_STATUSES } from "../tables";

/** A customer's membership: the access a subscription grants, for a period (design reference 3). */
export const MembershipSchema = z
  .object({
    id: z.number().int(),
    customer_id: z.number().int(),
    name_en: z.string().openapi({ example: "Gold members" }),
    name_ar: z.string().openapi({ example: "الأعضاء الذهبيون" }),
    subscription_id: z.number().int().nullable().openapi({ description: "The subscription that grants it." }),
    status: z.enum(MEMBERSHIP_STATUSES),
    start_date: z.string().openapi({ format: "date", example: "2026-11-01" }),
    end_date: z.string().nullable().openapi({ format: "date", description: "Null while open-ended." }),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("CustomerMembership");

export type Membership = z.infer<typeof MembershipSchema>;

export const MembershipListSchema = envelopeSchema(MembershipSchema, "CustomerMembershipList");
