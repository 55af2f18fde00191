import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";
import { cities, districts } from "../customers/tables";
import { orders } from "../orders/tables";

/*
 * The shipping module's tables: couriers (custom ones the merchant keeps, integrated ones mirrored
 * from their adapters), pickup locations, the store's shipping config, and shipments with their
 * fulfillments and status history (design reference 8). Weights are grams, money minor units.
 */

export const COURIER_TYPES = ["integrated", "custom"] as const;
export type CourierType = (typeof COURIER_TYPES)[number];

/** One service a courier offers (`standard`, `express` …). */
export type CourierService = { code: string; name_en: string; name_ar: string; cod_supported: boolean };

/** A price rule of a custom courier: a city (null: every covered city) and a weight band [from, to). */
export type PriceRule = { city_id: number | null; weight_from_g: number; weight_to_g: number; price_minor: number };

export const couriers = sqliteTable(
  "couriers",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    type: text("type", { enum: COURIER_TYPES }).notNull(),
    /** The adapter's code for an integrated courier (`fake`, `aramex`); null for a custom one. */
    code: text("code"),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    logo: text("logo"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    codSupported: integer("cod_supported", { mode: "boolean" }).notNull().default(false),
    services: text("services", { mode: "json" }).$type<CourierService[]>().notNull().default([]),
    /** Covered cities and districts (geography ids); an empty city list covers no city. */
    coverageCities: text("coverage_cities", { mode: "json" }).$type<number[]>().notNull().default([]),
    coverageDistricts: text("coverage_districts", { mode: "json" }).$type<number[]>().notNull().default([]),
    priceRules: text("price_rules", { mode: "json" }).$type<PriceRule[]>().notNull().default([]),
    estimatedDaysMin: integer("estimated_days_min"),
    estimatedDaysMax: integer("estimated_days_max"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("couriers_app_idx").on(t.appId, t.isDeleted, t.id),
    // One mirror row per integrated adapter and store.
    uniqueIndex("couriers_app_code_uq").on(t.appId, t.code).where(sql`code IS NOT NULL`),
  ],
);

export const WEEKDAY_HOURS_MAX = 14;
export type WorkingHours = { day: string; open: string; close: string };

export const pickupLocations = sqliteTable(
  "pickup_locations",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    address1: text("address1").notNull(),
    lat: real("lat").notNull(),
    lng: real("lng").notNull(),
    cityId: integer("city_id")
      .notNull()
      .references(() => cities.id),
    districtId: integer("district_id").references(() => districts.id),
    phone: text("phone"),
    workingHours: text("working_hours", { mode: "json" }).$type<WorkingHours[]>().notNull().default([]),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("pickup_locations_app_idx").on(t.appId, t.isDeleted, t.id),
    // At most one default per store.
    uniqueIndex("pickup_locations_default_uq").on(t.appId).where(sql`is_default = 1 AND is_deleted = 0`),
  ],
);

/** Package dimensions: grams and centimetres. */
export type PackageDims = { weight_g: number; length_cm: number; width_cm: number; height_cm: number };

/** The store's shipping config (MH1): one row per store, created on first write. */
export const shippingConfigs = sqliteTable("shipping_configs", {
  appId: integer("app_id").primaryKey(),
  defaultPickupLocationId: integer("default_pickup_location_id").references(() => pickupLocations.id),
  packageDefaults: text("package_defaults", { mode: "json" }).$type<PackageDims>(),
  /** The couriers offered at checkout; null: every active courier. */
  enabledCourierIds: text("enabled_courier_ids", { mode: "json" }).$type<number[]>(),
  modifiedAt: text("modified_at").notNull(),
});

