import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../../db/columns";

/**
 * Logistics (design-reference 12): the store's captains, who take suborders out on delivery. A
 * captain works in a city, from a branch of one of the store's restaurants (the kitchen they pick
 * up at); suborders name the captain assigned to them (`suborders.captain_id`).
 */
export const captains = sqliteTable(
  "captains",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    name: text("name").notNull(),
    /** Calling code, digits only ("966"). */
    countryCode: text("country_code").notNull(),
    /** E.164 digits without "+" ("966534501056"), as customers' numbers are kept. */
    mobileNumber: text("mobile_number").notNull(),
    cityId: integer("city_id").notNull(),
    /** The restaurant branch the captain picks up at; null when not tied to one. */
    branchId: integer("branch_id"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    /** What the captain drives, as the merchant writes it ("Motorcycle, plate 1234 ABC"). */
    vehicle: text("vehicle"),
  },
  (t) => [
    index("captains_app_idx").on(t.appId, t.isDeleted, t.cityId),
    // One live captain per mobile number in a store: the dispatcher calls them by it.
    uniqueIndex("captains_app_mobile_live_uq").on(t.appId, t.mobileNumber).where(sql`${t.isDeleted} = 0`),
  ],
);
