import { z } from "@hono/zod-openapi";
import { customFields, hundredths, MONEY_MAX, nameText, nonEmpty } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { geoId, ids, kilograms, latitude, longitude, PackageInputSchema, PackageSchema } from "../fields";
import { COURIER_TYPES } from "../tables";

const ServiceSchema = z
  .object({
    code: z.string().regex(/^[a-z0-9_]{1,40}$/, "Lower-case letters, digits and _, at most 40."),
    name_en: nameText,
    name_ar: nameText,
    cod_supported: z.boolean(),
  })
  .strict()
  .openapi("CourierService");

const PriceRuleSchema = z
  .object({
    city_id: z.number().int().nullable().openapi({ description: "The city; null: any covered city." }),
    weight_from: z.number().openapi({ description: "Kilograms, inclusive." }),
    weight_to: z.number().openapi({ description: "Kilograms, exclusive." }),
    price: z.number().openapi({ description: "Major units." }),
  })
  .openapi("CourierPriceRule");

export const CourierSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(COURIER_TYPES),
    code: z.string().nullable().openapi({ description: "The carrier's code (integrated couriers)." }),
    name_en: z.string(),
    name_ar: z.string(),
    logo: z.string().nullable(),
    is_active: z.boolean(),
    cod_supported: z.boolean(),
    services: z.array(ServiceSchema),
    coverage: z.object({ cities: z.array(z.number().int()), districts: z.array(z.number().int()) }),
    price_rules: z.array(PriceRuleSchema),
    estimated_days_min: z.number().int().nullable(),
    estimated_days_max: z.number().int().nullable(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("Courier");
export type Courier = z.infer<typeof CourierSchema>;
export const CourierListSchema = envelopeSchema(CourierSchema, "CourierList");

const PriceRuleInputSchema = z
  .object({
    city_id: geoId.nullable().default(null),
    weight_from: kilograms(1000, "Kilograms, inclusive."),
    weight_to: kilograms(1000, "Kilograms, exclusive."),
    price: hundredths({ min: 0, max: MONEY_MAX, description: "Major units, at most 2 decimals." }),
  })
  .strict()
  .refine((r) => r.weight_from < r.weight_to, { message: "weight_from must be below weight_to.", path: ["weight_to"] })
  .openapi("CourierPriceRuleInput");
export type PriceRuleInput = z.infer<typeof PriceRuleInputSchema>;

const days = z.number().int().min(0).max(60);

const courierFields = {
  name_en: nameText,
  name_ar: nameText,
  logo: z.string().url().max(2048).nullable(),
  is_active: z.boolean(),
  cod_supported: z.boolean(),
  services: z
    .array(ServiceSchema)
    .min(1)
    .max(10)
    .refine((s) => new Set(s.map((x) => x.code)).size === s.length, "Service codes must not repeat."),
  coverage: z.object({ cities: ids(500), districts: ids(2000).default([]) }).strict(),
  price_rules: z.array(PriceRuleInputSchema).max(200),
  estimated_days_min: days,
  estimated_days_max: days,
  custom_fields: customFields,
};

const daysInOrder = (b: { estimated_days_min?: number; estimated_days_max?: number }) =>
  b.estimated_days_min === undefined ||
  b.estimated_days_max === undefined ||
  b.estimated_days_min <= b.estimated_days_max;
const DAYS_ORDER = { message: "estimated_days_min must not exceed estimated_days_max.", path: ["estimated_days_max"] };

export const CreateCourierSchema = z
  .object({
    ...courierFields,
    logo: courierFields.logo.optional(),
    is_active: courierFields.is_active.optional(),
    cod_supported: courierFields.cod_supported.optional(),
    services: courierFields.services.optional(),
    price_rules: courierFields.price_rules.default([]),
    estimated_days_min: days.optional(),
    estimated_days_max: days.optional(),
    custom_fields: customFields.optional(),
  })
  .strict()
  .refine(daysInOrder, DAYS_ORDER)
  .openapi("CreateCustomCourier");
export type CreateCourier = z.infer<typeof CreateCourierSchema>;

export const UpdateCourierSchema = nonEmpty(z.object(courierFields).partial().strict())
  .refine(daysInOrder, DAYS_ORDER)
  .openapi("UpdateCustomCourier");
export type UpdateCourier = z.infer<typeof UpdateCourierSchema>;

/** C2: the destination and cart a checkout is about to ship. */
export const ActiveCouriersSchema = z
  .object({
    city_id: geoId,
    district_id: geoId.optional(),
    lat: latitude.optional(),
    lng: longitude.optional(),
    weight: kilograms(1000, "The cart's weight in kilograms; absent: the config's package default.").optional(),
    cod_amount: hundredths({ min: 0, max: MONEY_MAX, description: "Cash to collect; 0 or absent: none." }).optional(),
  })
  .strict()
  .openapi("GetActiveCouriers");
export type ActiveCouriersInput = z.infer<typeof ActiveCouriersSchema>;

const Reason = z
  .object({ courier_id: z.number().int(), name_en: z.string(), reason: z.string() })
  .openapi("CourierUnavailableReason");

export const ActiveCouriersResultSchema = z
  .object({
    results: z.array(CourierSchema),
    unavailable: z
      .array(Reason)
      .openapi({ description: "The store's other couriers, each with why it is not offered." }),
  })
  .openapi("ActiveCouriers");

/** C3: an origin, a destination and packages. */
export const CourierPricesSchema = z
  .object({
    origin: z
      .object({ city_id: geoId.optional(), pickup_location_id: geoId.optional() })
      .strict()
      .refine((o) => (o.city_id === undefined) !== (o.pickup_location_id === undefined), {
        message: "Give city_id or pickup_location_id, one of them.",
      }),
    destination: z
      .object({ city_id: geoId, district_id: geoId.optional(), lat: latitude.optional(), lng: longitude.optional() })
      .strict(),
    packages: z.array(PackageInputSchema).min(1).max(50),
    cod_amount: hundredths({ min: 0, max: MONEY_MAX, description: "Cash to collect; 0 or absent: none." }).optional(),
    courier_ids: ids(50).optional().openapi({ description: "Only these couriers; absent: every enabled one." }),
  })
  .strict()
  .openapi("GetCouriersPrices");
export type CourierPricesInput = z.infer<typeof CourierPricesSchema>;

export const CourierPriceSchema = z
  .object({
    courier_id: z.number().int(),
    service: z.string(),
    price: z.number(),
    currency: z.string(),
    estimated_days: z.number().int().nullable(),
  })
  .openapi("CourierPrice");

export const CourierPricesResultSchema = z
  .object({
    results: z.array(CourierPriceSchema),
    unavailable: z.array(Reason).openapi({ description: "Each courier without a price, and why." }),
    packages: z.array(PackageSchema),
    total_weight: z.number().openapi({ description: "Kilograms." }),
  })
  .openapi("CouriersPrices");
