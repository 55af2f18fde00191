import { z } from "@hono/zod-openapi";
import {
  customFields,
  humanText,
  isoDate,
  nameText,
  nonEmpty,
  ordering,
  timeOfDay,
  weekdays,
} from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { audit, daysAhead, hexColor, image, int, json, latitude, longitude, optionalText, text } from "../schemas";
import { REST_TYPES } from "../tables";

// ---- responses (2.5, 2.6) ----

export const RestaurantSchema = z
  .object({
    id: int(),
    custom_fields: json,
    ...audit,
    name_en: z.string(),
    name_ar: z.string(),
    subtitle_en: text,
    subtitle_ar: text,
    description_en: text,
    description_ar: text,
    logo: z.string(),
    rest_type: z.enum(REST_TYPES),
    start_after: int().openapi({ description: "Days from today before the first date that can be ordered." }),
    store_start_after: int().nullable(),
    is_active: z.boolean(),
    primary_color: text,
    secondary_color: text,
    banner: text,
    closed_dates: z.string().openapi({
      description: "Comma-separated dates (YYYY-MM-DD) on which the restaurant is closed.",
      example: "2026-12-24,2026-12-25",
    }),
    supports_pickup: z.boolean(),
    supports_delivery: z.boolean(),
    delivery_by_platform: z.boolean(),
    off_days: z
      .string()
      .openapi({ description: "Comma-separated weekdays on which the restaurant is closed.", example: "friday" }),
    menu: int()
      .nullable()
      .openapi({ description: "Id of the on-demand menu (Restaurant Menu); null until one is set." }),
    main_branch_location: z
      .object({ address1: z.string(), lat: z.string(), lng: z.string() })
      .nullable()
      .openapi({ description: "The main branch's location; null when the restaurant has no main branch." }),
    category_id: int().nullable(),
    time_zone: z.string().openapi({
      description: "IANA zone in which its dates (today, off days, closed dates) are counted.",
      example: "Asia/Riyadh",
    }),
    cutoff_hours: int().openapi({
      description:
        "Subscribers change a delivery (meals, location, window, pause, cancel) until this many hours before its day.",
    }),
  })
  .openapi("Restaurant");
export type Restaurant = z.infer<typeof RestaurantSchema>;

const LocationSchema = z.object({ address1: z.string(), lat: z.string(), lng: z.string() }).openapi("BranchLocation");

export const BranchSchema = z
  .object({
    id: int(),
    ...audit,
    restaurant_id: int(),
    name_en: z.string(),
    name_ar: z.string(),
    city_id: int(),
    location: LocationSchema,
    is_main: z.boolean(),
    supports_pickup: z.boolean(),
    delivery_radius_km: z.number().nullable(),
  })
  .openapi("RestaurantBranch");

const DeliveryWindowSchema = z
  .object({ id: int(), from_time: z.string(), to_time: z.string() })
  .openapi("DeliveryWindow");

export const ChannelProviderSchema = z
  .object({
    id: int(),
    name_en: z.string(),
    name_ar: z.string(),
    subtitle_en: z.string(),
    subtitle_ar: z.string(),
    logo: z.string(),
    banner: z.string(),
    start_after: int(),
    store_start_after: int(),
    primary_color: z.string(),
    secondary_color: z.string(),
    closed_dates: z.array(z.string()),
    supports_pickup: z.boolean(),
    supports_delivery: z.boolean(),
    off_days: z.array(z.string()),
    is_available_for_user: z.boolean(),
    delivery_windows: z.array(DeliveryWindowSchema),
    pickup_branches: z.array(
      z.object({ id: int(), name_en: z.string(), name_ar: z.string(), location: LocationSchema }),
    ),
    debug: z
      .object({
        reason: z.string(),
        zone_id: int().nullable(),
        nearest_branch_id: int().nullable(),
        nearest_branch_km: z.number().nullable(),
      })
      .optional()
      .openapi({ description: "Only with `debug: true`: why `is_available_for_user` is what it is." }),
  })
  .openapi("ChannelProvider");
export type ChannelProvider = z.infer<typeof ChannelProviderSchema>;

export const RestaurantCategorySchema = z
  .object({ id: int(), ...audit, name_en: z.string(), name_ar: z.string(), image: z.string() })
  .openapi("RestaurantCategory");

export const RestaurantVariantSchema = z
  .object({ id: int(), ...audit, restaurant_id: int(), name_en: z.string(), name_ar: z.string() })
  .openapi("RestaurantVariant");

export const RestaurantListSchema = envelopeSchema(RestaurantSchema, "RestaurantList");
export const BranchListSchema = envelopeSchema(BranchSchema, "RestaurantBranchList");
export const RestaurantCategoryListSchema = envelopeSchema(RestaurantCategorySchema, "RestaurantCategoryList");
export const RestaurantVariantListSchema = envelopeSchema(RestaurantVariantSchema, "RestaurantVariantList");

// ---- List Channel Providers ----

const DECIMAL = /^-?\d{1,3}(\.\d{1,12})?$/;

/**
 * Latitude and longitude come as strings (as the spec types them) or numbers, and the document says
 * both (it said only strings, and refused the numbers the server takes).
 */
const coordinate = (name: "lat" | "lng", max: number) =>
  z
    .union([z.string().trim().regex(DECIMAL, "Must be a decimal number."), z.number()])
    .transform(Number)
    .refine((n) => Number.isFinite(n) && Math.abs(n) <= max, `Must be between -${max} and ${max}.`)
    .openapi({
      anyOf: [
        // Surrounding spaces are trimmed.
        { type: "string", pattern: `^\\s*${DECIMAL.source.slice(1, -1)}\\s*$` },
        { type: "number", minimum: -max, maximum: max },
      ],
      description: name === "lat" ? "Latitude, -90 to 90." : "Longitude, -180 to 180.",
      example: name === "lat" ? "24.7136" : "46.6753",
    });

