import { beforeAll, describe, expect, it } from "vitest";
import { AuditEventListSchema, AuditEventSchema } from "../../src/modules/account";
import { auditRowsOf, keyFor } from "../helpers/audit";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, APP_2, shardFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, callWaits, json, problem } from "../helpers/request";

// The audit trail of the store's settings and bank accounts, and the list a store reads it with.

const EVENTS = "/api/v1/dashboard/admin/audit-events/";
const SETTINGS = "/api/v1/dashboard/admin/settings/";
const ACCOUNTS = "/api/v1/dashboard/admin/bank-accounts/";
const SA_1 = "SA4420000001234567891234";
const SA_2 = "SA0380000000608010167519";
const CONFIG = ["can_retrieve_app_config", "can_update_app_config"] as const;

let writer: { id: number; token: string };
let other: { id: number; token: string };
let reader: string;
const as = (k: { token: string }, appId = APP_1) => ({
  send: (path: string, method = "GET", body?: unknown) => callWaits(path, { method, token: k.token, appId, body }),
});
const account = (iban: string, extra: Record<string, unknown> = {}) => ({
  bank_name_en: "Al Rajhi Bank",
  bank_name_ar: "مصرف الراجحي",
  account_holder: "Demo Trading Co.",
  iban,
  ...extra,
});
const list = async (query = "", token = reader, appId = APP_1) => {
  const res = await call(`${EVENTS}${query}`, { token, appId });
  expect(res.status, await res.clone().text()).toBe(200);
  return AuditEventListSchema.parse(await json(res));
};

beforeAll(async () => {
  writer = await keyFor(APP_1, [...CONFIG]);
  other = await keyFor(APP_1, [...CONFIG]);
  reader = (await keyFor(APP_1, ["can_read_audit_log"])).token;
});

describe("Audit trail of the settings", () => {
  it("records the fields that changed, before and after, under the same guard as the update", async () => {
    const { res } = await as(writer).send(SETTINGS, "PATCH", { vat_percentage: 5, address: "Riyadh" });
    expect(res.status).toBe(200);
    const rows = await auditRowsOf(APP_1, "settings.");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_type: "api_key",
      actor_id: writer.id,
      action: "settings.updated",
      resource_type: "settings",
      resource_id: String(APP_1),
      request_id: res.headers.get("x-request-id"),
      before: { vat_percentage: 15, address: null },
      after: { vat_percentage: 5, address: "Riyadh" },
    });
    // Nothing changed: nothing written, nothing recorded.
    expect((await as(writer).send(SETTINGS, "PATCH", { vat_percentage: 5 })).res.status).toBe(200);
    // Refused (400): nothing recorded.
    expect((await as(writer).send(SETTINGS, "PATCH", { default_lang: "fr" })).res.status).toBe(400);
    expect((await as(writer).send(SETTINGS, "PATCH", { languages: ["en"] })).res.status).toBe(400);
    expect(await auditRowsOf(APP_1, "settings.")).toHaveLength(1);
  });
});

describe("Audit trail of bank accounts", () => {
  it("records a create, an update that moves the default (a row per account), and a delete; never the IBAN", async () => {
    const first = await json((await as(writer).send(ACCOUNTS, "POST", account(SA_1))).res);
    const { res } = await as(other).send(ACCOUNTS, "POST", account(SA_2, { is_default: true }));
    expect(res.status).toBe(201);
    const second = await json(res);
    const upd = await as(writer).send(`${ACCOUNTS}${second.id}/`, "PATCH", { account_holder: "New Holder" });
    expect(upd.res.status).toBe(200);
    expect(upd.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await as(writer).send(`${ACCOUNTS}${first.id}/`, "DELETE")).res.status).toBe(204);

    const rows = await auditRowsOf(APP_1, "bank_account.");
    for (const r of rows) for (const iban of [SA_1, SA_2]) expect(r.text).not.toContain(iban.slice(4, 20));
    expect(rows.map((r) => [r.action, r.resource_id, r.actor_id])).toEqual([
      ["bank_account.created", String(first.id), writer.id],
      // The second account takes the default from the first: both changes are recorded.
      ["bank_account.updated", String(first.id), other.id],
      ["bank_account.created", String(second.id), other.id],
      ["bank_account.updated", String(second.id), writer.id],
      ["bank_account.deleted", String(first.id), writer.id],
    ]);
    const [created, lostDefault, , updated, deleted] = rows;
    expect(created).toMatchObject({ before: null, after: { iban_last4: "1234", is_default: true, status: "active" } });
    expect(lostDefault!.before).toMatchObject({ is_default: true });
    expect(lostDefault!.after).toMatchObject({ is_default: false });
    expect(updated!.before).toMatchObject({ account_holder: "Demo Trading Co.", iban_last4: "7519" });
    expect(updated!.after).toMatchObject({ account_holder: "New Holder", iban_last4: "7519" });
    expect(deleted).toMatchObject({ before: { account_holder: "Demo Trading Co." }, after: null });
    // The rows of one request share its id.
    expect(lostDefault!.request_id).toBe(rows[2]!.request_id);
  });

  it("a refused change records nothing: a taken IBAN (409), an unknown account (404), bad input (400)", async () => {
    const before = (await auditRowsOf(APP_1)).length;
    const statuses = [
      (await as(writer).send(ACCOUNTS, "POST", account(SA_2))).res.status,
      (await as(writer).send(`${ACCOUNTS}999999/`, "PATCH", { account_holder: "X" })).res.status,
      (await as(writer).send(`${ACCOUNTS}999999/`, "DELETE")).res.status,
      (await as(writer).send(ACCOUNTS, "POST", account("SA4420000001234567891235"))).res.status,
    ];
    expect(statuses).toEqual([409, 404, 404, 400]);
    expect((await auditRowsOf(APP_1)).length).toBe(before);
  });
});

