import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";

/*
 * The customers module's tables: the store's customers and what hangs off them (locations,
 * memberships, the wallet ledger), the customer app's login (one-time codes, refresh tokens, FCM
 * tokens), notifications, and the geography they point at. Geography is reference data shared by
 * every store (no app_id); which cities a store serves is per store.
 */

// ---- geography (shared reference data) ----

export const countries = sqliteTable("countries", {
  id: integer("id").primaryKey(),
  /** ISO 3166-1 alpha-2. */
  code: text("code").notNull().unique(),
  nameEn: text("name_en").notNull(),
  nameAr: text("name_ar").notNull(),
  /** The international calling code, digits only ("966"). */
  phoneCode: text("phone_code").notNull(),
  ordering: integer("ordering").notNull().default(0),
});

export const regions = sqliteTable(
  "regions",
  {
    id: integer("id").primaryKey(),
    countryId: integer("country_id")
      .notNull()
      .references(() => countries.id),
    /** ISO 3166-2 ("SA-01"). */
    code: text("code").notNull().unique(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    ordering: integer("ordering").notNull().default(0),
  },
  (t) => [index("regions_country_idx").on(t.countryId)],
);

export const cities = sqliteTable(
  "cities",
  {
    id: integer("id").primaryKey(),
    regionId: integer("region_id")
      .notNull()
      .references(() => regions.id),
    countryCode: text("country_code").notNull(),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    /** Other spellings a search should find ("Jeddah Jiddah Jedda"). */
    keywords: text("keywords").notNull().default(""),
    lat: real("lat").notNull(),
    lng: real("lng").notNull(),
    ordering: integer("ordering").notNull().default(0),
  },
  (t) => [index("cities_region_idx").on(t.regionId)],
);

export const districts = sqliteTable(
  "districts",
  {
    id: integer("id").primaryKey(),
    cityId: integer("city_id")
      .notNull()
      .references(() => cities.id),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    ordering: integer("ordering").notNull().default(0),
  },
  (t) => [index("districts_city_idx").on(t.cityId)],
);

/** The cities a store serves (`is_supported` of a city, per store; the customer app's Supported Cities). */
export const supportedCities = sqliteTable(
  "supported_cities",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    cityId: integer("city_id")
      .notNull()
      .references(() => cities.id),
  },
  (t) => [uniqueIndex("supported_cities_app_city_uq").on(t.appId, t.cityId)],
);

// ---- customers ----

export const CUSTOMER_LANGS = ["ar", "en"] as const;

export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    /** Calling code, digits only ("966"). */
    countryCode: text("country_code").notNull(),
    /** E.164 digits without "+" ("966534501056"): unique among the store's live customers. */
    mobileNumber: text("mobile_number").notNull(),
    /** The national form ("0534501056"), as the peer echoes it. */
    username: text("username").notNull(),
    email: text("email"),
    name: text("name"),
    lang: text("lang", { enum: CUSTOMER_LANGS }).notNull().default("ar"),
    currentCityId: integer("current_city_id"),
    isEmailVerified: integer("is_email_verified", { mode: "boolean" }).notNull().default(false),
    isMobileVerified: integer("is_mobile_verified", { mode: "boolean" }).notNull().default(false),
    isBlocked: integer("is_blocked", { mode: "boolean" }).notNull().default(false),
    nationalId: text("national_id"),
    secondaryMobileNumber: text("secondary_mobile_number"),
    dateOfBirth: text("date_of_birth"),
    avatar: text("avatar"),
    /** The customer app's version, as the app reports it. */
    platformVersion: text("platform_version"),
    joinedAt: text("joined_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    // A deleted customer's number may register again: unique among live rows only.
    uniqueIndex("customers_app_mobile_live_uq").on(t.appId, t.mobileNumber).where(sql`${t.isDeleted} = 0`),
    index("customers_app_created_idx").on(t.appId, t.isDeleted, t.createdAt),
    index("customers_app_email_idx").on(t.appId, t.email),
    // Incremental sync: `modified_at__gte` and `order_by=modified_at`, deleted rows too (`include_deleted`).
    index("customers_app_modified_idx").on(t.appId, t.modifiedAt, t.id),
  ],
);

export const LOCATION_TYPES = ["home", "work", "friend_house", "other"] as const;

export const customerLocations = sqliteTable(
  "customer_locations",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    type: text("type", { enum: LOCATION_TYPES }).notNull().default("home"),
    nameEn: text("name_en").notNull().default(""),
    nameAr: text("name_ar").notNull().default(""),
    latitude: real("latitude").notNull(),
    longitude: real("longitude").notNull(),
    cityId: integer("city_id").references(() => cities.id),
    districtId: integer("district_id").references(() => districts.id),
    address1: text("address1").notNull().default(""),
    address2: text("address2"),
    postalCode: text("postal_code"),
    formattedAddress: text("formatted_address"),
    placeId: text("place_id"),
    route: text("route"),
    streetNumber: text("street_number"),
    locationUrl: text("location_url"),
    image: text("image"),
    description: text("description"),
  },
  (t) => [index("customer_locations_app_customer_idx").on(t.appId, t.customerId, t.isDeleted)],
);

export const MEMBERSHIP_STATUSES = ["active", "expired", "cancelled"] as const;

