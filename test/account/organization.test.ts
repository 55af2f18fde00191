import { describe, expect, it } from "vitest";
import { OrganizationConfigSchema } from "../../src/modules/account/organization/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, ensureTenant, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

const CONFIG = "/api/v1/dashboard/admin/organization/config/";
const SETTINGS = "/api/v1/dashboard/admin/settings/";

describe("Organization Config (MA6)", () => {
  it("answers the organization, its apps and the store's settings", async () => {
    const token = await tokenFor(APP_1, ["can_retrieve_app_config"]);
    const res = await call(CONFIG, { token, appId: APP_1, orgId: 1 });
    expect(res.status).toBe(200);
    expect(OrganizationConfigSchema.strict().parse(await json(res))).toEqual({
      organization: { id: 1, name: "Demo org", created_at: "2026-01-01T00:00:00.000Z" },
      apps: [{ id: 1, name_en: "Demo store", name_ar: "المتجر التجريبي" }],
      apps_count: 1,
      app_id: 1,
      settings: { currency: "SAR", default_lang: "ar", languages: ["ar", "en"], timezone: "Asia/Riyadh" },
    });
  });

  it("lists every app of the organization, and the settings of the store in app-id", async () => {
    await ensureTenant(500);
    // A second store of organization 500, on the same shard (Organization Config lists the shard's).
    await ensureTenant(501, "SHARD_1", { org: "Org 500", en: "Second", ar: "الثاني" }, 500);
    const token = await tokenFor(501, ["can_retrieve_app_config", "can_update_app_config"]);
    const update = await call(SETTINGS, {
      method: "PATCH",
      token,
      appId: 501,
      body: { currency: "EGP", timezone: "Africa/Cairo", languages: ["en"], default_lang: "en" },
    });
    expect(update.status).toBe(200);
    const res = await call(CONFIG, { token, appId: 501, orgId: 500 });
    expect(await json(res)).toEqual({
      organization: { id: 500, name: "Org 500", created_at: expect.any(String) },
      apps: [
        { id: 500, name_en: "Store 500", name_ar: "متجر 500" },
        { id: 501, name_en: "Second", name_ar: "الثاني" },
      ],
      apps_count: 2,
      app_id: 501,
      settings: { currency: "EGP", default_lang: "en", languages: ["en"], timezone: "Africa/Cairo" },
    });
  });

  it("400 missing_org_id without org-id; 403 wrong_organization for an org that does not own the app", async () => {
    const token = await tokenFor(APP_1, ["can_retrieve_app_config"]);
    const missing = await call(CONFIG, { token, appId: APP_1 });
    expect(missing.status).toBe(400);
    expect((await problem(missing)).code).toBe("missing_org_id");
    const wrong = await call(CONFIG, { token, appId: APP_1, orgId: 2 });
    expect(wrong.status).toBe(403);
    expect((await problem(wrong)).code).toBe("wrong_organization");
  });

  sharedAuthCases({ method: "GET", path: CONFIG, permission: "can_retrieve_app_config", org: true });
});
