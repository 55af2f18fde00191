import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { StoreDetailsSchema, StoreSchema } from "../../src/modules/platform/stores/schemas";
import { platformCall } from "../helpers/platform";
import { pageIds as ids, json, problem } from "../helpers/request";

// Incremental sync of the platform's lists (docs/interface-decisions.md, "Lists: incremental sync"),
// under a fixed clock: each change's time is the one set, whatever the machine's pace.
const ORGS = "/platform/v1/organizations/";
const STORES = "/platform/v1/stores/";
const T1 = "2026-05-01T08:00:00.000Z";
const T2 = "2026-05-01T09:00:00.000Z";
const T3 = "2026-05-01T10:00:00.000Z";

afterEach(() => setClock(null));

const since = (at: string) => `modified_at__gte=${encodeURIComponent(at)}&order_by=modified_at`;

async function organization(name: string) {
  const res = await platformCall(ORGS, { method: "POST", body: { name } });
  expect(res.status).toBe(201);
  return json(res);
}

async function store(orgId: number, name: string) {
  const res = await platformCall(STORES, {
    method: "POST",
    body: { organization_id: orgId, name_en: name, name_ar: name },
  });
  expect(res.status).toBe(201);
  return StoreDetailsSchema.strict().parse(await json(res));
}

describe("List Stores syncs on modified_at", () => {
  it("a suspension and a reactivation move the store's modified_at, in the list and its details alike", async () => {
    setClock(T1);
    const org = await organization(`Sync stores ${crypto.randomUUID()}`);
    const changed = await store(org.id, "Changed");
    const unchanged = await store(org.id, "Unchanged");
    expect([changed.modified_at, unchanged.modified_at]).toEqual([T1, T1]);

    setClock(T2);
    const suspended = await platformCall(`${STORES}${changed.id}/suspend/`, {
      method: "POST",
      body: { reason: "Review" },
    });
    expect(await json(suspended)).toMatchObject({ status: "suspended", suspended_at: T2, modified_at: T2 });
    const page = await json(await platformCall(`${STORES}?organization_id=${org.id}&${since(T2)}`));
    expect(ids(page)).toEqual([changed.id]);
    expect(StoreSchema.strict().parse(page.results[0])).toMatchObject({ status: "suspended", modified_at: T2 });
    expect(await json(await platformCall(`${STORES}${changed.id}/`))).toMatchObject({ modified_at: T2 });

    setClock(T3);
    const active = await platformCall(`${STORES}${changed.id}/reactivate/`, { method: "POST" });
    expect(await json(active)).toMatchObject({ status: "active", modified_at: T3 });
    const all = await json(await platformCall(`${STORES}?organization_id=${org.id}&order_by=-modified_at`));
    expect(all.results.map((s: { id: number; modified_at: string }) => [s.id, s.modified_at])).toEqual([
      [changed.id, T3],
      [unchanged.id, T1],
    ]);
    expect(ids(await json(await platformCall(`${STORES}?organization_id=${org.id}&${since(T3)}`)))).toEqual([
      changed.id,
    ]);
    expect(await json(await platformCall(`${STORES}${changed.id}/`))).toMatchObject({ modified_at: T3 });
  });

  it("a refused suspension moves nothing", async () => {
    setClock(T1);
    const org = await organization(`Sync refused ${crypto.randomUUID()}`);
    const active = await store(org.id, "Active");
    setClock(T2);
    const refused = await platformCall(`${STORES}${active.id}/reactivate/`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(await json(await platformCall(`${STORES}${active.id}/`))).toMatchObject({ modified_at: T1 });
    expect((await json(await platformCall(`${STORES}?organization_id=${org.id}&${since(T2)}`))).count).toBe(0);
  });

  it("stores are never deleted: include_deleted is an unknown parameter", async () => {
    const res = await platformCall(`${STORES}?include_deleted=true`);
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty("include_deleted");
  });
});

describe("List Organizations syncs on modified_at", () => {
  it("a new organization comes after the time asked, an older one does not", async () => {
    const name = `Sync orgs ${crypto.randomUUID()}`;
    setClock(T1);
    const older = await organization(`${name} older`);
    expect(older).toEqual({ id: older.id, name: `${name} older`, created_at: T1, modified_at: T1 });
    setClock(T2);
    const newer = await organization(`${name} newer`);
    expect(newer.modified_at).toBe(T2);
    expect(await json(await platformCall(`${ORGS}${newer.id}/`))).toEqual(newer);

    const search = `search=${encodeURIComponent(name)}`;
    expect(ids(await json(await platformCall(`${ORGS}?${search}&${since(T2)}`)))).toEqual([newer.id]);
    expect(ids(await json(await platformCall(`${ORGS}?${search}&order_by=-modified_at`)))).toEqual([
      newer.id,
      older.id,
    ]);
  });

  it("organizations are never deleted: include_deleted is an unknown parameter", async () => {
    const res = await platformCall(`${ORGS}?include_deleted=true`);
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty("include_deleted");
  });
});