/** A customer's membership: access a subscription grants, for a period. */
export const customerMemberships = sqliteTable(
  "customer_memberships",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    subscriptionId: integer("subscription_id"),
    status: text("status", { enum: MEMBERSHIP_STATUSES }).notNull().default("active"),
    startDate: text("start_date").notNull(),
    endDate: text("end_date"),
  },
  (t) => [index("customer_memberships_app_customer_idx").on(t.appId, t.customerId, t.isDeleted)],
);

// ---- wallets: an append-only ledger per customer and balance kind ----

export const WALLET_KINDS = ["points", "cashback"] as const;
/** `refund`: money an order took from the wallet, given back (the order cancelled, expired or refunded). */
export const WALLET_ENTRY_TYPES = ["deposit", "redeem", "expiry", "adjustment", "refund"] as const;

/**
 * One movement of a customer's points or cashback. Never updated: the balance of a kind is the
 * `balance_after` of its latest entry, written by a statement that refuses to go below zero.
 * Points are whole units; cashback is money in minor units.
 */
export const walletEntries = sqliteTable(
  "wallet_entries",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    kind: text("kind", { enum: WALLET_KINDS }).notNull(),
    type: text("type", { enum: WALLET_ENTRY_TYPES }).notNull(),
    /** Signed: positive in, negative out. */
    amount: integer("amount").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason"),
    reference: text("reference"),
    orderId: integer("order_id"),
    expiresAt: text("expires_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [index("wallet_entries_app_customer_kind_idx").on(t.appId, t.customerId, t.kind, t.id)],
);

// ---- the customer app's login ----

/** Per-store settings of the customer app. */
export const customerSettings = sqliteTable("customer_settings", {
  appId: integer("app_id").primaryKey(),
  /** Digits of a one-time code (4 to 8). */
  otpLength: integer("otp_length").notNull().default(6),
  /** Registration codes the store sends in 10 minutes, all numbers together (against SMS pumping). */
  registerCodesPer10Min: integer("register_codes_per_10_min").notNull().default(20),
});

export const OTP_PURPOSES = ["login", "register"] as const;

/** A one-time code sent by SMS: stored hashed, 5 minutes, at most 5 tries, used once. */
export const otpCodes = sqliteTable(
  "otp_codes",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    /** E.164 digits. */
    phone: text("phone").notNull(),
    purpose: text("purpose", { enum: OTP_PURPOSES }).notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** What the registration gave (name, email, lang), applied when it is confirmed. */
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>(),
    ip: text("ip"),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    index("otp_codes_app_phone_idx").on(t.appId, t.phone, t.createdAt),
    // The store's registration codes of the last minutes, counted for its SMS budget.
    index("otp_codes_app_purpose_idx").on(t.appId, t.purpose, t.createdAt),
  ],
);

/**
 * Refresh tokens: opaque, stored hashed, 30 days, rotated on every use. All the tokens one login
 * led to share a `family_id`; a rotated token used again revokes the whole family.
 */
export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    rotatedAt: text("rotated_at"),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_uq").on(t.tokenHash),
    index("refresh_tokens_family_idx").on(t.familyId),
    index("refresh_tokens_app_customer_idx").on(t.appId, t.customerId),
  ],
);

export const FCM_PLATFORMS = ["ios", "android", "web"] as const;

export const fcmTokens = sqliteTable(
  "fcm_tokens",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    token: text("token").notNull(),
    platform: text("platform", { enum: FCM_PLATFORMS }).notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [
    uniqueIndex("fcm_tokens_app_token_uq").on(t.appId, t.token),
    index("fcm_tokens_app_customer_idx").on(t.appId, t.customerId, t.isActive),
  ],
);

// ---- notifications ----

export const NOTIFICATION_STATUSES = ["queued", "sending", "sent", "partially_failed", "failed"] as const;

/** A merchant's Send Notification: what was sent, to whom, and how far the sending got. */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    titleEn: text("title_en").notNull(),
    titleAr: text("title_ar").notNull(),
    bodyEn: text("body_en").notNull(),
    bodyAr: text("body_ar").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, string>>(),
    audience: text("audience", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: NOTIFICATION_STATUSES }).notNull().default("queued"),
    recipientsCount: integer("recipients_count").notNull().default(0),
    pushSent: integer("push_sent").notNull().default(0),
    pushFailed: integer("push_failed").notNull().default(0),
  },
  (t) => [index("notifications_app_created_idx").on(t.appId, t.isDeleted, t.createdAt)],
);

/** A notification as one customer received it (the customer app's List Received Notifications). */
export const customerNotifications = sqliteTable(
  "customer_notifications",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    notificationId: integer("notification_id")
      .notNull()
      .references(() => notifications.id),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    titleEn: text("title_en").notNull(),
    titleAr: text("title_ar").notNull(),
    bodyEn: text("body_en").notNull(),
    bodyAr: text("body_ar").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, string>>(),
    readAt: text("read_at"),
  },
  (t) => [
    uniqueIndex("customer_notifications_uq").on(t.notificationId, t.customerId),
    index("customer_notifications_app_customer_idx").on(t.appId, t.customerId, t.isDeleted, t.createdAt),
  ],
);
