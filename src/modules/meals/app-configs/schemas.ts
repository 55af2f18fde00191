import { z } from "@hono/zod-openapi";
import { customFields, nonEmpty } from "../../../core/fields";
import { hexColor, image, int, json } from "../schemas";
import { MEAL_APP_LANGUAGES } from "./tables";

/** The meals app's settings (MM8): what the customer app reads on start, and the merchant changes. */

/** Each switch of the app and its value for a store that never set it. */
export const APP_FEATURE_DEFAULTS = {
  wallet: true,
  referrals: false,
  vouchers: true,
  add_ons: true,
  pickup: true,
  corporate_delivery: false,
  complaints: true,
  pause: true,
  maintenance_mode: false,
} as const satisfies Record<string, boolean>;
export type AppFeature = keyof typeof APP_FEATURE_DEFAULTS;
const FEATURES = Object.keys(APP_FEATURE_DEFAULTS) as AppFeature[];

const FEATURE_NOTES: Record<AppFeature, string> = {
  wallet: "The customer's wallet (points, cashback) is shown and may pay.",
  referrals: "Referral codes are shown.",
  vouchers: "Vouchers may be applied at checkout.",
  add_ons: "Add-ons may be ordered onto suborders.",
  pickup: "Pickup from a branch is offered beside delivery.",
  corporate_delivery: "Corporate locations are offered as delivery points.",
  complaints: "Customers may complain about a suborder.",
  pause: "Customers may pause their subscriptions.",
  maintenance_mode: "The app shows a maintenance screen instead of ordering.",
};

const languages = z
  .array(z.enum(MEAL_APP_LANGUAGES))
  .min(1)
  .max(MEAL_APP_LANGUAGES.length)
  .refine((l) => new Set(l).size === l.length, "Languages must not repeat.")
  .openapi({ uniqueItems: true, example: ["ar", "en"] });

const version = z
  .string()
  .regex(/^\d{1,5}(\.\d{1,5}){0,3}$/, "Must be a version such as 2.4.1.")
  .openapi({ example: "2.4.1" });

const httpsUrl = z
  .string()
  .url("Must be a URL.")
  .max(2048)
  .refine((u) => u.startsWith("https://"), "Must be an https URL.");

const phone = z
  .string()
  .regex(/^\+?\d{6,15}$/, "Must be a phone number: digits, optionally after +, 6 to 15 of them.")
  .openapi({ example: "+966500000000" });

const featureFlags = (describe: (f: AppFeature) => string) =>
  Object.fromEntries(FEATURES.map((f) => [f, z.boolean().openapi({ description: describe(f) })])) as Record<
    AppFeature,
    z.ZodBoolean
  >;

export const AppConfigSchema = z
  .object({
    app_id: int(),
    primary_color: z.string().nullable().openapi({ example: "#2E7D32" }),
    secondary_color: z.string().nullable(),
    logo: z.string().nullable(),
    splash_image: z.string().nullable(),
    default_lang: z.enum(MEAL_APP_LANGUAGES),
    supported_languages: z.array(z.enum(MEAL_APP_LANGUAGES)),
    min_ios_version: z.string().nullable().openapi({ description: "Older iOS builds must update; null: any." }),
    min_android_version: z.string().nullable(),
    force_update: z.boolean().openapi({ description: "Older builds are blocked until they update (not only told)." }),
    contact_phone: z.string().nullable(),
    contact_email: z.string().nullable(),
    whatsapp_number: z.string().nullable(),
    terms_url_en: z.string().nullable(),
    terms_url_ar: z.string().nullable(),
    privacy_url_en: z.string().nullable(),
    privacy_url_ar: z.string().nullable(),
    features: z.object(featureFlags((f) => FEATURE_NOTES[f])).openapi("AppFeatures"),
    custom_fields: json,
    modified_at: z
      .string()
      .nullable()
      .openapi({ format: "date-time", description: "Null while the store has never changed its app config." }),
  })
  .openapi("AppConfig");
export type AppConfig = z.infer<typeof AppConfigSchema>;

export const UpdateAppConfigSchema = nonEmpty(
  z
    .object({
      primary_color: hexColor,
      secondary_color: hexColor,
      logo: image.nullable(),
      splash_image: image.nullable(),
      default_lang: z.enum(MEAL_APP_LANGUAGES).openapi({ description: "One of `supported_languages`." }),
      supported_languages: languages.openapi({ description: "They include `default_lang`." }),
      min_ios_version: version.nullable(),
      min_android_version: version.nullable(),
      force_update: z.boolean(),
      contact_phone: phone.nullable(),
      contact_email: z.string().email("Must be an email address.").max(254).nullable(),
      whatsapp_number: phone.nullable(),
      terms_url_en: httpsUrl.nullable(),
      terms_url_ar: httpsUrl.nullable(),
      privacy_url_en: httpsUrl.nullable(),
      privacy_url_ar: httpsUrl.nullable(),
      features: z
        .object(featureFlags((f) => FEATURE_NOTES[f]))
        .partial()
        .strict()
        .openapi({ description: "The switches to change; the others keep their values." }),
      custom_fields: customFields,
    })
    .partial()
    .strict(),
).openapi("UpdateAppConfig");
export type UpdateAppConfig = z.infer<typeof UpdateAppConfigSchema>;
