import { z } from "@hono/zod-openapi";
import { isDeletedOnRequest, nameText, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";

export const ItemCategorySchema = z
  .object({
    id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    ordering: z.number().int(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
    is_deleted: isDeletedOnRequest,
  })
  .openapi("ItemCategory");

export type ItemCategory = z.infer<typeof ItemCategorySchema>;

export const ItemCategoryListSchema = envelopeSchema(ItemCategorySchema, "ItemCategoryList");

export const CreateItemCategorySchema = z
  .object({ name_en: nameText, name_ar: nameText, ordering: ordering.optional() })
  .strict()
  .openapi("CreateItemCategory");

export const UpdateItemCategorySchema = z
  .object({ name_en: nameText, name_ar: nameText, ordering })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .openapi("UpdateItemCategory");

export type CreateItemCategory = z.infer<typeof CreateItemCategorySchema>;
export type UpdateItemCategory = z.infer<typeof UpdateItemCategorySchema>;
