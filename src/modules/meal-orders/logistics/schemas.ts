import { z } from "@hono/zod-openapi";
import type { ErrorCode } from "../../../core/errors";
import { humanText, isoDate, nameText, nonEmpty, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { CitySchema } from "../../customers";
import { BranchSchema, WINDOW_TYPES } from "../../meals";
import { SUBORDER_STATUSES } from "../tables";

/** Meals logistics (design-reference 12): cities and zones, captains, branches, windows, bulk suborders, the day. */

const id = () => z.number().int();
const refId = (description: string) => z.number().int().min(1).openapi({ description });

const audit = {
  app_id: id(),
  created_at: z.string().openapi({ format: "date-time" }),
  modified_at: z.string().openapi({ format: "date-time" }),
  deleted_at: z.string().nullable(),
  is_deleted: z.boolean(),
  ordering: id(),
};

// ---- ML1 Logistics City ----

export const LogisticsZoneSchema = z
  .object({
    id: id(),
    name_en: z.string(),
    restaurant_id: id(),
    polygon: z
      .array(z.tuple([z.number(), z.number()]).openapi({ items: { type: "number" }, minItems: 2, maxItems: 2 }))
      .openapi({ description: "The zone's vertices, [lat, lng] each." }),
  })
  .openapi("LogisticsZone");

export const LogisticsCitySchema = CitySchema.extend({
  zones: z.array(LogisticsZoneSchema).openapi({ description: "The store's delivery zones in the city." }),
}).openapi("LogisticsCity");
export type LogisticsCity = z.infer<typeof LogisticsCitySchema>;
export const LogisticsCityListSchema = envelopeSchema(LogisticsCitySchema, "LogisticsCityList");

// ---- ML2 / ML5 Captain ----

export const CaptainSchema = z
  .object({
    id: id(),
    ...audit,
    name: z.string(),
    country_code: z.string().openapi({ description: "Calling code, digits only.", example: "966" }),
    mobile_number: z.string().openapi({ description: "E.164 digits without +.", example: "966534501056" }),
    city_id: id(),
    branch_id: id().nullable().openapi({ description: "The restaurant branch the captain picks up at." }),
    is_active: z.boolean(),
    vehicle: z.string().nullable().openapi({ example: "Motorcycle, plate 1234 ABC" }),
  })
  .openapi("Captain");
export type Captain = z.infer<typeof CaptainSchema>;
export const CaptainListSchema = envelopeSchema(CaptainSchema, "CaptainList");

const countryCode = z
  .string()
  .regex(/^\+?\d{1,4}$/, 'Must be a calling code, digits only ("966").')
  .openapi({ description: "The calling code of the mobile number's country; default 966.", example: "966" });

const phoneText = z
  .string()
  .trim()
  .min(4, "Must be a phone number.")
  .max(24)
  .regex(/^[\d\s+().-]+$/, "Must be a phone number: digits, optionally with + and spaces.")
  .openapi({ description: 'A mobile number of that country in any form ("0534501056").', example: "0534501056" });

const captainFields = {
  name: nameText,
  country_code: countryCode,
  mobile_number: phoneText,
  city_id: refId("A city of the geography lists."),
  branch_id: refId("A branch of one of the store's restaurants.").nullable(),
  is_active: z.boolean(),
  vehicle: humanText(200).nullable(),
  ordering,
};

export const CreateCaptainSchema = z
  .object(captainFields)
  .partial({ country_code: true, branch_id: true, is_active: true, vehicle: true, ordering: true })
  .strict()
  .openapi("CreateCaptain");
export type CreateCaptain = z.infer<typeof CreateCaptainSchema>;

export const UpdateCaptainSchema = nonEmpty(z.object(captainFields).partial().strict()).openapi("UpdateCaptain");
export type UpdateCaptain = z.infer<typeof UpdateCaptainSchema>;

// ---- ML3 Branch ----

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

const BranchLocationInput = z
  .object({ lat: latitude, lng: longitude, address1: humanText(500).optional() })
  .strict()
  .openapi("LogisticsBranchLocationInput", { description: "Where the branch is: the `location` the branch shows." });

const branchFields = {
  name_en: nameText,
  name_ar: nameText,
  city_id: refId("A city of the geography lists."),
  location: BranchLocationInput,
  supports_pickup: z.boolean(),
  is_main: z.boolean().openapi({ description: "At most one main branch a restaurant: setting it clears the others'." }),
  delivery_radius_km: z
    .number()
    .gt(0)
    .max(200)
    .nullable()
    .openapi({ description: "Delivers within this distance of the branch; null for none." }),
  ordering,
};

export const CreateLogisticsBranchSchema = z
  .object({ restaurant_id: refId("One of the store's restaurants."), ...branchFields })
  .partial({ supports_pickup: true, is_main: true, delivery_radius_km: true, ordering: true })
  .strict()
  .openapi("CreateLogisticsBranch");
export type CreateLogisticsBranch = z.infer<typeof CreateLogisticsBranchSchema>;

export const UpdateLogisticsBranchSchema = nonEmpty(z.object(branchFields).partial().strict()).openapi(
  "UpdateLogisticsBranch",
);
export type UpdateLogisticsBranch = z.infer<typeof UpdateLogisticsBranchSchema>;

export { BranchSchema };
export const LogisticsBranchListSchema = envelopeSchema(BranchSchema, "LogisticsBranchList");

// ---- ML4 Supported Windows ----

export const SupportedWindowSchema = z
  .object({
    id: id(),
    app_id: id(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
    ordering: id(),
    restaurant_id: id(),
    type: z.enum(WINDOW_TYPES).openapi({ description: "The orders it serves." }),
    from_time: z.string().openapi({ example: "06:00:00" }),
    to_time: z.string().openapi({ example: "09:00:00" }),
    is_default: z.boolean(),
    tag: z.string().nullable(),
    is_on_demand_opened: z.boolean(),
  })
  .openapi("SupportedDeliveryWindow");
export const SupportedWindowListSchema = envelopeSchema(SupportedWindowSchema, "SupportedDeliveryWindowList");

/** Latitude and longitude as query strings: a decimal number within bounds. */
const coordinate = (name: string, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d{1,15})?$/, "Must be a decimal number.")
    .transform(Number)
    .refine((n) => Math.abs(n) <= max, `Must be between -${max} and ${max}.`)
    .openapi({ type: "string", description: `${name}, -${max} to ${max}.`, example: max === 90 ? "24.7" : "46.7" });

export const SupportedWindowsQuery = {
  lat: coordinate("Latitude", 90),
  lng: coordinate("Longitude", 180),
  city_id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, "Must be a city id.")
    .transform(Number)
    .optional()
    .openapi({ type: "integer", description: "Only zones in this city." }),
  type: z.enum(WINDOW_TYPES).optional().openapi({
    description: "Windows serving these orders: their own type or `both` (`both`: those serving every kind).",
  }),
};

