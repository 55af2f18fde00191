import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sharedAuthCases, sharedCustomerAuthCases } from "../helpers/auth-cases";
import { createCustomerFor, customerTokenFor, ensureTenant, tokenFor } from "../helpers/factories";
import { countInOneRateWindow } from "../helpers/rate-window";
import { call, json, problem } from "../helpers/request";
import { all, jobWorld, row, texts, withTokens } from "./push-jobs";

// Stores of this file only: routes, another store, the rate limit, received notifications.
const N1 = 4231;
const N2 = 4232;
/** The rate limit's stores: one for each attempt at counting within one window of the limiter. */
const RATE = [4233, 4238, 4239];
const P1 = 4234;
const SEND = "/order/v1/merchant/notifications/send/";
const LIST = "/order/v1/merchant/notifications/";

afterEach(() => vi.restoreAllMocks());

let merchant: string;
let reader: string;
let n1Customers: number[];
let n2Customer: number;

beforeAll(async () => {
  for (const s of [N1, N2, ...RATE, P1]) await ensureTenant(s);
  merchant = await tokenFor(N1, ["can_write_order", "can_read_order"]);
  reader = await tokenFor(N1, ["can_read_order"]);
  n1Customers = await withTokens(N1, 2, "en");
  n2Customer = (await createCustomerFor(N2, { name: "B-PRIVATE" })).id;
});

sharedAuthCases({ method: "POST", path: SEND, permission: "can_write_order", body: { segment: "all", ...texts } });
sharedAuthCases({ method: "GET", path: LIST, permission: "can_read_order" });
sharedCustomerAuthCases({ method: "GET", path: "/api/v1/customer/notifications/" });

