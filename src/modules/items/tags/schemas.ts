import { z } from "@hono/zod-openapi";
import { isDeletedOnRequest, nameText, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";

export const ItemTagSchema = z
  .object({
    id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    ordering: z.number().int(),
    modified_at: z.string().openapi({ format: "date-time" }),
    is_deleted: isDeletedOnRequest,
  })
  .openapi("ItemTag");

export type ItemTag = z.infer<typeof ItemTagSchema>;

export const ItemTagListSchema = envelopeSchema(ItemTagSchema, "ItemTagList");

export const CreateItemTagSchema = z
  .object({ name_en: nameText, name_ar: nameText, ordering: ordering.optional() })
  .strict()
  .openapi("CreateItemTag");

export const UpdateItemTagSchema = z
  .object({ name_en: nameText, name_ar: nameText, ordering })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .openapi("UpdateItemTag");

export type CreateItemTag = z.infer<typeof CreateItemTagSchema>;
export type UpdateItemTag = z.infer<typeof UpdateItemTagSchema>;
