import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { auditRecord } from "../../../core/audit";
import { type ColumnValues, insertSelect } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { apps } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { type SellerAddress, type STORE_LANGUAGES, storeSettings } from "../tables";
import type { MerchantSettings, UpdateMerchantSettings } from "./schemas";

type Lang = (typeof STORE_LANGUAGES)[number];

/** A store's settings with the defaults applied: what the orders engine prices, taxes and invoices with. */
export type StoreSettings = {
  appId: number;
  /** The store's names: the app's own names until the merchant sets them. */
  nameEn: string;
  nameAr: string;
  logo: string | null;
  /** ISO 4217, two decimals. */
  currency: string;
  defaultLang: Lang;
  languages: Lang[];
  /** IANA time zone. */
  timezone: string;
  /** VAT in basis points (1500 = 15%); prices include it. */
  vatPercentageBp: number;
  vatNumber: string | null;
  /** As the merchant set it (null when not set). */
  sellerName: string | null;
  /** The seller a tax invoice and its ZATCA QR name: `sellerName`, else the Arabic store name. */
  invoiceSellerName: string;
  commercialRegistration: string | null;
  address: string | null;
  /** The national address ZATCA e-invoices name; null until set. */
  sellerAddress: SellerAddress | null;
  /** Null while the store has never saved its settings. */
  modifiedAt: string | null;
};

// The defaults are the table's own (one source): a store without a row reads as a new row would.
const DEFAULTS = {
  currency: storeSettings.currency.default as string,
  defaultLang: storeSettings.defaultLang.default as Lang,
  languages: storeSettings.languages.default as Lang[],
  timezone: storeSettings.timezone.default as string,
  vatPercentageBp: storeSettings.vatPercentageBp.default as number,
};

/** The statement that reads a store's settings row (if any) with its app's names; for a batch. */
export const storeSettingsQuery = (db: Db, appId: number) =>
  db
    .select({
      appId: apps.id,
      // Aliased: a batch's rows are keyed by column name, and the settings have a name_en too.
      appNameEn: sql<string>`${apps.nameEn}`.as("app_name_en"),
      appNameAr: sql<string>`${apps.nameAr}`.as("app_name_ar"),
      settings: storeSettings,
    })
    .from(apps)
    .leftJoin(storeSettings, eq(storeSettings.appId, apps.id))
    .where(eq(apps.id, appId));

type SettingsRow = Awaited<ReturnType<typeof storeSettingsQuery>>[number];

function toStoreSettings(appId: number, row: SettingsRow | undefined): StoreSettings {
  const s = row?.settings;
  // A store always has its app row; without one (never for a real tenant) the names are empty.
  const nameEn = s?.nameEn ?? row?.appNameEn ?? "";
  const nameAr = s?.nameAr ?? row?.appNameAr ?? "";
  return {
    appId,
    nameEn,
    nameAr,
    logo: s?.logo ?? null,
    currency: s?.currency ?? DEFAULTS.currency,
    defaultLang: s?.defaultLang ?? DEFAULTS.defaultLang,
    languages: (s?.languages as Lang[] | undefined) ?? [...DEFAULTS.languages],
    timezone: s?.timezone ?? DEFAULTS.timezone,
    vatPercentageBp: s?.vatPercentageBp ?? DEFAULTS.vatPercentageBp,
    vatNumber: s?.vatNumber ?? null,
    sellerName: s?.sellerName ?? null,
    invoiceSellerName: s?.sellerName ?? (nameAr || nameEn),
    commercialRegistration: s?.commercialRegistration ?? null,
    address: s?.address ?? null,
    sellerAddress: s?.sellerAddress ?? null,
    modifiedAt: s?.modifiedAt ?? null,
  };
}

/** The settings from the rows of `storeSettingsQuery`, run in the caller's batch. */
export const storeSettingsOf = (appId: number, rows: readonly SettingsRow[]): StoreSettings =>
  toStoreSettings(appId, rows[0]);

/** A store's settings, the defaults applied where it has saved none; one query. */
export async function readStoreSettings(db: Db, appId: number): Promise<StoreSettings> {
  return toStoreSettings(appId, (await storeSettingsQuery(db, appId))[0]);
}

/** The store's currency as a scalar subquery (the default when unset), for another module's statement. */
export const storeCurrencySql = (appId: number): SQL<string> =>
  sql<string>`coalesce((SELECT ${storeSettings.currency} FROM ${storeSettings} WHERE ${storeSettings.appId} = ${appId}), ${DEFAULTS.currency})`;

export function settingsView(s: StoreSettings): MerchantSettings {
  return {
    name_en: s.nameEn,
    name_ar: s.nameAr,
    logo: s.logo,
    currency: s.currency,
    default_lang: s.defaultLang,
    languages: s.languages,
    timezone: s.timezone,
    vat_percentage: s.vatPercentageBp / 100,
    vat_number: s.vatNumber,
    seller_name: s.sellerName,
    commercial_registration: s.commercialRegistration,
    address: s.address,
    seller_address: s.sellerAddress,
    modified_at: s.modifiedAt,
  };
}

/** MA3 */
export const getMerchantSettings = async (ctx: ServiceContext): Promise<MerchantSettings> =>
  settingsView(await readStoreSettings(ctx.db, ctx.appId));

/** Each field of the body, and the column (and StoreSettings key) it writes. */
const COLUMNS = {
  name_en: "nameEn",
  name_ar: "nameAr",
  logo: "logo",
  currency: "currency",
  default_lang: "defaultLang",
  languages: "languages",
  timezone: "timezone",
  vat_percentage: "vatPercentageBp",
  vat_number: "vatNumber",
  seller_name: "sellerName",
  commercial_registration: "commercialRegistration",
  address: "address",
  seller_address: "sellerAddress",
} as const satisfies Record<
  keyof UpdateMerchantSettings,
  keyof StoreSettings & keyof typeof storeSettings.$inferInsert
