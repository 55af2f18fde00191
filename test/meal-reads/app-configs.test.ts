import { beforeAll, describe, expect, it } from "vitest";
import { vouchers } from "../../src/modules/vouchers/tables";
import { createCustomerFor, customerTokenFor, db, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, json, problem } from "../helpers/request";

/** App Configs (MM8) and the meals app's Featured Vouchers (MM7). */

const A = 4407;
const B = 4408;
let admin: string;
let customer: string;
let customerId: number;

beforeAll(async () => {
  await ensureTenant(A);
  await ensureTenant(B);
  admin = await tokenFor(A, ["can_update_app_config"]);
  customerId = (await createCustomerFor(A)).id;
  customer = await customerTokenFor(A, customerId);
});

const CONFIG = "/api/v1/app-configs/";
const read = (headers: Record<string, string> = {}, appId = A) => call(CONFIG, { appId, headers });
const patch = (body: unknown, token = admin) => call(CONFIG, { method: "PATCH", appId: A, token, body });

async function eventsOf(type: string, appId = A) {
  const { results } = await shardFor(appId)
    .prepare("SELECT payload FROM outbox_events WHERE app_id = ? AND type = ? ORDER BY rowid")
    .bind(appId, type)
    .all<{ payload: string }>();
  return results.map((r) => JSON.parse(r.payload).data);
}

const DEFAULT_FEATURES = {
  wallet: true,
  referrals: false,
  vouchers: true,
  add_ons: true,
  pickup: true,
  corporate_delivery: false,
  complaints: true,
  pause: true,
  maintenance_mode: false,
};