// ---- ML6 Bulk Update Suborders ----

export const BULK_MAX = 100;

export const BulkUpdateSubordersSchema = z
  .object({
    suborder_ids: z
      .array(z.number().int().positive())
      .min(1)
      .max(BULK_MAX)
      .refine((a) => new Set(a).size === a.length, "Ids must not repeat.")
      .openapi({ uniqueItems: true }),
    status: z.enum(SUBORDER_STATUSES).optional().openapi({ description: "The status to move each suborder to." }),
    captain_id: z
      .number()
      .int()
      .positive()
      .nullable()
      .optional()
      .openapi({ description: "An active captain of the store; null takes the captain off." }),
    delivery_window_id: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: "A window of each suborder's restaurant serving subscriptions." }),
    note: humanText(1000, "lines").nullable().optional().openapi({ description: "Operations' note; null clears it." }),
  })
  .strict()
  .refine((b) => ["status", "captain_id", "delivery_window_id", "note"].some((k) => k in b), {
    message: "Give at least one change: status, captain_id, delivery_window_id or note.",
    path: ["suborder_ids"],
  })
  .openapi("BulkUpdateSuborders");
export type BulkUpdateSuborders = z.infer<typeof BulkUpdateSubordersSchema>;

/** The codes of one id's refusal in a bulk result (each means what the error catalogue says). */
export const BULK_SUBORDER_CODES = [
  "suborder_not_found",
  "invalid_state_transition",
  "meal_subscription_not_active",
  "suborder_frozen",
  "suborder_is_pickup",
  "suborder_not_changeable",
  "delivery_window_not_of_restaurant",
  "concurrent_update",
] as const satisfies readonly ErrorCode[];
export type BulkSuborderCode = (typeof BULK_SUBORDER_CODES)[number];

export const BulkSuborderResultSchema = z
  .object({
    results: z.array(
      z.object({
        id: id(),
        success: z.boolean(),
        error: z
          .object({
            code: z.enum(BULK_SUBORDER_CODES),
            detail: z.string(),
            current_status: z.enum(SUBORDER_STATUSES).optional(),
            allowed_actions: z.array(z.enum(SUBORDER_STATUSES)).optional(),
          })
          .nullable(),
      }),
    ),
    succeeded_count: id(),
    failed_count: id(),
  })
  .openapi("BulkSuborderResult");
export type BulkSuborderResult = z.infer<typeof BulkSuborderResultSchema>;

// ---- The kitchen's day ----

export const KitchenDayQuery = {
  date: isoDate.openapi({ param: { in: "query" }, type: "string", format: "date", description: "The delivery date." }),
  branch_id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, "Must be a branch id.")
    .transform(Number)
    .openapi({ type: "integer", description: "The kitchen: a branch of one of the store's restaurants." }),
};

const named = { name_en: z.string(), name_ar: z.string() };

const KitchenSuborderSchema = z
  .object({
    id: id(),
    subscription_id: id(),
    status: z.enum(SUBORDER_STATUSES),
    is_pickup: z.boolean(),
    customer: z
      .object({ id: id(), name: z.string().nullable(), mobile_number: z.string(), lang: z.string() })
      .nullable(),
    location: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The delivery address, as chosen." }),
    captain: z.object({ id: id(), name: z.string(), mobile_number: z.string() }).nullable(),
    meals: z.array(
      z.object({
        plan_category_id: id(),
        ...named,
        options: z.array(z.object({ id: id(), product_id: id().nullable(), ...named })),
      }),
    ),
    add_ons: z.array(z.object({ product_id: id(), ...named, qty: id() })),
    notes: z.string().nullable(),
    operation_note: z.string().nullable(),
  })
  .openapi("KitchenSuborder");

export const KitchenDaySchema = z
  .object({
    date: z.string().openapi({ format: "date" }),
    branch: BranchSchema,
    suborders_count: id(),
    groups: z.array(
      z.object({
        is_pickup: z.boolean(),
        delivery_window: z.union([SupportedWindowSchema, z.null()]).openapi({
          description: "The window of the group's deliveries; null for pickup, and for deliveries without one.",
        }),
        suborders: z.array(KitchenSuborderSchema),
      }),
    ),
    totals: z
      .array(z.object({ product_id: id(), ...named, qty: id() }))
      .openapi({ description: "What to cook: each product's count over the day's meals and add-ons, most first." }),
  })
  .openapi("KitchenDay");
export type KitchenDay = z.infer<typeof KitchenDaySchema>;
