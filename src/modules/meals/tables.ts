import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Weekday } from "../../core/fields";
import { auditColumns } from "../../db/columns";

/**
 * The meals side: restaurants (the providers of the sales channel) with their branches, delivery
 * zones and windows; their menus of categories, products and combos; and meal plans, each with its
 * versions (priced durations) and its days (masters) of plan categories and options. One module,
 * like the catalogue: Plan Details reads all of these tables in one D1 batch.
 */

export const REST_TYPES = ["on_demand", "subscription", "both"] as const;

type Json = Record<string, unknown>;

export const restaurantCategories = sqliteTable(
  "restaurant_categories",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    image: text("image").notNull().default(""),
  },
  (t) => [index("restaurant_categories_app_idx").on(t.appId, t.isDeleted)],
);

export const restaurants = sqliteTable(
  "restaurants",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
    categoryId: integer("category_id"),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    subtitleEn: text("subtitle_en"),
    subtitleAr: text("subtitle_ar"),
    descriptionEn: text("description_en"),
    descriptionAr: text("description_ar"),
    logo: text("logo").notNull().default(""),
    banner: text("banner"),
    restType: text("rest_type", { enum: REST_TYPES }).notNull(),
    startAfter: integer("start_after").notNull().default(0),
    storeStartAfter: integer("store_start_after"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    primaryColor: text("primary_color"),
    secondaryColor: text("secondary_color"),
    closedDates: text("closed_dates", { mode: "json" }).$type<string[]>().notNull().default([]),
    offDays: text("off_days", { mode: "json" }).$type<Weekday[]>().notNull().default([]),
    supportsPickup: integer("supports_pickup", { mode: "boolean" }).notNull().default(false),
    supportsDelivery: integer("supports_delivery", { mode: "boolean" }).notNull().default(true),
    deliveryByPlatform: integer("delivery_by_platform", { mode: "boolean" }).notNull().default(false),
    /** The on-demand menu (Restaurant Menu serves it). */
    menuId: integer("menu_id"),
    /** IANA zone in which the restaurant's days (today, off days, closed dates) are counted. */
    timeZone: text("time_zone").notNull().default("Asia/Riyadh"),
    /**
     * The provider's cutoff: a delivery can be changed (meals, location, window, pause, cancel) until
     * this many hours before the start of its day, in the restaurant's time zone.
     */
    cutoffHours: integer("cutoff_hours").notNull().default(24),
  },
  (t) => [index("restaurants_app_idx").on(t.appId, t.isDeleted, t.isActive)],
);

export const restaurantBranches = sqliteTable(
  "restaurant_branches",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    restaurantId: integer("restaurant_id").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    cityId: integer("city_id").notNull(),
    address1: text("address1").notNull().default(""),
    lat: real("lat").notNull(),
    lng: real("lng").notNull(),
    isMain: integer("is_main", { mode: "boolean" }).notNull().default(false),
    supportsPickup: integer("supports_pickup", { mode: "boolean" }).notNull().default(true),
    /** Delivers to points within this distance of the branch; null when it does not deliver by radius. */
    deliveryRadiusKm: real("delivery_radius_km"),
  },
  (t) => [index("restaurant_branches_app_idx").on(t.appId, t.restaurantId, t.isDeleted)],
);

/** A polygon of [lat, lng] vertices in which the restaurant delivers. */
export const deliveryZones = sqliteTable(
  "delivery_zones",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    restaurantId: integer("restaurant_id").notNull(),
    cityId: integer("city_id").notNull(),
    nameEn: text("name_en").notNull().default(""),
    polygon: text("polygon", { mode: "json" }).$type<[number, number][]>().notNull(),
  },
  (t) => [index("delivery_zones_app_idx").on(t.appId, t.restaurantId)],
);

export const deliveryWindows = sqliteTable(
  "delivery_windows",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    restaurantId: integer("restaurant_id").notNull(),
    fromTime: text("from_time").notNull(),
    toTime: text("to_time").notNull(),
    /** The orders it serves: on-demand, subscriptions (suborders), or both (the captain app's model). */
    type: text("type", { enum: REST_TYPES }).notNull().default("both"),
    /** The window chosen for the customer when none is asked for. */
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    /** A short label the apps show ("Morning"). */
    tag: text("tag"),
    /** Whether on-demand orders are taken for it now. */
    isOnDemandOpened: integer("is_on_demand_opened", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [index("delivery_windows_app_idx").on(t.appId, t.restaurantId)],
);

export const menus = sqliteTable(
  "menus",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
    restaurantId: integer("restaurant_id").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    image: text("image").notNull().default(""),
  },
  (t) => [index("menus_app_idx").on(t.appId, t.restaurantId)],
);