describe("App Configs", () => {
  it("reads the defaults for a store that never changed them, cached with an ETag", async () => {
    const res = await read();
    expect(res.status).toBe(200);
    const config = await json(res);
    expect(schemaErrors("getMealAppConfig", config)).toEqual([]);
    expect(config).toEqual({
      app_id: A,
      primary_color: null,
      secondary_color: null,
      logo: null,
      splash_image: null,
      default_lang: "ar",
      supported_languages: ["ar", "en"],
      min_ios_version: null,
      min_android_version: null,
      force_update: false,
      contact_phone: null,
      contact_email: null,
      whatsapp_number: null,
      terms_url_en: null,
      terms_url_ar: null,
      privacy_url_en: null,
      privacy_url_ar: null,
      features: DEFAULT_FEATURES,
      custom_fields: null,
      modified_at: null,
    });
    const again = await read();
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect((await read({ "If-None-Match": again.headers.get("etag")! })).status).toBe(304);
    expect((await problem(await call(CONFIG, { appId: 999_999 }))).code).toBe("app_not_found");
  });

  it("a merchant's change is stored, announced, and read at once by the public", async () => {
    const etag = (await read()).headers.get("etag")!;
    const res = await patch({
      primary_color: "#112233",
      default_lang: "en",
      min_ios_version: "2.4.1",
      force_update: true,
      contact_email: "help@store.example",
      whatsapp_number: "+966500000001",
      terms_url_en: "https://store.example/terms",
      features: { referrals: true, maintenance_mode: false },
      custom_fields: { theme: "dark" },
    });
    expect(res.status).toBe(200);
    const config = await json(res);
    expect(config).toMatchObject({
      primary_color: "#112233",
      default_lang: "en",
      supported_languages: ["ar", "en"],
      min_ios_version: "2.4.1",
      force_update: true,
      contact_email: "help@store.example",
      terms_url_en: "https://store.example/terms",
      custom_fields: { theme: "dark" },
      features: { ...DEFAULT_FEATURES, referrals: true },
    });
    expect(config.modified_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // `maintenance_mode: false` is what it was: not a change.
    expect(await eventsOf("meal_app_config.updated")).toEqual([
      {
        fields: [
          "primary_color",
          "default_lang",
          "min_ios_version",
          "force_update",
          "contact_email",
          "whatsapp_number",
          "terms_url_en",
          "custom_fields",
          "features",
        ],
      },
    ]);
    const after = await read({ "If-None-Match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(await json(after)).toEqual(config);
    // Another store still reads its defaults.
    expect((await json(await read({}, B))).primary_color).toBeNull();
  });

  it("switches only the features named, clears with null, and writes nothing for no change", async () => {
    const config = await json(await patch({ features: { pause: false }, primary_color: null }));
    expect(config.features).toEqual({ ...DEFAULT_FEATURES, referrals: true, pause: false });
    expect(config.primary_color).toBeNull();
    expect(config.default_lang).toBe("en");
    // Only the switches the store changed are stored, merged in the statement.
    const stored = await shardFor(A)
      .prepare("SELECT features, primary_color FROM meal_app_configs WHERE app_id = ?")
      .bind(A)
      .first<{ features: string; primary_color: string | null }>();
    expect(JSON.parse(stored!.features)).toEqual({ referrals: true, pause: false });
    expect(stored!.primary_color).toBeNull();
    const events = await eventsOf("meal_app_config.updated");
    expect(events.at(-1)).toEqual({ fields: ["primary_color", "features"] });
    const same = await patch({ features: { pause: false }, default_lang: "en" });
    expect(same.status).toBe(200);
    expect((await json(same)).modified_at).toBe(config.modified_at);
    expect(await eventsOf("meal_app_config.updated")).toHaveLength(events.length);
  });

  it("keeps the default language among the supported ones", async () => {
    const dropped = await problem(await patch({ supported_languages: ["ar"] }));
    expect(dropped.status).toBe(400);
    expect(dropped.errors!.supported_languages![0]).toContain("`en`");
    const both = await problem(await patch({ supported_languages: ["en"], default_lang: "ar" }));
    expect(both.errors).toHaveProperty("default_lang");
    const ok = await json(await patch({ supported_languages: ["ar"], default_lang: "ar" }));
    expect(ok).toMatchObject({ supported_languages: ["ar"], default_lang: "ar" });
  });

  it("is a 400 naming each bad field", async () => {
    const cases: [unknown, string][] = [
      [{}, "body"],
      [{ primary_color: "green" }, "primary_color"],
      [{ terms_url_ar: "http://store.example/terms" }, "terms_url_ar"],
      [{ min_android_version: "latest" }, "min_android_version"],
      [{ contact_email: "nobody" }, "contact_email"],
      [{ contact_phone: "call us" }, "contact_phone"],
      [{ supported_languages: ["ar", "ar"] }, "supported_languages"],
      [{ supported_languages: ["fr"] }, "supported_languages.0"],
      [{ features: { teleport: true } }, "features.teleport"],
      [{ features: { wallet: "yes" } }, "features.wallet"],
      [{ colour: "#000000" }, "colour"],
    ];
    for (const [body, field] of cases) {
      const p = await problem(await patch(body));
      expect(p.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(p.errors!), JSON.stringify(body)).toContain(field);
    }
  });

  it("needs a merchant token with can_update_app_config", async () => {
    expect((await call(CONFIG, { method: "PATCH", appId: A, body: { force_update: false } })).status).toBe(401);
    const reader = await problem(await patch({ force_update: false }, await tokenFor(A, ["can_retrieve_app_config"])));
    expect(reader).toMatchObject({ status: 403, code: "missing_permission" });
    expect((await problem(await patch({ force_update: false }, customer))).code).toBe("wrong_principal");
    const other = await problem(
      await call(CONFIG, { method: "PATCH", appId: B, token: admin, body: { force_update: false } }),
    );
    expect(other).toMatchObject({ status: 403, code: "wrong_tenant" });
    expect((await call(CONFIG, { method: "DELETE", appId: A, token: admin })).status).toBe(405);
  });
});

describe("Featured Vouchers (meals app)", () => {
  const FEATURED = "/api/v1/vouchers/featured/";
  let ids: number[];

  beforeAll(async () => {
    const row = (code: string, o: Partial<typeof vouchers.$inferInsert> = {}) => ({
      appId: A,
      code,
      titleEn: code,
      titleAr: code,
      kind: "percentage" as const,
      value: 1000,
      isFeatured: true,
      ...o,
    });
    const rows = await db(B)
      .insert(vouchers)
      .values([
        row("MEALS10", { ordering: 1 }),
        row("MEALS20", { ordering: 2, kind: "fixed", value: 2000, maxDiscountMinor: null }),
        row("HIDDEN", { isFeatured: false }),
        row("OFF", { status: "disabled" }),
        row("OVER", { endsAt: "2020-01-01T00:00:00.000Z" }),
        row("ELSEWHERE", { appId: B }),
      ])
      .returning();
    ids = rows.slice(0, 2).map((r) => r.id);
  });

  it("lists the store's usable featured vouchers, as the commerce checkout does", async () => {
    const res = await call(FEATURED, { appId: A, token: customer });
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(schemaErrors("listMealFeaturedVouchers", page)).toEqual([]);
    expect(page.results.map((v: { id: number }) => v.id)).toEqual(ids);
    expect(page.results[1]).toMatchObject({ code: "MEALS20", kind: "fixed", value: 20 });
    const commerce = await json(await call("/order/v1/checkout/featured-vouchers/", { appId: A, token: customer }));
    expect(page.results).toEqual(commerce.results);
    const second = await json(await call(`${FEATURED}?page_size=1&page=2`, { appId: A, token: customer }));
    expect(second).toMatchObject({ count: 2, next: null });
    expect(second.results[0].code).toBe("MEALS20");
  });

  it("needs the customer's token", async () => {
    expect((await call(FEATURED, { appId: A })).status).toBe(401);
    expect((await problem(await call(FEATURED, { appId: A, token: admin }))).code).toBe("wrong_principal");
    expect((await problem(await call(`${FEATURED}?kind=fixed`, { appId: A, token: customer }))).errors).toHaveProperty(
      "kind",
    );
  });
});
