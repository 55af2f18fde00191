import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { StoreDetailsSchema, StoreSchema } from "../../src/modules/platform/stores/schemas";
import { APP_1, createCustomerFor, customerTokenFor, shardFor, tokenFor } from "../helpers/factories";
import { platformCall, platformStore } from "../helpers/platform";
import { call, json, problem } from "../helpers/request";

const ORGS = "/platform/v1/organizations/";
const STORES = "/platform/v1/stores/";

describe("platform auth", () => {
  it("401 without a token, 401 invalid_token for an unknown bearer", async () => {
    const none = await platformCall(ORGS, { token: null });
    expect(none.status).toBe(401);
    expect((await problem(none)).code).toBe("not_authenticated");
    const unknown = await platformCall(ORGS, { token: "not-the-platform-key-0000000000" });
    expect(unknown.status).toBe(401);
    expect((await problem(unknown)).code).toBe("invalid_token");
  });

  it("403 wrong_principal for a merchant token or a customer's access token", async () => {
    const customer = await createCustomerFor(APP_1);
    for (const token of [await tokenFor(APP_1), await customerTokenFor(APP_1, customer.id)]) {
      const res = await platformCall(STORES, { token });
      expect(res.status).toBe(403);
      expect((await problem(res)).code).toBe("wrong_principal");
    }
  });

  it("the platform key grants no store: 401 invalid_token on merchant and customer routes", async () => {
    for (const path of ["/api/v1/dashboard/admin/settings/", "/api/v1/customer/profile/"]) {
      const res = await call(path, { token: env.PLATFORM_API_KEY, appId: APP_1 });
      expect(res.status, path).toBe(401);
      expect((await problem(res)).code).toBe("invalid_token");
    }
  });

  it("503 platform_key_not_set, naming the secret, when the operator has not set it", async () => {
    // A Worker deployed from an older config (the secret is required in wrangler.toml today).
    const res = await platformCall(ORGS, { env: { ...env, PLATFORM_API_KEY: undefined as unknown as string } });
    expect(res.status).toBe(503);
    const body = await problem(res);
    expect(body.code).toBe("platform_key_not_set");
    expect(body.detail).toContain("PLATFORM_API_KEY");
  });
});

describe("organizations", () => {
  it("creates, reads and lists organizations; 404 for an unknown one", async () => {
    const name = `Acme ${crypto.randomUUID()}`;
    const created = await platformCall(ORGS, { method: "POST", body: { name } });
    expect(created.status).toBe(201);
    const org = await json(created);
    expect(org).toEqual({ id: expect.any(Number), name, created_at: expect.any(String), modified_at: org.created_at });
    expect(await json(await platformCall(`${ORGS}${org.id}/`))).toEqual(org);
    const list = await json(await platformCall(`${ORGS}?search=${encodeURIComponent(name)}`));
    expect(list).toMatchObject({ count: 1, results: [org] });
    const missing = await platformCall(`${ORGS}999999999/`);
    expect(missing.status).toBe(404);
    expect((await problem(missing)).code).toBe("organization_not_found");
  });

  it("400 naming the field for a bad body", async () => {
    const res = await platformCall(ORGS, { method: "POST", body: { name: "" } });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty("name");
  });
});

describe("stores", () => {
  it("creates a store with its first settings, in an organization; reads and lists it", async () => {
    const org = await json(await platformCall(ORGS, { method: "POST", body: { name: "Coffee Co" } }));
    const res = await platformCall(STORES, {
      method: "POST",
      body: {
        organization_id: org.id,
        name_en: "Coffee",
        name_ar: "قهوة",
        settings: { currency: "AED", vat_number: "300000000000003", vat_percentage: 5, timezone: "Asia/Dubai" },
      },
    });
    expect(res.status).toBe(201);
    const store = StoreDetailsSchema.strict().parse(await json(res));
    expect(store).toMatchObject({ organization_id: org.id, name_en: "Coffee", status: "active", suspended_at: null });
    expect(store.settings).toMatchObject({
      name_en: "Coffee",
      currency: "AED",
      vat_number: "300000000000003",
      vat_percentage: 5,
      timezone: "Asia/Dubai",
      languages: ["ar", "en"],
    });
    expect(await json(await platformCall(`${STORES}${store.id}/`))).toEqual(store);
    const list = await json(await platformCall(`${STORES}?organization_id=${org.id}`));
    expect(list.count).toBe(1);
    expect(StoreSchema.strict().parse(list.results[0])).toMatchObject({ id: store.id });
  });

  it("404 organization_not_found; 400 for settings it refuses; nothing written", async () => {
    const before = await shardFor(APP_1).prepare("SELECT count(*) AS n FROM apps").first<{ n: number }>();
    const noOrg = await platformCall(STORES, {
      method: "POST",
      body: { organization_id: 999_999_999, name_en: "X", name_ar: "س" },
    });
    expect(noOrg.status).toBe(404);
    expect((await problem(noOrg)).code).toBe("organization_not_found");
    const org = await json(await platformCall(ORGS, { method: "POST", body: { name: "Bad settings" } }));
    const bad = await platformCall(STORES, {
      method: "POST",
      body: { organization_id: org.id, name_en: "X", name_ar: "س", settings: { currency: "KWD", tax: 1 } },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((await problem(bad)).errors ?? {}).sort()).toEqual(["settings.currency", "settings.tax"]);
    const langs = await platformCall(STORES, {
      method: "POST",
      body: { organization_id: org.id, name_en: "X", name_ar: "س", settings: { languages: ["en"] } },
    });
    expect(langs.status).toBe(400);
    expect((await problem(langs)).errors).toHaveProperty("settings.default_lang");
    const after = await shardFor(APP_1).prepare("SELECT count(*) AS n FROM apps").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("404 store_not_found for an unknown store", async () => {
    const res = await platformCall(`${STORES}999999999/`);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("store_not_found");
  });

  it("issues a store's first key: every permission, created by the platform, working at once", async () => {
    const { storeId } = await platformStore();
    const res = await platformCall(`${STORES}${storeId}/api-keys/`, { method: "POST", body: { name: "first" } });
    expect(res.status).toBe(201);
    const key = await json(res);
    expect(key).toMatchObject({ name: "first", created_by: null, status: "active", last_used_at: null });
    expect(key.secret).toMatch(/^cmk_/);
    expect(key.permissions).toContain("can_manage_api_keys");
    expect(key.last_four).toBe(key.secret.slice(-4));
    const settings = await call("/api/v1/dashboard/admin/settings/", { token: key.secret, appId: storeId });
    expect(settings.status).toBe(200);
    const missing = await platformCall(`${STORES}999999999/api-keys/`, { method: "POST", body: { name: "x" } });
    expect(missing.status).toBe(404);
    expect((await problem(missing)).code).toBe("store_not_found");
  });
});
