import { z } from "@hono/zod-openapi";
import { customFields, humanText, nameText, nonEmpty, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { audit, int, json, latitude, longitude, optionalText, text } from "../schemas";

/** Corporate locations (MM9): offices and compounds the store delivers to as a group. */

const CorporateWindowSchema = z
  .object({
    id: int(),
    restaurant_id: int(),
    from_time: z.string().openapi({ example: "12:00:00" }),
    to_time: z.string().openapi({ example: "14:00:00" }),
  })
  .openapi("CorporateLocationWindow");

export const CorporateLocationSchema = z
  .object({
    id: int(),
    custom_fields: json,
    ...audit,
    name_en: z.string(),
    name_ar: z.string(),
    company_name: text,
    city_id: int(),
    district: text,
    address: z.string(),
    lat: z.number(),
    lng: z.number(),
    instructions: text.openapi({ description: "How a captain reaches the drop point (gate, floor, reception)." }),
    is_active: z.boolean(),
    delivery_windows: z.array(CorporateWindowSchema).openapi({
      description:
        "The delivery windows in which meals reach this location (deleted windows, and for a customer those " +
        "of inactive restaurants, are left out).",
    }),
  })
  .openapi("CorporateLocation");
export type CorporateLocation = z.infer<typeof CorporateLocationSchema>;

export const CorporateLocationListSchema = envelopeSchema(CorporateLocationSchema, "CorporateLocationList");

const fields = {
  name_en: nameText,
  name_ar: nameText,
  company_name: humanText(200).nullable(),
  city_id: int().positive(),
  district: humanText(200).nullable(),
  address: humanText(500),
  lat: latitude,
  lng: longitude,
  delivery_window_ids: z
    .array(int().positive())
    .max(48)
    .refine((xs) => new Set(xs).size === xs.length, "Ids must not repeat.")
    .openapi({ uniqueItems: true, description: "Delivery windows of the store's restaurants." }),
  instructions: optionalText,
  is_active: z.boolean(),
  custom_fields: customFields,
  ordering,
};

export const CreateCorporateLocationSchema = z
  .object(fields)
  .partial()
  .required({ name_en: true, name_ar: true, city_id: true, lat: true, lng: true })
  .strict()
  .openapi("CreateCorporateLocation");
export const UpdateCorporateLocationSchema = nonEmpty(z.object(fields).partial().strict()).openapi(
  "UpdateCorporateLocation",
);
