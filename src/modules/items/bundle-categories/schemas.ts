import { z } from "@hono/zod-openapi";
import { isDeletedOnRequest, nameText, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";

/** A bundle category, as its own resource and inside an Item's `bundle_categories`. */
export const BundleCategorySchema = z
  .object({
    id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    is_selectable: z.boolean(),
    is_optional: z.boolean(),
    min_selections: z.number().int(),
    max_selections: z.number().int(),
    ordering: z.number().int(),
  })
  .openapi("ItemBundleCategory");

export type BundleCategory = z.infer<typeof BundleCategorySchema>;

/**
 * A bundle category as its own resource: the one inside an Item's `bundle_categories` (the spec's
 * shape, kept there) with what a mirror of the list needs.
 */
export const BundleCategoryRecordSchema = BundleCategorySchema.extend({
  modified_at: z.string().openapi({ format: "date-time" }),
  is_deleted: isDeletedOnRequest,
}).openapi("BundleCategoryRecord");

export type BundleCategoryRecord = z.infer<typeof BundleCategoryRecordSchema>;

export const BundleCategoryListSchema = envelopeSchema(BundleCategoryRecordSchema, "BundleCategoryList");

const bundleFields = {
  name_en: nameText,
  name_ar: nameText,
  is_selectable: z.boolean(),
  is_optional: z.boolean(),
  min_selections: z.number().int().min(0).max(1000),
  max_selections: z.number().int().min(1).max(1000),
  ordering,
};
const minNotAboveMax = (b: { min_selections?: number; max_selections?: number }) =>
  b.min_selections === undefined || b.max_selections === undefined || b.min_selections <= b.max_selections;

export const CreateBundleCategorySchema = z
  .object(bundleFields)
  .partial({ is_selectable: true, is_optional: true, min_selections: true, max_selections: true, ordering: true })
  .strict()
  .refine(minNotAboveMax, { message: "Must not be above max_selections.", path: ["min_selections"] })
  .openapi("CreateBundleCategory");

export const UpdateBundleCategorySchema = z
  .object(bundleFields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .refine(minNotAboveMax, { message: "Must not be above max_selections.", path: ["min_selections"] })
  .openapi("UpdateBundleCategory");

export type CreateBundleCategory = z.infer<typeof CreateBundleCategorySchema>;
export type UpdateBundleCategory = z.infer<typeof UpdateBundleCategorySchema>;
