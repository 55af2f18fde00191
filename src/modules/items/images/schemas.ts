import { z } from "@hono/zod-openapi";
import { humanText, NAME_MAX, ordering } from "../../../core/fields";

export const ItemImageSchema = z
  .object({ id: z.number().int(), url: z.string(), alt_en: z.string(), alt_ar: z.string(), ordering: z.number().int() })
  .openapi("ItemImage");

export type ItemImage = z.infer<typeof ItemImageSchema>;

export const IMAGES_MAX = 20;

const imageFields = {
  url: z
    .string()
    .url()
    .max(2048)
    .refine((u) => u.startsWith("https://"), "Must be an https URL.")
    .openapi({ example: "https://cdn.example.com/latte.jpg" }),
  alt_en: humanText(NAME_MAX),
  alt_ar: humanText(NAME_MAX),
  ordering,
};

export const CreateItemImageSchema = z
  .object(imageFields)
  .partial({ alt_en: true, alt_ar: true, ordering: true })
  .strict()
  .openapi("CreateItemImage");

export const UpdateItemImageSchema = z
  .object(imageFields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .openapi("UpdateItemImage");

export type CreateItemImage = z.infer<typeof CreateItemImageSchema>;
export type UpdateItemImage = z.infer<typeof UpdateItemImageSchema>;
