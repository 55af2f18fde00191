import { z } from "@hono/zod-openapi";
import { humanText, NAME_MAX, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { LOCATION_TYPES } from "../tables";

const CitySchema = z
  .object({
    id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    country_code: z.string().openapi({ example: "SA" }),
    keywords: z.string(),
    is_supported: z.boolean().openapi({ description: "Whether the store serves this city." }),
  })
  .openapi("LocationCity");

/**
 * A customer's location, with the fields of the peer's own location model (design reference 3):
 * coordinates as strings, the city embedded, city and district names from the geography lists.
 */
export const LocationSchema = z
  .object({
    id: z.number().int(),
    customer_id: z.number().int(),
    type: z.enum(LOCATION_TYPES),
    name_en: z.string(),
    name_ar: z.string(),
    latitude: z.string().openapi({ description: "Decimal degrees, as a string.", example: "24.7136" }),
    longitude: z.string().openapi({ description: "Decimal degrees, as a string.", example: "46.6753" }),
    city_id: z.number().int().nullable(),
    city: CitySchema.nullable(),
    city_name_en: z.string().nullable(),
    city_name_ar: z.string().nullable(),
    district_id: z.number().int().nullable(),
    district: z.string().nullable().openapi({ description: "The district's English name.", example: "Al Olaya" }),
    district_ar: z.string().nullable().openapi({ example: "العليا" }),
    address1: z.string(),
    address2: z.string().nullable(),
    postal_code: z.string().nullable(),
    formatted_address: z.string().nullable(),
    place_id: z.string().nullable(),
    route: z.string().nullable(),
    street_number: z.string().nullable(),
    location_url: z.string().nullable(),
    image: z.string().nullable(),
    description: z.string().nullable(),
    ordering: z.number().int(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("CustomerLocation");

export type Location = z.infer<typeof LocationSchema>;

export const LocationListSchema = envelopeSchema(LocationSchema, "CustomerLocationList");

const httpsUrl = z
  .string()
  .url()
  .max(2048)
  .refine((u) => u.startsWith("https://"), "Must be an https URL.");
const text = humanText;

/** The fields of a location a client writes; Create requires the coordinates and the city. */
export const locationFields = {
  type: z.enum(LOCATION_TYPES),
  name_en: text(NAME_MAX),
  name_ar: text(NAME_MAX),
  latitude: z.number().min(-90).max(90).openapi({ example: 24.7136 }),
  longitude: z.number().min(-180).max(180).openapi({ example: 46.6753 }),
  city_id: z.number().int().min(1).openapi({ description: "A city of the geography lists.", example: 1 }),
  district_id: z
    .number()
    .int()
    .min(1)
    .nullable()
    .openapi({ description: "A district of the geography lists, in `city_id`." }),
  address1: text(500),
  address2: text(500).nullable(),
  postal_code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 -]{1,12}$/, "Must be a postal code: up to 12 letters or digits.")
    .nullable(),
  formatted_address: text(1000).nullable(),
  place_id: text(300).nullable(),
  route: text(200).nullable(),
  street_number: text(50).nullable(),
  location_url: httpsUrl.nullable().openapi({ example: "https://maps.google.com/?q=24.7136,46.6753" }),
  image: httpsUrl.nullable(),
  description: text(1000, "lines").nullable(),
  ordering,
};

export const CreateLocationSchema = z
  .object(locationFields)
  .partial({
    type: true,
    name_en: true,
    name_ar: true,
    district_id: true,
    address1: true,
    address2: true,
    postal_code: true,
    formatted_address: true,
    place_id: true,
    route: true,
    street_number: true,
    location_url: true,
    image: true,
    description: true,
    ordering: true,
  })
  .strict()
  .openapi("CreateCustomerLocation");

export type CreateLocation = z.infer<typeof CreateLocationSchema>;
