import { z } from "@hono/zod-openapi";
import { isDeletedOnRequest, nameText, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";

export const ModifierValueSchema = z
  .object({ id: z.number().int(), ordering: z.number().int(), name_en: z.string(), name_ar: z.string() })
  .openapi("ModifierValue");

export const ModifierCategorySchema = z
  .object({
    id: z.number().int(),
    ordering: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    values: z.array(ModifierValueSchema),
  })
  .openapi("ModifierCategory");

/**
 * A modifier category as its own resource: the one inside an Item's `modifiers` (the spec's shape,
 * kept there) with what a mirror of the list needs.
 */
export const ModifierCategoryRecordSchema = ModifierCategorySchema.extend({
  modified_at: z
    .string()
    .openapi({ format: "date-time", description: "Moves when the category or one of its values changes." }),
  is_deleted: isDeletedOnRequest,
}).openapi("ModifierCategoryRecord");

export type ModifierCategoryRecord = z.infer<typeof ModifierCategoryRecordSchema>;

export const ModifierCategoryListSchema = envelopeSchema(ModifierCategoryRecordSchema, "ModifierCategoryList");

const modifierValueInput = z.object({ name_en: nameText, name_ar: nameText, ordering: ordering.optional() }).strict();
const VALUES_MAX = 100;

export const CreateModifierCategorySchema = z
  .object({
    name_en: nameText,
    name_ar: nameText,
    ordering: ordering.optional(),
    values: z
      .array(modifierValueInput)
      .min(1)
      .max(VALUES_MAX)
      .openapi({ description: `The category's values, 1 to ${VALUES_MAX}, in order.` }),
  })
  .strict()
  .openapi("CreateModifierCategory");

export const UpdateModifierCategorySchema = z
  .object({
    name_en: nameText,
    name_ar: nameText,
    ordering,
    values: z
      .array(modifierValueInput.extend({ id: z.number().int().positive().optional() }).strict())
      .min(1)
      .max(VALUES_MAX)
      .refine(
        (vs) => new Set(vs.filter((v) => v.id).map((v) => v.id)).size === vs.filter((v) => v.id).length,
        "A value id must not repeat.",
      )
      .openapi({
        description:
          "The complete list of values: an entry with an `id` renames or reorders that value, one " +
          "without adds a value, and a value left out is removed (refused with 409 while a variant " +
          "uses it).",
      }),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .openapi("UpdateModifierCategory");

export type CreateModifierCategory = z.infer<typeof CreateModifierCategorySchema>;
export type UpdateModifierCategory = z.infer<typeof UpdateModifierCategorySchema>;
