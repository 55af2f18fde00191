import { z } from "@hono/zod-openapi";
import { customFields, humanText, nameText, nonEmpty, ordering, WEEKDAYS } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { geoId, latitude, longitude } from "../fields";

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Must be a time, HH:MM.");

const WorkingHoursSchema = z
  .object({ day: z.enum(WEEKDAYS), open: hhmm, close: hhmm })
  .strict()
  .refine((w) => w.open < w.close, { message: "open must be before close.", path: ["close"] })
  .openapi("WorkingHours");

export const PickupLocationSchema = z
  .object({
    id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    location: z.object({ address1: z.string(), lat: z.number(), lng: z.number() }),
    city_id: z.number().int(),
    district_id: z.number().int().nullable(),
    phone: z.string().nullable(),
    working_hours: z.array(WorkingHoursSchema),
    is_active: z.boolean(),
    is_default: z.boolean(),
    ordering: z.number().int(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("PickupLocation");
export type PickupLocation = z.infer<typeof PickupLocationSchema>;
export const PickupLocationListSchema = envelopeSchema(PickupLocationSchema, "PickupLocationList");

const fields = {
  name_en: nameText,
  name_ar: nameText,
  location: z.object({ address1: humanText(500).min(1), lat: latitude, lng: longitude }).strict(),
  city_id: geoId,
  district_id: geoId.nullable(),
  phone: z
    .string()
    .regex(/^\+?[0-9]{6,15}$/, "Digits, optionally after +, 6 to 15.")
    .nullable(),
  working_hours: z.array(WorkingHoursSchema).max(14),
  is_active: z.boolean(),
  is_default: z.boolean(),
  ordering,
  custom_fields: customFields,
};

export const CreatePickupLocationSchema = z
  .object(fields)
  .partial({
    district_id: true,
    phone: true,
    working_hours: true,
    is_active: true,
    is_default: true,
    ordering: true,
    custom_fields: true,
  })
  .strict()
  .openapi("CreatePickupLocation");
export type CreatePickupLocation = z.infer<typeof CreatePickupLocationSchema>;

export const UpdatePickupLocationSchema = nonEmpty(z.object(fields).partial().strict()).openapi("UpdatePickupLocation");
export type UpdatePickupLocation = z.infer<typeof UpdatePickupLocationSchema>;
