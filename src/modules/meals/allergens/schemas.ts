import { z } from "@hono/zod-openapi";
import { nameText, nonEmpty, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { audit, image, int } from "../schemas";
import { ALLERGEN_KINDS } from "../tables";

export const AllergenSchema = z
  .object({
    id: int(),
    ...audit,
    kind: z.enum(ALLERGEN_KINDS),
    name_en: z.string(),
    name_ar: z.string(),
    icon: z.string(),
  })
  .openapi("AllergenDislike");

export const AllergenListSchema = envelopeSchema(AllergenSchema, "AllergenDislikeList");

const allergenFields = {
  kind: z.enum(ALLERGEN_KINDS),
  name_en: nameText.openapi({
    description: "Products name the allergen by this in `allergies` or `allergens_dislikes`.",
  }),
  name_ar: nameText,
  icon: image,
  ordering,
};
export const CreateAllergenSchema = z
  .object(allergenFields)
  .partial({ icon: true, ordering: true })
  .strict()
  .openapi("CreateAllergenDislike");
export const UpdateAllergenSchema = nonEmpty(z.object(allergenFields).partial().strict()).openapi(
  "UpdateAllergenDislike",
);
