import { eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { APP_FEATURE_DEFAULTS, type AppConfig, type AppFeature, type UpdateAppConfig } from "./schemas";
import { type MEAL_APP_LANGUAGES, mealAppConfigs } from "./tables";

/**
 * App Configs (MM8): one row per store, written on its first change; until then (and for every
 * column the merchant never set) the reads show the defaults. Features keep only what the store
 * switched, so a switch added later reads its default for every store that never touched it.
 */

type Row = typeof mealAppConfigs.$inferSelect;
type Lang = (typeof MEAL_APP_LANGUAGES)[number];

// The table's defaults are the one source: a store without a row reads as a new row would.
const DEFAULT_LANG = mealAppConfigs.defaultLang.default as Lang;
const DEFAULT_LANGUAGES = mealAppConfigs.supportedLanguages.default as Lang[];

const features = (stored: Record<string, boolean> | undefined) => {
  const out = { ...APP_FEATURE_DEFAULTS } as Record<AppFeature, boolean>;
  for (const f of Object.keys(APP_FEATURE_DEFAULTS) as AppFeature[])
    if (typeof stored?.[f] === "boolean") out[f] = stored[f];
  return out;
};

function appConfigView(appId: number, r: Row | undefined): AppConfig {
  return {
    app_id: appId,
    primary_color: r?.primaryColor ?? null,
    secondary_color: r?.secondaryColor ?? null,
    logo: r?.logo ?? null,
    splash_image: r?.splashImage ?? null,
    default_lang: r?.defaultLang ?? DEFAULT_LANG,
    supported_languages: r?.supportedLanguages ?? [...DEFAULT_LANGUAGES],
    min_ios_version: r?.minIosVersion ?? null,
    min_android_version: r?.minAndroidVersion ?? null,
    force_update: r?.forceUpdate ?? false,
    contact_phone: r?.contactPhone ?? null,
    contact_email: r?.contactEmail ?? null,
    whatsapp_number: r?.whatsappNumber ?? null,
    terms_url_en: r?.termsUrlEn ?? null,
    terms_url_ar: r?.termsUrlAr ?? null,
    privacy_url_en: r?.privacyUrlEn ?? null,
    privacy_url_ar: r?.privacyUrlAr ?? null,
    features: features(r?.features),
    custom_fields: r?.customFields ?? null,
    modified_at: r?.modifiedAt ?? null,
  };
}

const rowOf = (ctx: ServiceContext) =>
  ctx.db.select().from(mealAppConfigs).where(eq(mealAppConfigs.appId, ctx.appId)).limit(1);

/** App Configs: the store's, the defaults where it set nothing. One query. */
export async function getAppConfig(ctx: ServiceContext): Promise<AppConfig> {
  return appConfigView(ctx.appId, (await rowOf(ctx))[0]);
}

/** Each field of the body but `features`, and its column. */
const COLUMNS = {
  primary_color: "primaryColor",
  secondary_color: "secondaryColor",
  logo: "logo",
  splash_image: "splashImage",
  default_lang: "defaultLang",
  supported_languages: "supportedLanguages",
  min_ios_version: "minIosVersion",
  min_android_version: "minAndroidVersion",
  force_update: "forceUpdate",
  contact_phone: "contactPhone",
  contact_email: "contactEmail",
  whatsapp_number: "whatsappNumber",
  terms_url_en: "termsUrlEn",
  terms_url_ar: "termsUrlAr",
  privacy_url_en: "privacyUrlEn",
  privacy_url_ar: "privacyUrlAr",
  custom_fields: "customFields",
} as const satisfies Record<Exclude<keyof UpdateAppConfig, "features">, keyof Row>;
type Field = keyof typeof COLUMNS;

/**
 * Update App Config: a partial update; only what changes is written and named in the event, and a
 * body that changes nothing writes nothing. The language pair is written whole whenever either
 * half changes, so that concurrent writers leave a consistent pair; the features are merged into
 * the stored ones in the statement itself, so that concurrent switches do not undo each other.
 */
export async function updateAppConfig(ctx: ServiceContext, input: UpdateAppConfig): Promise<AppConfig> {
  const current = appConfigView(ctx.appId, (await rowOf(ctx))[0]);
  const langs = input.supported_languages ?? current.supported_languages;
  const lang = input.default_lang ?? current.default_lang;
  if (!langs.includes(lang)) {
    const field = input.default_lang ? "default_lang" : "supported_languages";
    throw ApiError.validation({
      [field]: [
        field === "default_lang"
          ? `Must be one of the supported languages (${langs.join(", ")}); change \`supported_languages\` too.`
          : `Must include the default language \`${lang}\`; change \`default_lang\` too.`,
      ],
    });
  }

  const changed: string[] = (Object.keys(COLUMNS) as Field[]).filter(
    (f) => input[f] !== undefined && JSON.stringify(input[f]) !== JSON.stringify(current[f]),
  );
  const switched = Object.entries(input.features ?? {}).filter(([f, on]) => current.features[f as AppFeature] !== on);
  if (switched.length) changed.push("features");
  if (!changed.length) return current;

  const set: Partial<typeof mealAppConfigs.$inferInsert> & { modifiedAt: string } = { modifiedAt: nowIso() };
  for (const f of changed) if (f !== "features") Object.assign(set, { [COLUMNS[f as Field]]: input[f as Field] });
  if (changed.includes("default_lang") || changed.includes("supported_languages"))
    Object.assign(set, { defaultLang: lang, supportedLanguages: langs });
  const patch = JSON.stringify(Object.fromEntries(switched));
  const upsert = ctx.db
    .insert(mealAppConfigs)
    .values({ ...set, appId: ctx.appId, features: Object.fromEntries(switched) })
    .onConflictDoUpdate({
      target: mealAppConfigs.appId,
      set: { ...set, ...(switched.length > 0 && { features: sql`json_patch(${mealAppConfigs.features}, ${patch})` }) },
    });
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [upsert, rowOf(ctx)],
    [newEvent(ctx.appId, "meal_app_config.updated", { fields: changed })],
  );
  return appConfigView(ctx.appId, (results[1] as Row[])[0]);
}
