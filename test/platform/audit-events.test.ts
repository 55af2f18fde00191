import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { copyPlatformAudit } from "../../src/db/platform-audit";
import { AuditEventListSchema, AuditEventSchema } from "../../src/modules/account";
import { keyFor } from "../helpers/audit";
import { APP_1, createCustomerFor, customerTokenFor, shardFor, shardNameFor } from "../helpers/factories";
import { platformCall } from "../helpers/platform";
import { call, callWaits, json, problem } from "../helpers/request";

// The platform's changes in the audit trail (organizations and stores created, stores suspended and
// reactivated), and the platform's own list of them.

const ORGS = "/platform/v1/organizations/";
const STORES = "/platform/v1/stores/";
const EVENTS = "/platform/v1/audit-events/";

const list = async (query: string) => {
  const res = await platformCall(`${EVENTS}${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return AuditEventListSchema.parse(await json(res));
};
const byRequest = async (res: Response) => (await list(`?request_id=${res.headers.get("x-request-id")}`)).results;

describe("Audit trail of the platform's changes", () => {
  it("records an organization created (of no store) and a store created, by the platform", async () => {
    const orgRes = await platformCall(ORGS, { method: "POST", body: { name: `Audited ${crypto.randomUUID()}` } });
    const org = await json(orgRes);
    expect(await byRequest(orgRes)).toEqual([
      expect.objectContaining({
        app_id: null,
        actor_type: "platform",
        actor_id: null,
        action: "organization.created",
        resource_type: "organization",
        resource_id: String(org.id),
        before: null,
        after: { id: org.id, name: org.name, created_at: org.created_at },
      }),
    ]);
    const storeRes = await platformCall(STORES, {
      method: "POST",
      body: { organization_id: org.id, name_en: "Audited", name_ar: "مدقق" },
    });
    expect(storeRes.status).toBe(201);
    const store = await json(storeRes);
    expect(await byRequest(storeRes)).toEqual([
      expect.objectContaining({
        app_id: store.id,
        actor_type: "platform",
        action: "store.created",
        resource_type: "store",
        resource_id: String(store.id),
        before: null,
        after: {
          id: store.id,
          organization_id: org.id,
          name_en: "Audited",
          name_ar: "مدقق",
          status: "active",
          suspended_at: null,
          suspension_reason: null,
        },
      }),
    ]);
  });

  it("records a suspension and a reactivation, status and reason before and after; a 409 records nothing", async () => {
    const org = await json(await platformCall(ORGS, { method: "POST", body: { name: "Suspended Co" } }));
    const store = await json(
      await platformCall(STORES, { method: "POST", body: { organization_id: org.id, name_en: "S", name_ar: "س" } }),
    );
    const suspend = await platformCall(`${STORES}${store.id}/suspend/`, { method: "POST", body: { reason: "unpaid" } });
    expect(suspend.status).toBe(200);
    const [suspended] = await byRequest(suspend);
    expect(suspended).toMatchObject({
      app_id: store.id,
      action: "store.suspended",
      before: { status: "active", suspended_at: null, suspension_reason: null },
      after: { status: "suspended", suspended_at: expect.any(String), suspension_reason: "unpaid" },
    });
    const again = await platformCall(`${STORES}${store.id}/suspend/`, { method: "POST", body: { reason: "x" } });
    expect(again.status).toBe(409);
    expect(await byRequest(again)).toEqual([]);
    const reactivate = await platformCall(`${STORES}${store.id}/reactivate/`, { method: "POST" });
    expect(reactivate.status).toBe(200);
    const [reactivated] = await byRequest(reactivate);
    expect(reactivated).toMatchObject({
      action: "store.reactivated",
      before: { status: "suspended", suspension_reason: "unpaid" },
      after: { status: "active", suspended_at: null, suspension_reason: null },
    });
    // Filtered by store and action, newest first.
    const rows = (await list(`?app_id=${store.id}&action=store.suspended`)).results;
    expect(rows.map((r) => r.id)).toEqual([suspended!.id]);
    const all = (await list(`?app_id=${store.id}`)).results.map((r) => r.action);
    expect(all).toEqual(["store.reactivated", "store.suspended", "store.created"]);
  });

  it("a refused create records nothing: an unknown organization (404), bad settings (400)", async () => {
    const count = () => shardFor(APP_1).prepare("SELECT count(*) AS n FROM audit_events").first<{ n: number }>();
    const before = (await count())!.n;
    const noOrg = await platformCall(STORES, {
      method: "POST",
      body: { organization_id: 999_999_999, name_en: "X", name_ar: "س" },
    });
    expect(noOrg.status).toBe(404);
    const bad = await platformCall(ORGS, { method: "POST", body: { name: "" } });
    expect(bad.status).toBe(400);
    expect((await count())!.n).toBe(before);
  });
});

describe("List Platform Audit Events and Platform Audit Event Details", () => {
  it("lists the platform's rows only, paginated, filtered by created_at and actor_type; one read", async () => {
    const org = await json(await platformCall(ORGS, { method: "POST", body: { name: "Listed" } }));
    // A store's own change, made with its key, is not the platform's.
    const key = await keyFor(APP_1, ["can_update_app_config", "can_retrieve_app_config"]);
    const patched = await call("/api/v1/dashboard/admin/settings/", {
      method: "PATCH",
      token: key.token,
      appId: APP_1,
      body: { address: `Platform list ${crypto.randomUUID()}` },
    });
    expect(patched.status).toBe(200);
    const page = await list(`?created_at__gte=${encodeURIComponent(org.created_at)}&page_size=1`);
    expect(page.results).toHaveLength(1);
    expect(page.count).toBeGreaterThanOrEqual(1);
    const every = (await list(`?created_at__gte=${encodeURIComponent(org.created_at)}&page_size=100`)).results;
    expect(every.every((r) => r.actor_type === "platform")).toBe(true);
    expect(every.map((r) => r.resource_id)).toContain(String(org.id));
    expect((await list("?actor_type=api_key")).count).toBe(0);
    const bad = await platformCall(`${EVENTS}?actor_type=robot`);
    expect(bad.status).toBe(400);
    expect((await problem(bad)).code).toBe("validation_error");
    const { waits } = await callWaits(EVENTS, { token: env.PLATFORM_API_KEY, appId: null });
    expect(waits.beyondAuth).toBeLessThanOrEqual(1);
  });

  it("reads one row; 404 for a row a merchant key made and for an unknown id", async () => {
    const orgRes = await platformCall(ORGS, { method: "POST", body: { name: "Read one" } });
    const [row] = await byRequest(orgRes);
    const one = await platformCall(`${EVENTS}${row!.id}/`);
    expect(one.status).toBe(200);
    expect(AuditEventSchema.strict().parse(await json(one))).toEqual(row);
    const key = await keyFor(APP_1, ["can_update_app_config", "can_retrieve_app_config"]);
    const patched = await call("/api/v1/dashboard/admin/settings/", {
      method: "PATCH",
      token: key.token,
      appId: APP_1,
      body: { address: `Merchant row ${crypto.randomUUID()}` },
    });
    // The merchant's row is on its shard, and never copied to the platform's trail.
    const merchantRequest = patched.headers.get("x-request-id");
    const merchantRow = await shardFor(APP_1)
      .prepare("SELECT id FROM audit_events WHERE request_id = ?")
      .bind(merchantRequest)
      .first<{ id: number }>();
    expect(merchantRow).not.toBeNull();
    await copyPlatformAudit(env, shardNameFor(APP_1));
    expect((await list(`?request_id=${merchantRequest}`)).count).toBe(0);
    const res = await platformCall(`${EVENTS}999999999/`);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("audit_event_not_found");
  });

  it("refuses merchant and customer tokens (403 wrong_principal) and no token (401)", async () => {
    const customer = await createCustomerFor(APP_1);
    const merchant = await keyFor(APP_1, ["can_read_audit_log"]);
    for (const token of [merchant.token, await customerTokenFor(APP_1, customer.id)]) {
      for (const path of [EVENTS, `${EVENTS}1/`]) {
        const res = await platformCall(path, { token });
        expect(res.status).toBe(403);
        expect((await problem(res)).code).toBe("wrong_principal");
      }
    }
    const none = await platformCall(EVENTS, { token: null });
    expect(none.status).toBe(401);
  });
});