export const menuCategories = sqliteTable(
  "menu_categories",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
    menuId: integer("menu_id").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    image: text("image").notNull().default(""),
    isSub: integer("is_sub", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [index("menu_categories_menu_idx").on(t.menuId, t.isDeleted)],
);

export const products = sqliteTable(
  "meal_products",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    restaurantId: integer("restaurant_id").notNull(),
    /** Its menu category; null for products only offered in plans or as wallet credit. */
    categoryId: integer("category_id"),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    descriptionEn: text("description_en"),
    descriptionAr: text("description_ar"),
    priceMinor: integer("price_minor").notNull(),
    discountPercentage: real("discount_percentage").notNull().default(0),
    image: text("image").notNull().default(""),
    originalImage: text("original_image").notNull().default(""),
    isSub: integer("is_sub", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isSpecial: integer("is_special", { mode: "boolean" }).notNull().default(false),
    inStock: integer("in_stock", { mode: "boolean" }).notNull().default(true),
    allergies: text("allergies", { mode: "json" }).$type<string[]>().notNull().default([]),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    allergensDislikes: text("allergens_dislikes", { mode: "json" }).$type<string[]>().notNull().default([]),
    variant: text("variant", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** Weekdays on which the product is not served; Restaurant Menu leaves it out on them. */
    offDays: text("off_days", { mode: "json" }).$type<Weekday[]>().notNull().default([]),
    /** Wallet credit products sell store credit of this amount. */
    walletCreditMinor: integer("wallet_credit_minor"),
  },
  (t) => [
    index("meal_products_app_idx").on(t.appId, t.restaurantId, t.isDeleted),
    index("meal_products_category_idx").on(t.categoryId),
  ],
);

/** A product's nutrition facts: the row without `size` is `nutritions`, sized rows are `nutrition_options`. */
export const nutritions = sqliteTable(
  "nutritions",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
    productId: integer("product_id").notNull(),
    calories: real("calories"),
    carbs: real("carbs"),
    protein: real("protein"),
    fat: real("fat"),
    size: text("size"),
  },
  (t) => [index("nutritions_product_idx").on(t.productId, t.isDeleted)],
);

export const combos = sqliteTable(
  "combos",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
    restaurantId: integer("restaurant_id").notNull(),
    categoryId: integer("category_id").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    descriptionEn: text("description_en"),
    descriptionAr: text("description_ar"),
    image: text("image").notNull().default(""),
    priceMinor: integer("price_minor").notNull(),
    discountPercentage: real("discount_percentage").notNull().default(0),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    productIds: text("product_ids", { mode: "json" }).$type<number[]>().notNull(),
  },
  (t) => [index("combos_category_idx").on(t.categoryId, t.isDeleted)],
);

export const ALLERGEN_KINDS = ["allergy", "dislike"] as const;

export const allergens = sqliteTable(
  "allergens",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    kind: text("kind", { enum: ALLERGEN_KINDS }).notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    icon: text("icon").notNull().default(""),
  },
  (t) => [index("allergens_app_idx").on(t.appId, t.isDeleted)],
);

/** The variants (diets such as keto or low carb) a restaurant offers; products name theirs in `variant`. */
export const restaurantVariants = sqliteTable(
  "restaurant_variants",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    restaurantId: integer("restaurant_id").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
  },
  (t) => [index("restaurant_variants_app_idx").on(t.appId, t.restaurantId)],
);

export const planTags = sqliteTable(
  "plan_tags",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    typeEn: text("type_en").notNull(),
    typeAr: text("type_ar").notNull(),
    tagEn: text("tag_en").notNull(),
    tagAr: text("tag_ar").notNull(),
    descriptionEn: text("description_en").notNull().default(""),
    descriptionAr: text("description_ar").notNull().default(""),
    image: text("image").notNull().default(""),
    color: text("color"),
  },
  (t) => [index("plan_tags_app_idx").on(t.appId, t.isDeleted)],
);

export const SUBSCRIPTION_TYPES = ["daily", "weekly", "monthly", "custom"] as const;