describe("MN1 Send Notification (the route)", () => {
  const send = (body: unknown, appId = N1, token = merchant) => call(SEND, { method: "POST", token, appId, body });

  it(
    "202 with the notification's id, its recipients counted and status queued; the sending " +
      "completes in the background",
    async () => {
      const res = await send({ customer_ids: n1Customers, ...texts, data: { deep_link: "app://offers/1" } });
      expect(res.status).toBe(202);
      const body = await json(res);
      expect(body).toEqual({ notification_id: expect.any(Number), recipients_count: 2, status: "queued" });
      // The JOBS consumer runs in the test runtime too (development: the console pusher): waited for
      // until the sending ends, however long the queue takes on a busy machine (the test's timeout).
      const details = await vi.waitUntil(
        async () => {
          const d = await json(await call(`${LIST}${body.notification_id}/`, { token: reader, appId: N1 }));
          return d.status !== "queued" && d.status !== "sending" && d;
        },
        { timeout: 55_000, interval: 100 },
      );
      expect(details).toMatchObject({
        id: body.notification_id,
        ...texts,
        data: { deep_link: "app://offers/1" },
        audience: { customer_ids: n1Customers },
        status: "sent",
        recipients_count: 2,
        push_sent: 2,
        push_failed: 0,
      });
      const received = await json(
        await call("/api/v1/customer/notifications/", {
          token: await customerTokenFor(N1, n1Customers[0]!),
          appId: N1,
        }),
      );
      expect(received.results[0]).toMatchObject({ notification_id: body.notification_id, ...texts, is_read: false });
    },
  );

  it("400 naming the field for a bad audience or texts, before anything is stored", async () => {
    const before = (await row("SELECT count(*) AS n FROM notifications WHERE app_id = ?", N1))!.n;
    const cases: [unknown, string][] = [
      [{ ...texts }, "customer_ids"],
      [{ customer_ids: [1], segment: "all", ...texts }, "segment"],
      [{ customer_ids: [], ...texts }, "customer_ids"],
      [{ customer_ids: [1, 1], ...texts }, "customer_ids"],
      [{ customer_ids: Array.from({ length: 1001 }, (_, i) => i + 1), ...texts }, "customer_ids"],
      [{ segment: "vip", ...texts }, "segment"],
      [{ segment: { city_id: 999999 }, ...texts }, "segment.city_id"],
      [{ segment: "all", ...texts, title_en: "x".repeat(101) }, "title_en"],
      [{ segment: "all", ...texts, body_ar: "" }, "body_ar"],
      [{ segment: "all", ...texts, data: { n: 1 } }, "data.n"],
      [{ segment: "all", ...texts, data: { from: "x" } }, "data.from"],
      [{ segment: "all", ...texts, data: { google_x: "x" } }, "data.google_x"],
      [{ segment: "all", ...texts, data: { big: "x".repeat(1025) } }, "data.big"],
      // Another store's customer is named as for an id that does not exist.
      [{ customer_ids: [n1Customers[0], n2Customer], ...texts }, "customer_ids"],
    ];
    for (const [body, field] of cases) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const p = await problem(res);
      expect(p.errors, JSON.stringify(body).slice(0, 80)).toHaveProperty([field]);
      expect(JSON.stringify(p)).not.toContain("B-PRIVATE");
    }
    expect((await row("SELECT count(*) AS n FROM notifications WHERE app_id = ?", N1))!.n).toBe(before);
  });

  it("a segment by city counts the customers whose current city it is", async () => {
    const inJeddah = await createCustomerFor(N2, { currentCityId: 2 });
    const res = await send({ segment: { city_id: 2 }, ...texts }, N2, await tokenFor(N2, ["can_write_order"]));
    expect(res.status).toBe(202);
    expect((await json(res)).recipients_count).toBe(1);
    expect(inJeddah.id).toBeGreaterThan(0);
  });

  it("429 with Retry-After after 10 sends a minute for one store; other stores are not affected", async () => {
    const { statuses, limited } = await countInOneRateWindow(async (attempt) => {
      const token = await tokenFor(RATE[attempt]!, ["can_write_order"]);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await send({ segment: "all", ...texts }, RATE[attempt], token)).status);
      return { statuses, limited: await send({ segment: "all", ...texts }, RATE[attempt], token) };
    });
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(limited.status).toBe(429);
    // Seconds to the end of the store's window, which its first send opened.
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit")).toMatch(/"notify";r=0;t=\d+/);
    expect((await problem(limited)).code).toBe("rate_limited");
    expect((await send({ segment: "all", ...texts }, N2, await tokenFor(N2, ["can_write_order"]))).status).toBe(202);
  });

  it("lists the store's notifications and shows one; another store's id is a 404", async () => {
    const list = await json(await call(`${LIST}?status__in=queued,sending,sent`, { token: reader, appId: N1 }));
    expect(list.count).toBeGreaterThan(0);
    expect(Object.keys(list.results[0]).sort()).toEqual(
      [
        "audience",
        "body_ar",
        "body_en",
        "created_at",
        "data",
        "id",
        "modified_at",
        "push_failed",
        "push_sent",
        "recipients_count",
        "status",
        "title_ar",
        "title_en",
      ].sort(),
    );
    const theirs = (await row("SELECT id FROM notifications WHERE app_id = ? LIMIT 1", N2))!.id;
    const res = await call(`${LIST}${theirs}/`, { token: reader, appId: N1 });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("notification_not_found");
    const filtered = await json(await call(`${LIST}?id=${theirs}`, { token: reader, appId: N1 }));
    expect(filtered.count).toBe(0);
  });
});