describe("List Audit Events and Audit Event Details", () => {
  beforeAll(async () => {
    // Store 2 has rows of its own, which store 1 never sees.
    const key2 = await keyFor(APP_2, [...CONFIG]);
    expect((await as(key2, APP_2).send(SETTINGS, "PATCH", { address: "Jeddah" })).res.status).toBe(200);
  });

  it("answers the store's rows newest first, in the list envelope", async () => {
    const page = await list();
    const stored = (await auditRowsOf(APP_1)).reverse();
    expect(page.count).toBe(stored.length);
    expect(page.results.map((r) => r.id)).toEqual(stored.map((r) => r.id));
    expect(page.results.every((r) => r.app_id === APP_1)).toBe(true);
    const one = await call(`${EVENTS}${stored[0]!.id}/`, { token: reader, appId: APP_1 });
    expect(one.status).toBe(200);
    expect(AuditEventSchema.strict().parse(await json(one))).toEqual(page.results[0]);
  });

  it("filters by action, resource, actor and time; pages", async () => {
    const all = (await auditRowsOf(APP_1)).reverse();
    const byAction = await list("?action=bank_account.created");
    expect(byAction.results.map((r) => r.id)).toEqual(
      all.filter((r) => r.action === "bank_account.created").map((r) => r.id),
    );
    const target = all.find((r) => r.action === "bank_account.deleted")!;
    const byResource = await list(`?resource_type=bank_account&resource_id=${target.resource_id}`);
    expect(byResource.results.map((r) => r.action)).toEqual([
      "bank_account.deleted",
      "bank_account.updated",
      "bank_account.created",
    ]);
    const byActor = await list(`?actor_id=${other.id}`);
    expect(byActor.results.map((r) => r.id)).toEqual(all.filter((r) => r.actor_id === other.id).map((r) => r.id));
    const since = all[1]!.created_at;
    const recent = await list(`?created_at__gte=${encodeURIComponent(since)}`);
    expect(recent.results.map((r) => r.id)).toEqual(all.filter((r) => r.created_at >= since).map((r) => r.id));
    const until = await list(`?created_at__lte=${encodeURIComponent(since)}`);
    expect(until.results.map((r) => r.id)).toEqual(all.filter((r) => r.created_at <= since).map((r) => r.id));

    const p1 = await list("?page_size=2");
    const p2 = await list("?page_size=2&page=2");
    expect(p1.count).toBe(all.length);
    expect(p1.next).toContain("page=2");
    expect([...p1.results, ...p2.results].map((r) => r.id)).toEqual(all.slice(0, 4).map((r) => r.id));
  });

  it("refuses an unknown filter (400 naming the allowed), and another store's row (404)", async () => {
    const res = await call(`${EVENTS}?secret=1`, { token: reader, appId: APP_1 });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await problem(res))).toContain("resource_type");
    const theirs = await rowCallerLacks(
      "audit_events",
      APP_1,
      async () =>
        (await shardFor(APP_2)
          .prepare(
            "INSERT INTO audit_events (app_id, actor_type, action, resource_type, resource_id, request_id) " +
              "VALUES (?, 'platform', 'store.updated', 'store', ?, 'req-theirs') RETURNING id",
          )
          .bind(APP_2, String(APP_2))
          .first<{ id: number }>())!,
    );
    const other = await call(`${EVENTS}${theirs!.id}/`, { token: reader, appId: APP_1 });
    expect(other.status).toBe(404);
    expect((await problem(other)).code).toBe("audit_event_not_found");
    expect((await list(`?id=${theirs!.id}`)).results).toEqual([]);
  });

  it("a key with only the configuration's permissions cannot read the trail", async () => {
    const res = await call(EVENTS, { token: writer.token, appId: APP_1 });
    expect(res.status).toBe(403);
    expect((await problem(res)).permission).toBe("can_read_audit_log");
  });
});

sharedAuthCases({ method: "GET", path: EVENTS, permission: "can_read_audit_log" });
sharedAuthCases({ method: "GET", path: `${EVENTS}1/`, permission: "can_read_audit_log" });
