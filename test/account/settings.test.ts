import { describe, expect, it } from "vitest";
import { readStoreSettings } from "../../src/modules/account";
import { MerchantSettingsSchema } from "../../src/modules/account/settings/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, APP_2, db, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";

const SETTINGS = "/api/v1/dashboard/admin/settings/";
const PERMS = ["can_retrieve_app_config", "can_update_app_config"] as const;

/** A store of its own for each test that writes, so that tests do not see each other's settings. */
let nextStore = 300;
async function freshStore() {
  const appId = ++nextStore;
  await ensureTenant(appId);
  return { appId, token: await tokenFor(appId, [...PERMS]) };
}

const read = async (appId: number, token: string) => {
  const res = await call(SETTINGS, { token, appId });
  expect(res.status).toBe(200);
  return MerchantSettingsSchema.strict().parse(await json(res));
};
const write = (appId: number, token: string, body: unknown, method = "POST") =>
  call(SETTINGS, { method, token, appId, body });

async function settingsEvents(appId: number) {
  const rows = await shardFor(appId)
    .prepare("SELECT payload FROM outbox_events WHERE type = 'merchant.settings.updated' AND app_id = ? ORDER BY rowid")
    .bind(appId)
    .all<{ payload: string }>();
  return rows.results.map((r) => JSON.parse(r.payload).data as { fields: string[] });
}

describe("Merchant Settings (MA3)", () => {
  it("a store that never saved settings reads the defaults, named after its app", async () => {
    const { appId, token } = await freshStore();
    expect(await read(appId, token)).toEqual({
      name_en: `Store ${appId}`,
      name_ar: `متجر ${appId}`,
      logo: null,
      currency: "SAR",
      default_lang: "ar",
      languages: ["ar", "en"],
      timezone: "Asia/Riyadh",
      vat_percentage: 15,
      vat_number: null,
      seller_name: null,
      commercial_registration: null,
      address: null,
      seller_address: null,
      modified_at: null,
    });
    const typed = await readStoreSettings(db(), appId);
    expect(typed).toMatchObject({
      appId,
      nameEn: `Store ${appId}`,
      currency: "SAR",
      vatPercentageBp: 1500,
      sellerName: null,
      invoiceSellerName: `متجر ${appId}`,
      modifiedAt: null,
    });
    expect(
      await shardFor(appId).prepare("SELECT 1 FROM store_settings WHERE app_id = ?").bind(appId).first(),
    ).toBeNull();
  });
});

