import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../../core/listing";

/** Geography (design reference 9): reference data shared by every store, read-only through the API. */

const id = (description?: string) =>
  z
    .number()
    .int()
    .openapi(description ? { description } : {});
const names = {
  name_en: z.string().openapi({ example: "Riyadh" }),
  name_ar: z.string().openapi({ example: "الرياض" }),
};
const ordering = z.number().int().openapi({ description: "Position in lists; lists sort on it by default." });

export const CountrySchema = z
  .object({
    id: id(),
    code: z.string().openapi({ description: "ISO 3166-1 alpha-2.", example: "SA" }),
    ...names,
    phone_code: z.string().openapi({
      description: "International calling code, digits only (a customer's `country_code`).",
      example: "966",
    }),
    ordering,
  })
  .openapi("Country");
export type Country = z.infer<typeof CountrySchema>;

export const RegionSchema = z
  .object({
    id: id(),
    country_id: id("The country the region belongs to."),
    code: z.string().openapi({ description: "ISO 3166-2.", example: "SA-01" }),
    ...names,
    ordering,
  })
  .openapi("Region");
export type Region = z.infer<typeof RegionSchema>;

export const CitySchema = z
  .object({
    id: id(),
    region_id: id("The region the city belongs to."),
    country_code: z.string().openapi({ description: "ISO 3166-1 alpha-2 of the city's country.", example: "SA" }),
    ...names,
    keywords: z.string().openapi({
      description: "Other spellings a search finds the city by, space-separated.",
      example: "Riyad Ar Riyadh رياض",
    }),
    lat: z.number().openapi({ description: "Latitude of the city centre.", example: 24.7136 }),
    lng: z.number().openapi({ description: "Longitude of the city centre.", example: 46.6753 }),
    ordering,
    is_supported: z.boolean().openapi({ description: "Whether the store in `app-id` serves the city." }),
  })
  .openapi("City");
export type City = z.infer<typeof CitySchema>;

export const DistrictSchema = z
  .object({ id: id(), city_id: id("The city the district belongs to."), ...names, ordering })
  .openapi("District");
export type District = z.infer<typeof DistrictSchema>;

export const CountryListSchema = envelopeSchema(CountrySchema, "CountryList");
export const RegionListSchema = envelopeSchema(RegionSchema, "RegionList");
export const CityListSchema = envelopeSchema(CitySchema, "CityList");
export const DistrictListSchema = envelopeSchema(DistrictSchema, "DistrictList");
