import { z } from "@hono/zod-openapi";
import { humanText, hundredths } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { SUBORDER_STATUSES } from "../tables";
import { COMPLAINT_REASON_CODES } from "./reasons";
import { COMPLAINT_STATUSES } from "./tables";

const at = z.string().openapi({ format: "date-time" });

export const ComplaintReasonSchema = z
  .object({ code: z.enum(COMPLAINT_REASON_CODES), name_en: z.string(), name_ar: z.string() })
  .openapi("ComplaintReason");
export const ComplaintReasonListSchema = envelopeSchema(ComplaintReasonSchema, "ComplaintReasonList");

const REASONS_PARAMS = ["page", "page_size"];

export const ReasonsQuerySchema = z
  .object({
    page: z
      .string()
      .regex(/^[1-9]\d{0,5}$/, "Must be an integer from 1.")
      .transform(Number)
      .optional()
      .openapi({ type: "integer", minimum: 1, default: 1 }),
    page_size: z
      .string()
      .regex(/^([1-9]\d?|100)$/, "Must be an integer from 1 to 100.")
      .transform(Number)
      .optional()
      .openapi({ type: "integer", minimum: 1, maximum: 100, default: 20 }),
  })
  .catchall(z.unknown())
  // As every list refuses a parameter it does not take (core/listing), naming those it does.
  .superRefine((q, ctx) => {
    for (const key of Object.keys(q))
      if (!REASONS_PARAMS.includes(key))
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `Unknown query parameter. Allowed: ${REASONS_PARAMS.join(", ")}.`,
        });
  });

export const ComplaintSchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    suborder_id: z.number().int(),
    subscription_id: z.number().int(),
    customer_id: z.number().int(),
    reason: ComplaintReasonSchema,
    description: z.string().nullable(),
    images: z.array(z.string()),
    status: z.enum(COMPLAINT_STATUSES).openapi({ description: "open → in_review → resolved | rejected." }),
    allowed_actions: z.array(z.enum(COMPLAINT_STATUSES)).openapi({ description: "The statuses it may move to now." }),
    resolution_note: z.string().nullable().openapi({ description: "The store's answer." }),
    wallet_credit: z.number().nullable().openapi({ description: "Cashback credited by the resolution, major units." }),
    currency: z.string(),
    resolved_at: at.nullable().openapi({ description: "When it was resolved or rejected." }),
    suborder: z.object({
      id: z.number().int(),
      date: z.string().openapi({ format: "date" }),
      status: z.enum(SUBORDER_STATUSES),
    }),
    created_at: at,
    modified_at: at,
    deleted_at: at.nullable(),
    is_deleted: z.boolean(),
    ordering: z.number().int(),
  })
  .openapi("Complaint");
export type Complaint = z.infer<typeof ComplaintSchema>;
export const ComplaintListSchema = envelopeSchema(ComplaintSchema, "ComplaintList");

const httpsUrl = z
  .string()
  .url()
  .max(2048)
  .refine((u) => u.startsWith("https://"), "Must be an https URL.");

export const CreateComplaintSchema = z
  .object({
    reason: z.enum(COMPLAINT_REASON_CODES).openapi({ description: "A code of List Complaint Reasons." }),
    description: humanText(2000, "lines").min(1).optional(),
    images: z.array(httpsUrl).max(5).optional().openapi({ description: "Photos, at most 5 https URLs." }),
  })
  .strict()
  .refine((b) => b.reason !== "other" || b.description !== undefined, {
    message: "Describe the complaint when the reason is `other`.",
    path: ["description"],
  })
  .openapi("CreateComplaint");
export type CreateComplaint = z.infer<typeof CreateComplaintSchema>;

export const UpdateComplaintSchema = z
  .object({
    status: z
      .enum(["in_review", "resolved", "rejected"])
      .optional()
      .openapi({ description: "open → in_review → resolved | rejected; another move is a 409." }),
    resolution_note: humanText(2000, "lines").nullable().optional(),
    wallet_credit: hundredths({
      min: 0.01,
      max: 100_000,
      description: "With `status: resolved`: cashback credited to the customer's wallet, major units.",
    }).optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .refine((b) => b.wallet_credit === undefined || b.status === "resolved", {
    message: "Only with `status: resolved`.",
    path: ["wallet_credit"],
  })
  .openapi("UpdateComplaint");
export type UpdateComplaint = z.infer<typeof UpdateComplaintSchema>;
