import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fcmTokens } from "../../src/modules/customers/tables";
import { sharedAuthCases, sharedCustomerAuthCases } from "../helpers/auth-cases";
import { createCustomerFor, customerTokenFor, db, ensureTenant, tokenFor } from "../helpers/factories";
import { countInOneRateWindow } from "../helpers/rate-window";
import { call, json, problem } from "../helpers/request";
import { fcmError, installFakeGoogle, makeServiceAccount } from "./fcm-fake";
import { jobWorld } from "./push-jobs";
import { outboxOf } from "./records-fixtures";

// Stores of this file only: routes, another store, the rate limit, the delivery pipeline.
const N1 = 4231;
const N2 = 4232;
/** The rate limit's stores: one for each attempt at counting within one window of the limiter. */
const RATE = [4233, 4236, 4237];
const P1 = 4234;
const BIG = 4235;
const SEND = "/order/v1/merchant/notifications/send/";
const LIST = "/order/v1/merchant/notifications/";
const texts = { title_en: "Offer", title_ar: "عرض", body_en: "20% off", body_ar: "خصم ٢٠٪" };

afterEach(() => vi.restoreAllMocks());

const row = (q: string, ...binds: unknown[]) =>
  env.DB.prepare(q)
    .bind(...binds)
    .first<Record<string, any>>();
const all = (q: string, ...binds: unknown[]) =>
  env.DB.prepare(q)
    .bind(...binds)
    .all<Record<string, any>>()
    .then((r) => r.results);

async function withTokens(appId: number, n: number, lang: "ar" | "en" = "ar", tokens = 1) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = await createCustomerFor(appId, { lang });
    ids.push(c.id);
    for (let t = 0; t < tokens; t++) {
      await db()
        .insert(fcmTokens)
        .values({ appId, customerId: c.id, token: `tok-${c.id}-${t}-${lang}`, platform: "android" });
    }
  }
  return ids;
}

let merchant: string;
let reader: string;
let n1Customers: number[];
let n2Customer: number;