describe("CA9 received notifications", () => {
  const INBOX = "/api/v1/customer/notifications/";
  let reem: number;
  let other: number;
  const ids: number[] = [];

  beforeAll(async () => {
    const pair = await withTokens(P1, 2, "ar", 0);
    reem = pair[0]!;
    other = pair[1]!;
    const w = jobWorld(P1);
    for (const title of ["first", "second", "third"]) {
      await w.send({ customer_ids: [reem!, other!], ...texts, title_en: title });
      await w.drain();
    }
    const mine = await all("SELECT id FROM customer_notifications WHERE customer_id = ? ORDER BY id", reem);
    ids.push(...mine.map((r) => r.id));
  });
  const as = async (id: number, path: string, method = "GET") =>
    call(path, { method, appId: P1, token: await customerTokenFor(P1, id) });

  it("lists the customer's own notifications, newest first, paginated, with the shape of the reference", async () => {
    const page = await json(await as(reem, `${INBOX}?page_size=2`));
    expect(page.count).toBe(3);
    expect(page.next).toContain("page=2");
    expect(page.results.map((r: { title_en: string }) => r.title_en)).toEqual(["third", "second"]);
    expect(Object.keys(page.results[0]).sort()).toEqual(
      [
        "body_ar",
        "body_en",
        "created_at",
        "data",
        "id",
        "is_read",
        "modified_at",
        "notification_id",
        "read_at",
        "title_ar",
        "title_en",
      ].sort(),
    );
    expect(page.results.every((r: { id: number }) => ids.includes(r.id))).toBe(true);
  });

  it("marks one read (idempotent: the first read_at stays), filters on is_read, and marks all read", async () => {
    const first = await as(reem, `${INBOX}${ids[0]}/read/`, "POST");
    expect(first.status).toBe(200);
    const read = await json(first);
    expect(read).toMatchObject({ id: ids[0], is_read: true, read_at: expect.any(String) });
    const again = await json(await as(reem, `${INBOX}${ids[0]}/read/`, "POST"));
    expect(again.read_at).toBe(read.read_at);
    const unread = await json(await as(reem, `${INBOX}?is_read=false`));
    expect(unread.results.map((r: { id: number }) => r.id).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await json(await as(reem, `${INBOX}?is_read=true`))).count).toBe(1);
    const bad = await as(reem, `${INBOX}?is_read=maybe`);
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("is_read");
    const allRead = await as(reem, `${INBOX}read-all/`, "POST");
    expect(await json(allRead)).toEqual({ updated: 2 });
    expect(await json(await as(reem, `${INBOX}read-all/`, "POST"))).toEqual({ updated: 0 });
    // The other customer's copies are untouched.
    expect((await json(await as(other, `${INBOX}?is_read=false`))).count).toBe(3);
  });

  it("another customer's notification is a 404 and stays unread; a merchant token is 403", async () => {
    const res = await as(other, `${INBOX}${ids[1]}/read/`, "POST");
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("notification_not_found");
    const merchantToken = await tokenFor(P1);
    const wrong = await call(`${INBOX}${ids[1]}/read/`, { method: "POST", appId: P1, token: merchantToken });
    expect(wrong.status).toBe(403);
    expect((await problem(wrong)).code).toBe("wrong_principal");
  });
});

describe("CA9 received notifications: incremental sync", () => {
  const INBOX = "/api/v1/customer/notifications/";
  afterEach(() => vi.useRealTimers());

  it("a read moves modified_at (a second read does not); modified_at__gte and order_by=modified_at see it", async () => {
    const [sara] = await withTokens(P1, 1, "en", 0);
    const w = jobWorld(P1);
    for (const title of ["older", "newer"]) {
      await w.send({ customer_ids: [sara!], ...texts, title_en: title });
      await w.drain();
    }
    const get = async (path: string, method = "GET") =>
      json(await call(path, { method, appId: P1, token: await customerTokenFor(P1, sara!) }));
    const [newer, older] = (await get(INBOX)).results;
    expect(older.title_en).toBe("older");
    // An hour later (the clock only), the older one is read: it alone has changed since.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(newer.modified_at) + 3600_000 });
    const read = await get(`${INBOX}${older.id}/read/`, "POST");
    expect(read.modified_at > newer.modified_at).toBe(true);
    expect(read.modified_at).toBe(read.read_at);
    const since = await get(`${INBOX}?modified_at__gte=${read.modified_at}&order_by=modified_at`);
    expect(since.results.map((r: { id: number }) => r.id)).toEqual([older.id]);
    const ordered = await get(`${INBOX}?order_by=-modified_at`);
    expect(ordered.results.map((r: { id: number }) => r.id)).toEqual([older.id, newer.id]);
    // Read again later: nothing changed, so modified_at stays.
    vi.setSystemTime(Date.parse(read.modified_at) + 60_000);
    expect((await get(`${INBOX}${older.id}/read/`, "POST")).modified_at).toBe(read.modified_at);
    // Read all: the other one moves to that time.
    await get(`${INBOX}read-all/`, "POST");
    const after = await get(`${INBOX}?modified_at__gt=${read.modified_at}`);
    expect(after.results).toEqual([expect.objectContaining({ id: newer.id, is_read: true })]);
    expect(after.results[0].modified_at).toBe(new Date(Date.parse(read.modified_at) + 60_000).toISOString());
    // Nothing is deleted through the API: no include_deleted here.
    const bad = await call(`${INBOX}?include_deleted=true`, { appId: P1, token: await customerTokenFor(P1, sara!) });
    expect(bad.status).toBe(400);
  });
});
