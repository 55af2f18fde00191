import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

type Json = Record<string, unknown>;

// The meals app (MM8, MM9).

export const MEAL_APP_LANGUAGES = ["ar", "en"] as const;

/** The app's switches; a store keeps only those it changed (the defaults are the service's). */
export type MealAppFeatures = Record<string, boolean>;

/** The meals app's settings: one row per store, written on its first change (reads use the defaults until then). */
export const mealAppConfigs = sqliteTable("meal_app_configs", {
  appId: integer("app_id").primaryKey(),
  primaryColor: text("primary_color"),
  secondaryColor: text("secondary_color"),
  logo: text("logo"),
  splashImage: text("splash_image"),
  defaultLang: text("default_lang", { enum: MEAL_APP_LANGUAGES }).notNull().default("ar"),
  supportedLanguages: text("supported_languages", { mode: "json" })
    .$type<(typeof MEAL_APP_LANGUAGES)[number][]>()
    .notNull()
    .default(["ar", "en"]),
  minIosVersion: text("min_ios_version"),
  minAndroidVersion: text("min_android_version"),
  forceUpdate: integer("force_update", { mode: "boolean" }).notNull().default(false),
  contactPhone: text("contact_phone"),
  contactEmail: text("contact_email"),
  whatsappNumber: text("whatsapp_number"),
  termsUrlEn: text("terms_url_en"),
  termsUrlAr: text("terms_url_ar"),
  privacyUrlEn: text("privacy_url_en"),
  privacyUrlAr: text("privacy_url_ar"),
  features: text("features", { mode: "json" }).$type<MealAppFeatures>().notNull().default({}),
  customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
  modifiedAt: text("modified_at").notNull(),
});