export const ProvidersQuerySchema = z
  .object({
    lat: coordinate("lat", 90).optional(),
    lng: coordinate("lng", 180).optional(),
    city_id: int()
      .positive()
      .optional()
      .openapi({ description: "The user's city: narrows zones and pickup branches to it." }),
    debug: z
      .boolean()
      .optional()
      .openapi({ description: "Adds `debug` to each provider: why it is, or is not, available." }),
  })
  .strict()
  .refine((b) => (b.lat === undefined) === (b.lng === undefined), {
    message: "Give lat and lng together.",
    path: ["lat"],
  })
  .refine((b) => b.lat !== undefined || b.city_id !== undefined, {
    message: "Give the user's location (lat and lng), or city_id, or both.",
    path: ["body"],
  })
  .openapi("ListChannelProviders");

// ---- merchant writes ----

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const DeliveryZoneInput = z
  .object({
    city_id: int().positive(),
    name_en: humanText(200).optional(),
    polygon: z
      .array(z.tuple([latitude, longitude]).openapi({ items: { type: "number" }, minItems: 2, maxItems: 2 }))
      .min(3)
      .max(500)
      .openapi({ description: "The zone's vertices, [lat, lng] each, at least 3." }),
  })
  .strict();

const restaurantFields = {
  name_en: nameText,
  name_ar: nameText,
  subtitle_en: optionalText,
  subtitle_ar: optionalText,
  description_en: optionalText,
  description_ar: optionalText,
  logo: image,
  banner: image.nullable(),
  rest_type: z.enum(REST_TYPES),
  category_id: int().positive().nullable().openapi({ description: "A restaurant category of the store." }),
  start_after: daysAhead,
  store_start_after: daysAhead.nullable(),
  is_active: z.boolean(),
  primary_color: hexColor,
  secondary_color: hexColor,
  closed_dates: z
    .array(isoDate)
    .max(366)
    .refine((d) => new Set(d).size === d.length, "Dates must not repeat.")
    .openapi({ uniqueItems: true }),
  off_days: weekdays.refine((d) => d.length < 7, "At least one day must be open."),
  supports_pickup: z.boolean(),
  supports_delivery: z.boolean(),
  delivery_by_platform: z.boolean(),
  time_zone: z.string().max(64).refine(isTimeZone, "Must be an IANA time zone, such as Asia/Riyadh."),
  cutoff_hours: z.number().int().min(0).max(168).openapi({ description: "Hours before a delivery's day; default 24." }),
  menu_id: int().positive().nullable().openapi({ description: "The on-demand menu: one of this restaurant's menus." }),
  custom_fields: customFields,
  ordering,
  delivery_windows: z
    .array(
      z
        .object({
          from_time: timeOfDay,
          to_time: timeOfDay,
          type: z.enum(REST_TYPES).optional().openapi({ description: "The orders it serves; default `both`." }),
          is_default: z.boolean().optional(),
          tag: humanText(100).nullable().optional(),
          is_on_demand_opened: z.boolean().optional(),
        })
        .strict()
        .refine((w) => w.from_time < w.to_time, { message: "Must end after from_time.", path: ["to_time"] }),
    )
    .max(48)
    .openapi({ description: "Replaces the restaurant's delivery windows." }),
  delivery_zones: z
    .array(DeliveryZoneInput)
    .max(100)
    .openapi({ description: "Replaces the restaurant's delivery zones." }),
};

export const CreateRestaurantSchema = z
  .object(restaurantFields)
  .partial()
  .required({ name_en: true, name_ar: true, rest_type: true })
  .omit({ menu_id: true })
  .strict()
  .openapi("CreateRestaurant");
export const UpdateRestaurantSchema = nonEmpty(z.object(restaurantFields).partial().strict()).openapi(
  "UpdateRestaurant",
);

const branchFields = {
  name_en: nameText,
  name_ar: nameText,
  city_id: int().positive(),
  address1: humanText(500),
  lat: latitude,
  lng: longitude,
  is_main: z.boolean().openapi({ description: "At most one main branch: setting it clears the others'." }),
  supports_pickup: z.boolean(),
  delivery_radius_km: z
    .number()
    .gt(0)
    .max(200)
    .nullable()
    .openapi({ description: "Delivers within this distance of the branch; null for none." }),
  ordering,
};
export const CreateBranchSchema = z
  .object(branchFields)
  .partial()
  .required({ name_en: true, name_ar: true, city_id: true, lat: true, lng: true })
  .strict()
  .openapi("CreateRestaurantBranch");
export const UpdateBranchSchema = nonEmpty(z.object(branchFields).partial().strict()).openapi("UpdateRestaurantBranch");

const restaurantCategoryFields = { name_en: nameText, name_ar: nameText, image, ordering };
export const CreateRestaurantCategorySchema = z
  .object(restaurantCategoryFields)
  .partial({ image: true, ordering: true })
  .strict()
  .openapi("CreateRestaurantCategory");
export const UpdateRestaurantCategorySchema = nonEmpty(z.object(restaurantCategoryFields).partial().strict()).openapi(
  "UpdateRestaurantCategory",
);

const restaurantVariantFields = {
  name_en: nameText.openapi({ description: "Products name the variant by this in `variant`." }),
  name_ar: nameText,
  ordering,
};
export const CreateRestaurantVariantSchema = z
  .object(restaurantVariantFields)
  .partial({ ordering: true })
  .strict()
  .openapi("CreateRestaurantVariant");
export const UpdateRestaurantVariantSchema = nonEmpty(z.object(restaurantVariantFields).partial().strict()).openapi(
  "UpdateRestaurantVariant",
);