export const plans = sqliteTable(
  "plans",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    restaurantId: integer("restaurant_id").notNull(),
    menuId: integer("menu_id").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    subtitleEn: text("subtitle_en"),
    subtitleAr: text("subtitle_ar"),
    descriptionEn: text("description_en"),
    descriptionAr: text("description_ar"),
    image: text("image").notNull().default(""),
    imageAr: text("image_ar"),
    tagIds: text("tag_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    dailyNumOfItems: integer("daily_num_of_items").notNull(),
    avgDailyMealCalories: real("avg_daily_meal_calories").notNull().default(0),
    startAfter: integer("start_after").notNull().default(0),
    specialProductSelectionLimit: integer("special_product_selection_limit"),
    featuredTitleEn: text("featured_title_en"),
    featuredTitleAr: text("featured_title_ar"),
    isFeatured: integer("is_featured", { mode: "boolean" }).notNull().default(false),
    isMarketplaceFeatured: integer("is_marketplace_featured", { mode: "boolean" }).notNull().default(false),
    isMarketplaceActive: integer("is_marketplace_active", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    supportedService: text("supported_service"),
    gender: text("gender"),
    subscriptionType: text("subscription_type", { enum: SUBSCRIPTION_TYPES }).notNull(),
    /**
     * Days in the menu cycle: the n-th delivery date (from 0) is served by the day whose counter is n % repetition +
     * 1.
     */
    repetition: integer("repetition").notNull(),
    skipOptionSelection: integer("skip_option_selection", { mode: "boolean" }).notNull().default(false),
    sizeTitle: text("size_title").notNull(),
    sizeProteinAmount: real("size_protein_amount").notNull(),
    sizeCarbAmount: real("size_carb_amount"),
    sizeUnit: text("size_unit").notNull().default("g"),
  },
  (t) => [index("plans_app_idx").on(t.appId, t.isDeleted, t.restaurantId)],
);

export const planVersions = sqliteTable(
  "plan_versions",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
    planId: integer("plan_id").notNull(),
    minStartDate: text("min_start_date").notNull(),
    maxStartDate: text("max_start_date").notNull(),
    offDays: text("off_days", { mode: "json" }).$type<Weekday[]>().notNull().default([]),
    numOfDays: integer("num_of_days").notNull(),
    totalNumOfItems: integer("total_num_of_items").notNull(),
    deliveryPriceMinor: integer("delivery_price_minor").notNull().default(0),
    originalPriceMinor: integer("original_price_minor").notNull(),
    discountPercentage: real("discount_percentage").notNull().default(0),
    duration: text("duration"),
    pauseCredits: integer("pause_credits"),
    numOfPauseAttempts: integer("num_of_pause_attempts"),
    minOfPauseDays: integer("min_of_pause_days"),
  },
  (t) => [index("plan_versions_plan_idx").on(t.planId, t.isDeleted)],
);

/** A master: one day of the plan's menu cycle. */
export const planDays = sqliteTable(
  "plan_days",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    planId: integer("plan_id").notNull(),
    restaurantId: integer("restaurant_id").notNull(),
    day: text("day").notNull(),
    repetitionCounter: integer("repetition_counter").notNull(),
    masterId: integer("master_id"),
  },
  (t) => [index("plan_days_plan_idx").on(t.planId, t.isDeleted)],
);

export const planCategories = sqliteTable(
  "plan_categories",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    // The plan is kept beside the day so that Plan Details reads every level by plan, in one batch.
    planId: integer("plan_id").notNull(),
    planDayId: integer("plan_day_id").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    isMultiSelect: integer("is_multi_select", { mode: "boolean" }).notNull().default(false),
    maxSelectedOptions: integer("max_selected_options").notNull().default(1),
    categoryMasterId: integer("category_master_id"),
  },
  (t) => [
    index("plan_categories_plan_idx").on(t.planId, t.isDeleted),
    index("plan_categories_day_idx").on(t.planDayId),
  ],
);

export const planOptions = sqliteTable(
  "plan_options",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    planId: integer("plan_id").notNull(),
    planCategoryId: integer("plan_category_id").notNull(),
    productId: integer("product_id").notNull(),
    isRecommended: integer("is_recommended", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [
    index("plan_options_plan_idx").on(t.planId, t.isDeleted),
    index("plan_options_category_idx").on(t.planCategoryId),
    index("plan_options_product_idx").on(t.productId),
  ],
);
