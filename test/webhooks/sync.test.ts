import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { APP_1, APP_2, createWebhookFor, tokenFor } from "../helpers/factories";
import { fakeReceiver } from "../helpers/receiver";
import { call, pageIds as ids, json } from "../helpers/request";
import { consume, deliveryOf, ticketEvent } from "./helpers";

/** List Webhooks as a mirror reads it (docs/interface-decisions.md, "Lists: incremental sync"). */

const BASE = "/api/v1/dashboard/admin/integrations/webhooks/";
let token: string;
const as1 = async (path: string, opts: { method?: string; body?: unknown } = {}) =>
  json(await call(path, { ...opts, token, appId: APP_1, orgId: APP_1 }));

/** The clock (Date only) `ms` after `from`: each change below happens later than the one before. */
const at = (from: string, ms: number) => vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(from) + ms });

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_update_app_config", "can_retrieve_app_config"]);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("List Webhooks: modified_at and include_deleted", () => {
  it("an update, a secret rotation and a delete each move modified_at; the filter and order see them", async () => {
    const a = await createWebhookFor(APP_1);
    const b = await createWebhookFor(APP_1);
    const both = `id__in=${a.id},${b.id}`;
    const [first] = (await as1(`${BASE}?id=${a.id}`)).results;
    expect(first).toMatchObject({ modified_at: a.modifiedAt, is_deleted: false });

    at(a.modifiedAt, 3600_000);
    const updated = await as1(`${BASE}${b.id}/`, { method: "PATCH", body: { events: ["ticket.created"] } });
    expect(updated.modified_at > a.modifiedAt).toBe(true);
    const since = await as1(`${BASE}?${both}&modified_at__gte=${updated.modified_at}&order_by=modified_at`);
    expect(ids(since)).toEqual([b.id]);
    expect(ids(await as1(`${BASE}?${both}&order_by=-modified_at`))).toEqual([b.id, a.id]);

    at(updated.modified_at, 60_000);
    const rotated = await as1(`${BASE}${a.id}/rotate-secret/`, { method: "POST" });
    expect(rotated.modified_at > updated.modified_at).toBe(true);
    expect(ids(await as1(`${BASE}?${both}&order_by=-modified_at`))).toEqual([a.id, b.id]);

    at(rotated.modified_at, 60_000);
    await call(`${BASE}${b.id}/`, { method: "DELETE", token, appId: APP_1, orgId: APP_1 });
    expect(ids(await as1(`${BASE}?${both}`))).toEqual([a.id]);
    const changed = await as1(`${BASE}?${both}&include_deleted=true&modified_at__gt=${rotated.modified_at}`);
    expect(changed.results).toEqual([expect.objectContaining({ id: b.id, is_deleted: true, is_active: false })]);
    expect(changed.results[0].modified_at > rotated.modified_at).toBe(true);
  });

  it("include_deleted shows the store's own deleted webhooks only", async () => {
    const url = `https://sync-${crypto.randomUUID()}.example.org/hook`;
    const mine = await createWebhookFor(APP_1, { url });
    const theirs = await createWebhookFor(APP_2, { url, isDeleted: true, deletedAt: new Date().toISOString() });
    await call(`${BASE}${mine.id}/`, { method: "DELETE", token, appId: APP_1, orgId: APP_1 });
    const page = await as1(`${BASE}?url=${encodeURIComponent(url)}&include_deleted=true`);
    expect(page.results).toEqual([expect.objectContaining({ id: mine.id, is_deleted: true })]);
    expect(ids(page)).not.toContain(theirs.id);
    expect((await as1(`${BASE}?url=${encodeURIComponent(url)}`)).count).toBe(0);
  });

  it("the webhooks Worker turning a webhook off (410 Gone) moves its modified_at", async () => {
    const w = await createWebhookFor(APP_1);
    at(w.modifiedAt, 3600_000);
    fakeReceiver(() => new Response("gone", { status: 410 }));
    await consume(deliveryOf(ticketEvent(), w.id));
    const [off] = (await as1(`${BASE}?id=${w.id}&modified_at__gte=${new Date().toISOString()}`)).results;
    expect(off).toMatchObject({ id: w.id, is_active: false, disabled_reason: "The target answered 410 Gone." });
    expect(off.modified_at).toBe(off.disabled_at);
  });
});