beforeAll(async () => {
  for (const s of [N1, N2, ...RATE, P1, BIG]) await ensureTenant(s);
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
    expect(limited.headers.get("retry-after")).toBe("60");
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

describe("delivery: push.fanout and push.send through FCM (local fake)", () => {
  it("pushes every device in its customer's language, in jobs of at most 40 pushes, once per OAuth token", async () => {
    const sa = await makeServiceAccount();
    const google = installFakeGoogle(sa);
    const ar = await withTokens(P1, 10, "ar", 3);
    const en = await withTokens(P1, 10, "en", 3);
    const w = jobWorld(P1, { FCM_SERVICE_ACCOUNT: sa.json });
    const { notification_id: id } = await w.send({ customer_ids: [...ar, ...en], ...texts, data: { k: "v" } });
    await w.drain();
    expect(google.problems).toEqual([]);
    expect(w.retried).toEqual([]);
    const sends = w.ran.filter((j) => j.body.job === "push.send");
    expect(sends.length).toBeGreaterThanOrEqual(2);
    for (const j of sends) {
      const payload = j.body.payload as { customer_ids: number[] };
      expect(payload.customer_ids.length * 3).toBeLessThanOrEqual(40);
    }
    expect(google.sent).toHaveLength(60);
    const byToken = new Map(google.sent.map((s) => [s.token, s]));
    expect(byToken.get(`tok-${ar[0]}-0-ar`)).toMatchObject({ title: "عرض", body: "خصم ٢٠٪" });
    expect(byToken.get(`tok-${en[0]}-2-en`)).toMatchObject({
      title: "Offer",
      body: "20% off",
      data: { k: "v", notification_id: String(id) },
    });
    // One exchange, with the assertion Google asks for, signed by the key (the fake checked it).
    expect(google.exchanges).toHaveLength(1);
    const { header, claims } = google.exchanges[0]!;
    expect(header).toMatchObject({ alg: "RS256", typ: "JWT", kid: expect.stringMatching(/^key-/) });
    expect(claims).toMatchObject({
      iss: sa.clientEmail,
      scope: "https://www.googleapis.com/auth/firebase.messaging",
      aud: "https://oauth2.googleapis.com/token",
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(
      await row("SELECT status, recipients_count, push_sent, push_failed FROM notifications WHERE id = ?", id),
    ).toEqual({ status: "sent", recipients_count: 20, push_sent: 60, push_failed: 0 });
    expect((await row("SELECT count(*) AS n FROM customer_notifications WHERE notification_id = ?", id))!.n).toBe(20);
    const done = (await outboxOf(P1, "notification.sent")).filter((e) => e.payload.data.id === id);
    expect(done.map((e) => e.payload.data)).toEqual([
      { id, status: "sent", recipients_count: 20, push_sent: 60, push_failed: 0 },
    ]);
  });

  it("deactivates the tokens FCM reports dead, keeps one refused for its payload, and counts them failed", async () => {
    const sa = await makeServiceAccount();
    const [ok, dead, invalid, mismatch, payload] = await withTokens(P1, 5, "en");
    const badToken = new Map<string, ReturnType<typeof fcmError>>([
      [`tok-${dead}-0-en`, fcmError(404, "UNREGISTERED")],
      [`tok-${invalid}-0-en`, fcmError(400, "INVALID_ARGUMENT")],
      [`tok-${mismatch}-0-en`, fcmError(403, "SENDER_ID_MISMATCH")],
      [
        `tok-${payload}-0-en`,
        fcmError(400, "INVALID_ARGUMENT", [
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [{ field: "message.data[0].value" }],
          },
        ]),
      ],
    ]);
    const google = installFakeGoogle(sa, { answer: (token) => badToken.get(token) });
    const w = jobWorld(P1, { FCM_SERVICE_ACCOUNT: sa.json });
    const { notification_id: id } = await w.send({
      customer_ids: [ok!, dead!, invalid!, mismatch!, payload!],
      ...texts,
    });
    await w.drain();
    expect(google.sent.map((s) => s.token)).toEqual([`tok-${ok}-0-en`]);
    const active = await all(
      "SELECT customer_id, is_active FROM fcm_tokens WHERE app_id = ? AND customer_id IN (?, ?, ?, ?, ?)",
      P1,
      ok,
      dead,
      invalid,
      mismatch,
      payload,
    );
    expect(Object.fromEntries(active.map((r) => [r.customer_id, r.is_active]))).toEqual({
      [ok!]: 1,
      [dead!]: 0,
      [invalid!]: 0,
      [mismatch!]: 0,
      [payload!]: 1,
    });
    expect(await row("SELECT status, push_sent, push_failed FROM notifications WHERE id = ?", id)).toEqual({
      status: "partially_failed",
      push_sent: 1,
      push_failed: 4,
    });
    // Every recipient has it in the app, pushed or not.
    expect((await row("SELECT count(*) AS n FROM customer_notifications WHERE notification_id = ?", id))!.n).toBe(5);
  });

  it(
    "retries 429 and 5xx later with only the pushes that failed, honouring Retry-After; gives " + "up after 5 tries",
    async () => {
      const sa = await makeServiceAccount();
      const [calm, busy, down] = await withTokens(P1, 3, "en");
      const google = installFakeGoogle(sa, {
        answer: (token, attempt) => {
          if (token === `tok-${busy}-0-en` && attempt === 1)
            return { ...fcmError(429, "QUOTA_EXCEEDED"), headers: { "retry-after": "120" } };
          if (token === `tok-${down}-0-en`) return fcmError(503, "UNAVAILABLE");
          return undefined;
        },
      });
      const w = jobWorld(P1, { FCM_SERVICE_ACCOUNT: sa.json });
      const { notification_id: id } = await w.send({ customer_ids: [calm!, busy!, down!], ...texts });
      // The first round: the calm customer is done, the two others wait for their retry.
      await w.drain(2);
      expect(await row("SELECT status, push_sent FROM notifications WHERE id = ?", id)).toEqual({
        status: "sending",
        push_sent: 1,
      });
      expect(await all("SELECT customer_id FROM customer_notifications WHERE notification_id = ?", id)).toEqual([
        { customer_id: calm },
      ]);
      const retry = w.queued[0]!;
      expect(retry.body.payload).toMatchObject({ customer_ids: [busy, down], attempt: 2 });
      expect(retry.delaySeconds).toBe(120);
      await w.drain();
      expect(google.attempts.get(`tok-${down}-0-en`)).toBe(5);
      expect(google.attempts.get(`tok-${calm}-0-en`)).toBe(1);
      expect(await row("SELECT status, push_sent, push_failed FROM notifications WHERE id = ?", id)).toEqual({
        status: "partially_failed",
        push_sent: 2,
        push_failed: 1,
      });
      expect((await row("SELECT is_active FROM fcm_tokens WHERE token = ?", `tok-${down}-0-en`))!.is_active).toBe(1);
    },
  );

  it("refused credentials send nothing and retry; a short-lived access token is not reused", async () => {
    const sa = await makeServiceAccount();
    const [c] = await withTokens(P1, 1, "en");
    const refused = installFakeGoogle(sa, { refuseGrant: true });
    const w = jobWorld(P1, { FCM_SERVICE_ACCOUNT: sa.json });
    const { notification_id: id } = await w.send({ customer_ids: [c!], ...texts });
    await w.drain(2);
    expect(refused.sent).toEqual([]);
    expect(w.queued[0]!.body.payload).toMatchObject({ customer_ids: [c], attempt: 2 });
    expect(await row("SELECT status, push_sent, push_failed FROM notifications WHERE id = ?", id)).toEqual({
      status: "sending",
      push_sent: 0,
      push_failed: 0,
    });
    refused.restore();
    // Granted now, but for 30 s only (under the minute of margin): each push exchanges anew.
    const granted = installFakeGoogle(sa, { expiresIn: 30 });
    await w.drain();
    expect(granted.sent).toHaveLength(1);
    expect(await row("SELECT status FROM notifications WHERE id = ?", id)).toEqual({ status: "sent" });
    const again = await w.send({ customer_ids: [c!], ...texts });
    await w.drain();
    expect(granted.exchanges).toHaveLength(2);
    expect((await row("SELECT status FROM notifications WHERE id = ?", again.notification_id))!.status).toBe("sent");
  });

  it("walks a large segment 1000 customers a job, and completes with the exact count", async () => {
    await env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 1001)
       INSERT INTO customers (app_id, country_code, mobile_number, username)
       SELECT ?, '966', '96650' || printf('%07d', n), '050' || printf('%07d', n) FROM seq`,
    )
      .bind(BIG)
      .run();
    const w = jobWorld(BIG);
    const sent = await w.send({ segment: "all", ...texts });
    expect(sent.recipients_count).toBe(1001);
    await w.drain();
    expect(w.ran.filter((j) => j.body.job === "push.fanout")).toHaveLength(2);
    expect(w.ran.filter((j) => j.body.job === "push.send")).toHaveLength(3);
    expect(await row("SELECT status, recipients_count FROM notifications WHERE id = ?", sent.notification_id)).toEqual({
      status: "sent",
      recipients_count: 1001,
    });
    const n = await row(
      "SELECT count(*) AS n FROM customer_notifications WHERE notification_id = ?",
      sent.notification_id,
    );
    expect(n!.n).toBe(1001);
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