describe("Update Merchant Settings (MA5)", () => {
  it("POST stores the fields given, answers the settings, and names the changes in one event", async () => {
    const { appId, token } = await freshStore();
    const res = await write(appId, token, {
      currency: "AED",
      vat_percentage: 5.5,
      vat_number: "310122393500003",
      seller_name: "شركة التجربة",
      timezone: "asia/dubai",
      logo: "https://cdn.example.com/logo.png",
      commercial_registration: "1010010000",
      address: "Riyadh, King Fahd Road",
    });
    expect(res.status).toBe(200);
    const body = MerchantSettingsSchema.strict().parse(await json(res));
    expect(body).toMatchObject({
      name_en: `Store ${appId}`,
      currency: "AED",
      vat_percentage: 5.5,
      vat_number: "310122393500003",
      seller_name: "شركة التجربة",
      timezone: "Asia/Dubai",
      logo: "https://cdn.example.com/logo.png",
      default_lang: "ar",
    });
    expect(body.modified_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(await read(appId, token)).toEqual(body);
    const row = await shardFor(appId)
      .prepare("SELECT vat_percentage_bp, currency, timezone FROM store_settings WHERE app_id = ?")
      .bind(appId)
      .first();
    expect(row).toEqual({ vat_percentage_bp: 550, currency: "AED", timezone: "Asia/Dubai" });
    const events = await settingsEvents(appId);
    expect(events).toHaveLength(1);
    expect(events[0]!.fields.sort()).toEqual(
      [
        "address",
        "commercial_registration",
        "currency",
        "logo",
        "seller_name",
        "timezone",
        "vat_number",
        "vat_percentage",
      ].sort(),
    );
    const typed = await readStoreSettings(db(), appId);
    expect(typed).toMatchObject({ currency: "AED", vatPercentageBp: 550, invoiceSellerName: "شركة التجربة" });
  });

  it("PATCH is the same operation: a partial update that keeps the other fields", async () => {
    const { appId, token } = await freshStore();
    expect((await write(appId, token, { vat_number: "300000000000003", currency: "USD" })).status).toBe(200);
    const res = await write(appId, token, { name_en: "Renamed", languages: ["en", "ar"] }, "PATCH");
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      name_en: "Renamed",
      name_ar: `متجر ${appId}`,
      languages: ["en", "ar"],
      vat_number: "300000000000003",
      currency: "USD",
    });
    expect((await settingsEvents(appId)).map((e) => e.fields.sort())).toEqual([
      ["currency", "vat_number"],
      ["languages", "name_en"],
    ]);
  });

  it("names only what changed; a body that changes nothing writes and emits nothing", async () => {
    const { appId, token } = await freshStore();
    const first = await json(await write(appId, token, { vat_percentage: 15, vat_number: "300000000000003" }));
    expect((await settingsEvents(appId)).map((e) => e.fields)).toEqual([["vat_number"]]);
    const again = await write(appId, token, { vat_percentage: 15, vat_number: "300000000000003", currency: "SAR" });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(first);
    expect(await settingsEvents(appId)).toHaveLength(1);
  });

  it("null clears an optional field", async () => {
    const { appId, token } = await freshStore();
    await write(appId, token, { vat_number: "300000000000003", seller_name: "Seller" });
    const res = await write(appId, token, { vat_number: null, seller_name: null }, "PATCH");
    expect(await json(res)).toMatchObject({ vat_number: null, seller_name: null });
    expect((await readStoreSettings(db(appId), appId)).invoiceSellerName).toBe(`متجر ${appId}`);
  });

  it.each([
    ["a 3-decimal currency", { currency: "KWD" }, "currency", /3 decimal places/],
    ["another 3-decimal currency", { currency: "BHD" }, "currency", /3 decimal places/],
    ["an unknown currency", { currency: "XYZ" }, "currency", /SAR, AED/],
    ["a lower-case currency", { currency: "sar" }, "currency", /ISO 4217/],
    ["a VAT number not ending in 3", { vat_number: "300000000000004" }, "vat_number", /15 digits/],
    ["a VAT number of 14 digits", { vat_number: "30000000000003" }, "vat_number", /15 digits/],
    ["a VAT number with letters", { vat_number: "3000000000000A3" }, "vat_number", /15 digits/],
    ["an unknown time zone", { timezone: "Mars/Olympus_Mons" }, "timezone", /IANA/],
    ["a UTC offset for a time zone", { timezone: "+03:00" }, "timezone", /IANA/],
    ["VAT with 3 decimals", { vat_percentage: 15.125 }, "vat_percentage", /2 decimals/],
    ["VAT above 100", { vat_percentage: 100.5 }, "vat_percentage", /100/],
    ["negative VAT", { vat_percentage: -1 }, "vat_percentage", /0/],
    ["no languages", { languages: [] }, "languages", /at least one/],
    ["a repeated language", { languages: ["ar", "ar"] }, "languages", /repeat/],
    ["an unknown language", { languages: ["fr"] }, "languages.0", /ar, en/],
    ["an http logo", { logo: "http://cdn.example.com/l.png" }, "logo", /https/],
    ["an empty name", { name_en: "  " }, "name_en", /empty/],
    ["an unknown field", { is_wallet_enabled: true }, "is_wallet_enabled", /Unknown field/],
    ["an empty body", {}, "body", /at least one field/],
  ])("400 for %s, naming the field", async (_what, body, field, message) => {
    const token = await tokenFor(APP_1, [...PERMS]);
    const res = await write(APP_1, token, body);
    expect(res.status).toBe(400);
    const p = await problem(res);
    expect(p.code).toBe("validation_error");
    expect(p.errors?.[field]?.join(" ")).toMatch(message);
  });

  it("keeps default_lang among languages, naming the field that was sent", async () => {
    const { appId, token } = await freshStore();
    const lang = await write(appId, token, { default_lang: "en", languages: ["ar"] });
    expect(lang.status).toBe(400);
    expect((await problem(lang)).errors).toHaveProperty("default_lang");
    const langs = await write(appId, token, { languages: ["en"] });
    expect(langs.status).toBe(400);
    expect((await problem(langs)).errors?.languages?.[0]).toContain("`ar`");
    expect((await write(appId, token, { languages: ["en"], default_lang: "en" })).status).toBe(200);
    const only = await write(appId, token, { default_lang: "ar" });
    expect((await problem(only)).errors?.default_lang?.[0]).toContain("(en)");
    expect(await settingsEvents(appId)).toHaveLength(1);
  });

  it("concurrent halves of the pair cannot leave default_lang outside languages", async () => {
    const { appId, token } = await freshStore();
    const [a, b] = await Promise.all([
      write(appId, token, { default_lang: "en" }),
      write(appId, token, { languages: ["ar"] }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const now = await read(appId, token);
    expect(now.languages).toContain(now.default_lang);
    expect(await settingsEvents(appId)).toHaveLength(1);
  });

  it("one store's settings are not another's", async () => {
    const token = await tokenFor(APP_1, [...PERMS]);
    expect((await write(APP_1, token, { address: "Store one's address" })).status).toBe(200);
    const other = await read(APP_2, await tokenFor(APP_2, ["can_retrieve_app_config"]));
    expect(other.address).toBeNull();
  });

  sharedAuthCases({
    method: "POST",
    path: SETTINGS,
    permission: "can_update_app_config",
    body: { timezone: "Asia/Riyadh" },
  });
  sharedAuthCases({ method: "GET", path: SETTINGS, permission: "can_retrieve_app_config" });
});
