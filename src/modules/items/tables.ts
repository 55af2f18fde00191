import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";

export const ITEM_TYPES = ["product", "service", "ticket", "subscription", "bundle", "digital"] as const;
export const SERVICE_TYPES = ["delivery", "pickup", "delivery_and_pickup", "on_site", "online"] as const;

/** An item; a variant is an item whose `parent_id` is the item it varies. */
export const items = sqliteTable(
  "items",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    parentId: integer("parent_id"),
    type: text("type", { enum: ITEM_TYPES }).notNull(),
    serviceType: text("service_type", { enum: SERVICE_TYPES }).notNull(),
    sku: text("sku").notNull(),
    priceMinor: integer("price_minor").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    descriptionEn: text("description_en").notNull().default(""),
    descriptionAr: text("description_ar").notNull().default(""),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
    isPlanOnly: integer("is_plan_only", { mode: "boolean" }).notNull().default(false),
    isPlanEnabled: integer("is_plan_enabled", { mode: "boolean" }).notNull().default(false),
    planConfig: text("plan_config", { mode: "json" }).$type<Record<string, unknown>>(),
    offDays: text("off_days", { mode: "json" }).$type<string[]>().notNull().default([]),
    offDates: text("off_dates", { mode: "json" }).$type<string[]>().notNull().default([]),
    // Always set: an item served without limits spans 0001-01-01..9999-12-31, 00:00:00..23:59:59.
    servedFromDate: text("served_from_date").notNull().default("0001-01-01"),
    servedToDate: text("served_to_date").notNull().default("9999-12-31"),
    servedFromTime: text("served_from_time").notNull().default("00:00:00"),
    servedToTime: text("served_to_time").notNull().default("23:59:59"),
    weight: real("weight").notNull().default(0),
    stockQty: integer("stock_qty").notNull().default(0),
    /** The modifier category the variants vary on. */
    variesOnId: integer("varies_on_id"),
    variantTitleEn: text("variant_title_en"),
    variantTitleAr: text("variant_title_ar"),
  },
  (t) => [
    index("items_app_idx").on(t.appId, t.isDeleted, t.parentId),
    index("items_parent_idx").on(t.parentId),
    // Incremental sync: `modified_at__gte` and `order_by=modified_at`, deleted rows too (`include_deleted`).
    index("items_app_modified_idx").on(t.appId, t.modifiedAt, t.id),
    // A type's live parent items by price (List Items' `type` filter ordered by `price` either way).
    index("items_app_type_price_idx").on(t.appId, t.isDeleted, t.parentId, t.type, t.priceMinor),
    uniqueIndex("items_app_sku_uq").on(t.appId, t.sku),
  ],
);

export const modifierCategories = sqliteTable(
  "modifier_categories",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
  },
  (t) => [index("modifier_categories_app_idx").on(t.appId)],
);

export const modifierValues = sqliteTable(
  "modifier_values",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    categoryId: integer("category_id")
      .notNull()
      .references(() => modifierCategories.id),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
  },
  (t) => [index("modifier_values_category_idx").on(t.categoryId)],
);

/** The modifier categories an item offers. */
export const itemModifierCategories = sqliteTable(
  "item_modifier_categories",
  {
    appId: integer("app_id").notNull(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    categoryId: integer("category_id")
      .notNull()
      .references(() => modifierCategories.id),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.categoryId] }),
    index("item_modifier_categories_category_idx").on(t.categoryId),
  ],
);

/** The modifier values that define a variant. */
export const variantModifierValues = sqliteTable(
  "variant_modifier_values",
  {
    appId: integer("app_id").notNull(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    valueId: integer("value_id")
      .notNull()
      .references(() => modifierValues.id),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.valueId] })],
);

export const itemCategories = sqliteTable(
  "item_categories",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
  },
  (t) => [index("item_categories_app_idx").on(t.appId)],
);

export const itemCategoryLinks = sqliteTable(
  "item_category_links",
  {
    appId: integer("app_id").notNull(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    categoryId: integer("category_id")
      .notNull()
      .references(() => itemCategories.id),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.categoryId] }),
    index("item_category_links_category_idx").on(t.categoryId),
  ],
);

export const itemImages = sqliteTable(
  "item_images",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    url: text("url").notNull(),
    altEn: text("alt_en").notNull().default(""),
    altAr: text("alt_ar").notNull().default(""),
  },
  (t) => [index("item_images_item_idx").on(t.itemId)],
);

export const DISCOUNT_KINDS = ["percentage", "fixed"] as const;

/**
 * An item's discount: a regular reduction and an optional first-purchase (trial) reduction,
 * valid between `starts_at` and `ends_at`. The Item's `discount` object is computed from it.
 */
export const itemDiscounts = sqliteTable(
  "item_discounts",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind", { enum: DISCOUNT_KINDS }).notNull(),
    /** Basis points for a percentage (1500 = 15%), minor units for a fixed amount. */
    value: integer("value").notNull(),
    trialKind: text("trial_kind", { enum: DISCOUNT_KINDS }),
    trialValue: integer("trial_value"),
    isUsagePrice: integer("is_usage_price", { mode: "boolean" }).notNull().default(false),
    startsAt: text("starts_at"),
    endsAt: text("ends_at"),
  },
  (t) => [uniqueIndex("item_discounts_item_uq").on(t.itemId)],
);

export const bundleCategories = sqliteTable(
  "bundle_categories",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    isSelectable: integer("is_selectable", { mode: "boolean" }).notNull().default(true),
    isOptional: integer("is_optional", { mode: "boolean" }).notNull().default(false),
    minSelections: integer("min_selections").notNull().default(0),
    maxSelections: integer("max_selections").notNull().default(1),
  },
  (t) => [index("bundle_categories_app_idx").on(t.appId)],
);

export const itemBundleCategories = sqliteTable(
  "item_bundle_categories",
  {
    appId: integer("app_id").notNull(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    bundleCategoryId: integer("bundle_category_id")
      .notNull()
      .references(() => bundleCategories.id),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.bundleCategoryId] }),
    index("item_bundle_categories_category_idx").on(t.bundleCategoryId),
  ],
);

/** A hold on units of an item (or variant) until `expires_at`, unless a purchase consumes it first. */
export const itemReservations = sqliteTable(
  "item_reservations",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    qty: integer("qty").notNull(),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("item_reservations_item_idx").on(t.itemId, t.consumedAt, t.expiresAt),
    index("item_reservations_app_idx").on(t.appId),
  ],
);

/** The store's item tags (a vocabulary of labels managed on its own). */
export const itemTags = sqliteTable(
  "item_tags",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
  },
  (t) => [index("item_tags_app_idx").on(t.appId, t.isDeleted)],
);

/** Per-store settings of the catalogue; a store without a row has the defaults. */
export const itemConfig = sqliteTable("item_config", {
  appId: integer("app_id").primaryKey(),
  reservationMinutes: integer("reservation_minutes").notNull().default(15),
  maxReservationQty: integer("max_reservation_qty").notNull().default(1000),
  modifiedAt: text("modified_at").notNull(),
});
