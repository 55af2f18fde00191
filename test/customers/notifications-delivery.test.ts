import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { APP_1, ensureTenant, shardFor } from "../helpers/factories";
import { fcmError, installFakeGoogle, makeServiceAccount } from "./fcm-fake";
import { all, jobWorld, row, texts, withTokens } from "./push-jobs";
import { outboxOf } from "./records-fixtures";

// Stores of this file only: the delivery pipeline, a large segment (notifications.test.ts has 4231 to 4234).
const P1 = 4236;
const BIG = 4235;

afterEach(() => vi.restoreAllMocks());

beforeAll(async () => {
  for (const s of [P1, BIG]) await ensureTenant(s);
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
    await shardFor(APP_1)
      .prepare(
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