/** Carrier-normalised statuses (design reference 8, after AfterShip's delivery statuses). */
export const SHIPMENT_STATUSES = [
  "created",
  "label_purchased",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failed_attempt",
  "exception",
  "returned_to_sender",
  "cancelled",
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const SHIPMENT_DIRECTIONS = ["forward", "return"] as const;
/** A return shipment's request status (Medusa's return statuses); null on a forward shipment. */
export const RETURN_STATUSES = ["requested", "received", "canceled"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** A place as a shipment keeps it: a snapshot, the source may change later. */
export type PlaceSnapshot = {
  pickup_location_id?: number | null;
  location_id?: number | null;
  name: string | null;
  address1: string | null;
  city_id: number | null;
  district_id: number | null;
  lat: number | null;
  lng: number | null;
  phone: string | null;
};

export const shipments = sqliteTable(
  "shipments",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    courierId: integer("courier_id")
      .notNull()
      .references(() => couriers.id),
    service: text("service").notNull(),
    direction: text("direction", { enum: SHIPMENT_DIRECTIONS }).notNull().default("forward"),
    /** A return shipment's forward shipment. */
    returnOfId: integer("return_of_id").references((): AnySQLiteColumn => shipments.id),
    returnStatus: text("return_status", { enum: RETURN_STATUSES }),
    originPickupLocationId: integer("origin_pickup_location_id").references(() => pickupLocations.id),
    origin: text("origin", { mode: "json" }).$type<PlaceSnapshot>().notNull(),
    destination: text("destination", { mode: "json" }).$type<PlaceSnapshot>().notNull(),
    packages: text("packages", { mode: "json" }).$type<PackageDims[]>().notNull(),
    weightG: integer("weight_g").notNull(),
    codAmountMinor: integer("cod_amount_minor").notNull().default(0),
    costMinor: integer("cost_minor").notNull().default(0),
    currency: text("currency").notNull(),
    /** The carrier's own id of the shipment (an integrated carrier's), for its webhooks. */
    carrierReference: text("carrier_reference"),
    trackingNumber: text("tracking_number"),
    trackingUrl: text("tracking_url"),
    /** Set by a purchased label (labels/). */
    labelUrl: text("label_url"),
    status: text("status", { enum: SHIPMENT_STATUSES }).notNull().default("created"),
    notes: text("notes"),
    deliveredAt: text("delivered_at"),
    cancelledAt: text("cancelled_at"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("shipments_app_idx").on(t.appId, t.isDeleted, t.id),
    index("shipments_order_idx").on(t.appId, t.orderId),
    index("shipments_return_of_idx").on(t.returnOfId),
    // A carrier's webhook names its own reference, not our store: found across stores.
    index("shipments_carrier_ref_idx").on(t.carrierReference),
  ],
);

/** The fulfillments a shipment carries (and for a return, the order lines it brings back). */
export const shipmentFulfillments = sqliteTable(
  "shipment_fulfillments",
  {
    shipmentId: integer("shipment_id")
      .notNull()
      .references(() => shipments.id),
    appId: integer("app_id").notNull(),
    fulfillmentId: integer("fulfillment_id").notNull(),
    orderItemId: integer("order_item_id"),
    qty: integer("qty").notNull().default(1),
  },
  (t) => [
    uniqueIndex("shipment_fulfillments_uq").on(t.shipmentId, t.fulfillmentId),
    index("shipment_fulfillments_fulfillment_idx").on(t.appId, t.fulfillmentId),
  ],
);

export const STATUS_SOURCES = ["merchant", "carrier", "system"] as const;

/** Every status a shipment took, in order (`status_history`). */
export const shipmentStatusHistory = sqliteTable(
  "shipment_status_history",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    shipmentId: integer("shipment_id")
      .notNull()
      .references(() => shipments.id),
    status: text("status", { enum: SHIPMENT_STATUSES }).notNull(),
    at: text("at").notNull(),
    note: text("note"),
    source: text("source", { enum: STATUS_SOURCES }).notNull(),
    /** The carrier's own status word, when the carrier sent it. */
    carrierStatus: text("carrier_status"),
  },
  (t) => [index("shipment_status_history_idx").on(t.shipmentId, t.id)],
);