>;

type Field = keyof typeof COLUMNS;

const notAmongLanguages = (field: "default_lang" | "languages", lang: string, langs: string[]) =>
  ApiError.validation({
    [field]:
      field === "default_lang"
        ? [`Must be one of the store's languages (${langs.join(", ")}); change \`languages\` too.`]
        : [`Must include the default language \`${lang}\`; change \`default_lang\` too.`],
  });

/**
 * The condition that `default_lang` is among `languages` once the body is applied, over the row as
 * it is in the batch (true when the store has no row yet: the body was checked against the defaults).
 */
function languagesGuard(ctx: ServiceContext, input: UpdateMerchantSettings): SQL | undefined {
  const langs = input.languages;
  const lang = input.default_lang;
  if ((langs === undefined) === (lang === undefined)) return undefined; // none, or both (checked already)
  return sql`(NOT EXISTS (SELECT 1 FROM ${storeSettings} WHERE app_id = ${ctx.appId})
    OR EXISTS (SELECT 1 FROM ${storeSettings} AS s, json_each(coalesce(${langs ? JSON.stringify(langs) : null}, s.languages)) AS l
      WHERE s.app_id = ${ctx.appId} AND l.value = coalesce(${lang ?? null}, s.default_lang)))`;
}

/**
 * MA5: a partial update. Only the fields whose value changes are written and named in the event;
 * a body that changes nothing writes nothing. The row is upserted in one statement, with the
 * event in the same batch; `default_lang` must stay among `languages`, checked in the statement too.
 */
export async function updateMerchantSettings(
  ctx: ServiceContext,
  input: UpdateMerchantSettings,
): Promise<MerchantSettings> {
  const current = await readStoreSettings(ctx.db, ctx.appId);
  const langs = input.languages ?? current.languages;
  const lang = input.default_lang ?? current.defaultLang;
  if (!langs.includes(lang)) throw notAmongLanguages(input.default_lang ? "default_lang" : "languages", lang, langs);

  const changed = (Object.keys(input) as Field[]).filter(
    (f) => JSON.stringify(input[f]) !== JSON.stringify(current[COLUMNS[f]]),
  );
  if (!changed.length) return settingsView(current);

  const at = nowIso();
  const set: Partial<typeof storeSettings.$inferInsert> = { modifiedAt: at };
  for (const f of changed) Object.assign(set, { [COLUMNS[f]]: input[f] });
  const guard = languagesGuard(ctx, input);
  const upsert = ctx.db
    .insert(storeSettings)
    .values({ ...set, appId: ctx.appId })
    .onConflictDoUpdate({ target: storeSettings.appId, set, ...(guard && { setWhere: guard }) });
  const { results, applied } = await emit(
    ctx.db,
    ctx.events,
    [...auditOf(ctx, current, changed, set, guard), upsert, storeSettingsQuery(ctx.db, ctx.appId)],
    [newEvent(ctx.appId, "merchant.settings.updated", { fields: changed })],
    guard && { guard },
  );
  const after = toStoreSettings(ctx.appId, (results.at(-1) as SettingsRow[])[0]);
  // A concurrent update changed the other half of the pair: nothing was written.
  if (!applied) {
    const field = input.default_lang ? "default_lang" : "languages";
    throw notAmongLanguages(field, input.default_lang ?? after.defaultLang, input.languages ?? after.languages);
  }
  return settingsView(after);
}

/**
 * The audit row of a settings update: the fields that change, as they were and as they will be (as
 * the settings are served). Placed before the upsert under the same guard, so that a refused update
 * records nothing.
 */
function auditOf(
  ctx: ServiceContext,
  current: StoreSettings,
  changed: Field[],
  set: Partial<typeof storeSettings.$inferInsert>,
  guard: SQL | undefined,
) {
  if (!ctx.audit) return [];
  const before = settingsView(current);
  const after = settingsView({ ...current, ...set } as StoreSettings);
  const pick = (v: MerchantSettings) => Object.fromEntries(changed.map((f) => [f, v[f]]));
  return [
    auditRecord(ctx.db, ctx.audit, {
      appId: ctx.appId,
      action: "settings.updated",
      resourceType: "settings",
      resourceId: ctx.appId,
      before: pick(before),
      after: pick(after),
      ...(guard && { onlyIf: guard }),
    }),
  ];
}

/** The settings a store is created with: any of the merchant's fields but its names (the store's own). */
export type InitialSettings = Omit<UpdateMerchantSettings, "name_en" | "name_ar">;

/**
 * The settings row of a store created in the same batch (`appId` its insert's handle): the fields
 * given, the defaults for the others. Refuses (400) a `default_lang` outside `languages`.
 */
export function initialStoreSettings(db: Db, appId: SQL, input: InitialSettings): BatchItem<"sqlite"> {
  const langs = input.languages ?? DEFAULTS.languages;
  const lang = input.default_lang ?? DEFAULTS.defaultLang;
  if (!langs.includes(lang)) {
    throw ApiError.validation({
      "settings.default_lang": [
        `Must be one of the store's languages (${langs.join(", ")}); change \`languages\` too.`,
      ],
    });
  }
  const values: ColumnValues<typeof storeSettings> = { appId, modifiedAt: nowIso() };
  for (const f of Object.keys(input) as (keyof InitialSettings)[]) Object.assign(values, { [COLUMNS[f]]: input[f] });
  return insertSelect(db, storeSettings, values);
}
