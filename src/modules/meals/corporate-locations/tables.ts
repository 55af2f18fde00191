import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../../db/columns";

type Json = Record<string, unknown>;

/** An office or compound a store delivers to as a group: customers pick it instead of their own address. */
export const corporateLocations = sqliteTable(
  "corporate_locations",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    companyName: text("company_name"),
    cityId: integer("city_id").notNull(),
    district: text("district"),
    address: text("address").notNull().default(""),
    lat: real("lat").notNull(),
    lng: real("lng").notNull(),
    /** Delivery windows (of the store's restaurants) in which meals reach this location. */
    deliveryWindowIds: text("delivery_window_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    instructions: text("instructions"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [index("corporate_locations_app_idx").on(t.appId, t.isDeleted, t.cityId)],
);
