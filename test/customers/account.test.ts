import { beforeAll, describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../src/core/permissions";
import { customerNotifications, notifications, walletEntries } from "../../src/modules/customers/tables";
import { sharedCustomerAuthCases } from "../helpers/auth-cases";
import { APP_1, createCustomerFor, customerTokenFor, db, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { outboxOf } from "./records-fixtures";

// Stores of this file only.
const S1 = 4211;
const S2 = 4212;
const API = "/api/v1/customer";
const CUSTOMER_FIELDS = [
  "id",
  "country_code",
  "username",
  "mobile_number",
  "email",
  "name",
  "lang",
  "current_city_id",
  "is_email_verified",
  "is_mobile_verified",
  "is_blocked",
  "is_deleted",
  "is_verified",
  "national_id",
  "secondary_mobile_number",
  "date_of_birth",
  "avatar",
  "joined_at",
  "custom_fields",
  "created_at",
  "modified_at",
  "platform_version",
];

type Opts = { method?: string; body?: unknown; appId?: number };
/** A request of customer `id` of store `appId` (S1 by default) with their own access token. */
async function as(id: number, path: string, opts: Opts = {}) {
  const appId = opts.appId ?? S1;
  return call(API + path, { ...opts, appId, token: await customerTokenFor(appId, id) });
}
const row = <T = Record<string, any>>(q: string, ...binds: unknown[]) =>
  shardFor(APP_1)
    .prepare(q)
    .bind(...binds)
    .first<T>();
const rows = (q: string, ...binds: unknown[]) =>
  shardFor(APP_1)
    .prepare(q)
    .bind(...binds)
    .all<Record<string, any>>()
    .then((r) => r.results);

let sara: number;
let omar: number;
let otherStore: number;

beforeAll(async () => {
  await ensureTenant(S1);
  await ensureTenant(S2);
  sara = (await createCustomerFor(S1, { name: "Sara", email: "sara@example.com", isEmailVerified: true })).id;
  omar = (await createCustomerFor(S1, { name: "Omar" })).id;
  otherStore = (await createCustomerFor(S2, { name: "Elsewhere" })).id;
});

sharedCustomerAuthCases({ method: "GET", path: `${API}/profile/` });

describe("CA6 profile", () => {
  it("GET answers the customer of the token, with every field of the customer object", async () => {
    const res = await as(sara, "/profile/");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual([...CUSTOMER_FIELDS].sort());
    expect(body).toMatchObject({ id: sara, name: "Sara", email: "sara@example.com", is_deleted: false });
  });

  it("401 token_revoked for a token naming another store's customer, or no customer", async () => {
    for (const id of [otherStore, 987654321]) {
      const res = await as(id, "/profile/");
      expect(res.status).toBe(401);
      const body = await problem(res);
      expect(body.code).toBe("token_revoked");
      expect(JSON.stringify(body)).not.toContain("Elsewhere");
    }
  });

  it("PATCH changes the given fields, unverifies a new email, and emits customer.updated", async () => {
    const res = await as(sara, "/profile/", {
      method: "PATCH",
      body: {
        name: "Sara Q",
        email: "sara.q@example.com",
        date_of_birth: "1994-03-21",
        secondary_mobile_number: "055 123 4567",
        current_city_id: 1,
        national_id: "1098765432",
        custom_fields: { shirt: "M" },
      },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      id: sara,
      name: "Sara Q",
      email: "sara.q@example.com",
      is_email_verified: false,
      date_of_birth: "1994-03-21",
      secondary_mobile_number: "966551234567",
      current_city_id: 1,
      national_id: "1098765432",
      custom_fields: { shirt: "M" },
    });
    const events = await outboxOf(S1, "customer.updated");
    expect(events.at(-1)!.payload.data).toEqual({ id: sara });
  });

  it(
    "PATCH refuses the mobile number, flags, unknown cities, bad numbers and an empty body " + "(400 naming the field)",
    async () => {
      const cases: [unknown, string][] = [
        [{ mobile_number: "0534501056" }, "mobile_number"],
        [{ is_blocked: false }, "is_blocked"],
        [{ current_city_id: 999999 }, "current_city_id"],
        [{ secondary_mobile_number: "0112345678" }, "secondary_mobile_number"],
        [{ email: "not-an-email" }, "email"],
        [{ date_of_birth: "2999-01-01" }, "date_of_birth"],
        [{ date_of_birth: "0000-01-01" }, "date_of_birth"],
        [{ date_of_birth: "2001-02-29" }, "date_of_birth"],
        [{ name: "\u202b\u202c" }, "name"],
        [{}, "body"],
      ];
      for (const [body, field] of cases) {
        const res = await as(omar, "/profile/", { method: "PATCH", body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await problem(res)).errors, JSON.stringify(body)).toHaveProperty([field]);
      }
      expect((await row("SELECT name FROM customers WHERE id = ?", omar))!.name).toBe("Omar");
    },
  );

  it("PATCH language/ sets lang; anything but ar or en is a 400", async () => {
    const ok = await as(omar, "/profile/language/", { method: "PATCH", body: { lang: "en" } });
    expect(ok.status).toBe(200);
    expect((await json(ok)).lang).toBe("en");
    const bad = await as(omar, "/profile/language/", { method: "PATCH", body: { lang: "fr" } });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("lang");
  });

  it("POST avatar/ records an https URL, null removes it; http is a 400", async () => {
    const url = "https://cdn.example.com/avatars/omar.jpg";
    const set = await as(omar, "/profile/avatar/", { method: "POST", body: { avatar: url } });
    expect(set.status).toBe(200);
    expect((await json(set)).avatar).toBe(url);
    const http = await as(omar, "/profile/avatar/", {
      method: "POST",
      body: { avatar: "http://cdn.example.com/a.jpg" },
    });
    expect(http.status).toBe(400);
    expect((await problem(http)).errors).toHaveProperty("avatar");
    const removed = await as(omar, "/profile/avatar/", { method: "POST", body: { avatar: null } });
    expect((await json(removed)).avatar).toBeNull();
  });

  it("PATCH platform-version/ records the app's version, without an event", async () => {
    const before = (await outboxOf(S1)).length;
    const res = await as(omar, "/profile/platform-version/", {
      method: "PATCH",
      body: { platform_version: "2.4.0 (118)" },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).platform_version).toBe("2.4.0 (118)");
    expect((await outboxOf(S1)).length).toBe(before);
    const bad = await as(omar, "/profile/platform-version/", {
      method: "PATCH",
      body: { platform_version: "<script>" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("CA6 delete account", () => {
  it(
    "erases the personal data, revokes sessions, unregisters devices, deletes locations; " + "keeps the ledger",
    async () => {
      const leaving = await createCustomerFor(S1, {
        name: "Leaving",
        email: "leaving@example.com",
        nationalId: "1012345678",
        dateOfBirth: "1990-01-01",
        avatar: "https://cdn.example.com/a.jpg",
        secondaryMobileNumber: "966551112222",
        customFields: { vip: true },
        currentCityId: 1,
      });
      const id = leaving.id;
      const future = new Date(Date.now() + 86_400_000).toISOString();
      await shardFor(S1).batch([
        shardFor(S1)
          .prepare(
            "INSERT INTO refresh_tokens (app_id, customer_id, family_id, token_hash, expires_at) " +
              "VALUES (?, ?, 'fam', ?, ?)",
          )
          .bind(S1, id, `hash-${id}`, future),
        shardFor(S1)
          .prepare("INSERT INTO fcm_tokens (app_id, customer_id, token, platform) VALUES (?, ?, ?, 'ios')")
          .bind(S1, id, `device-of-leaving-customer-${id}`),
        shardFor(S1)
          .prepare(
            "INSERT INTO customer_locations (app_id, customer_id, latitude, longitude, address1) " +
              "VALUES (?, ?, 24.7, 46.7, 'Home street')",
          )
          .bind(S1, id),
        shardFor(S1)
          .prepare(
            "INSERT INTO otp_codes (app_id, phone, purpose, code_hash, expires_at) VALUES (?, ?, 'login', 'h', ?)",
          )
          .bind(S1, leaving.mobileNumber, future),
      ]);
      await db(S1)
        .insert(walletEntries)
        .values({ appId: S1, customerId: id, kind: "points", type: "deposit", amount: 50, balanceAfter: 50 });
      const [n] = await db(S1)
        .insert(notifications)
        .values({ appId: S1, titleEn: "t", titleAr: "t", bodyEn: "b", bodyAr: "b", audience: { segment: "all" } })
        .returning();
      await db(S1).insert(customerNotifications).values({
        appId: S1,
        notificationId: n!.id,
        customerId: id,
        titleEn: "t",
        titleAr: "t",
        bodyEn: "b",
        bodyAr: "b",
      });

      const res = await as(id, "/profile/", { method: "DELETE" });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");

      const c = (await row("SELECT * FROM customers WHERE id = ?", id))!;
      expect(c).toMatchObject({
        is_deleted: 1,
        mobile_number: `deleted:${id}`,
        username: `deleted:${id}`,
        name: null,
        email: null,
        national_id: null,
        date_of_birth: null,
        avatar: null,
        secondary_mobile_number: null,
        custom_fields: null,
        current_city_id: null,
      });
      expect(c.deleted_at).toBeTruthy();
      expect(JSON.stringify(c)).not.toContain(leaving.mobileNumber);
      expect((await row("SELECT revoked_at FROM refresh_tokens WHERE customer_id = ?", id))!.revoked_at).toBeTruthy();
      expect((await row("SELECT is_active FROM fcm_tokens WHERE customer_id = ?", id))!.is_active).toBe(0);
      expect((await row("SELECT is_deleted FROM customer_locations WHERE customer_id = ?", id))!.is_deleted).toBe(1);
      expect(await rows("SELECT * FROM otp_codes WHERE phone = ?", leaving.mobileNumber)).toEqual([]);
      // The ledger and what the customer received stay, pointing at the anonymised customer.
      expect(await rows("SELECT id FROM wallet_entries WHERE customer_id = ?", id)).toHaveLength(1);
      expect(await rows("SELECT id FROM customer_notifications WHERE customer_id = ?", id)).toHaveLength(1);
      expect((await outboxOf(S1, "customer.deleted")).map((e) => e.payload.data)).toContainEqual({ id });

      // The token still verifies for its last minutes, but its customer is gone: the auth path refuses it.
      for (const [method, path] of [
        ["GET", "/profile/"],
        ["DELETE", "/profile/"],
        ["GET", "/locations/"],
        ["GET", "/notifications/"],
      ] as const) {
        const after = await as(id, path, { method });
        expect(after.status, `${method} ${path}`).toBe(401);
        expect((await problem(after)).code).toBe("token_revoked");
      }
      // The number is free again: the merchant (or a registration) can create a customer with it.
      const merchant = await tokenFor(S1, [...PERMISSIONS]);
      const again = await call("/order/v1/merchant/customers/", {
        method: "POST",
        token: merchant,
        appId: S1,
        body: { country_code: "966", mobile_number: leaving.mobileNumber },
      });
      expect(again.status).toBe(201);
      expect((await json(again)).id).not.toBe(id);
    },
  );
});

describe("CA7 FCM tokens", () => {
  const token = (n: number | string) => `fcm-test-token-${n}:APA91bHun4MxP5egoKMwt2KZFBaFUH`;

  it("registers (201), re-activates (200), and hands a token to the customer who registers it", async () => {
    const first = await as(sara, "/fcm-tokens/", { method: "POST", body: { token: token("a"), platform: "ios" } });
    expect(first.status).toBe(201);
    const created = await json(first);
    expect(Object.keys(created).sort()).toEqual(["created_at", "id", "is_active", "modified_at", "platform", "token"]);
    expect(created).toMatchObject({ token: token("a"), platform: "ios", is_active: true });
    await shardFor(APP_1).prepare("UPDATE fcm_tokens SET is_active = 0 WHERE id = ?").bind(created.id).run();
    const again = await as(sara, "/fcm-tokens/", { method: "POST", body: { token: token("a"), platform: "ios" } });
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ id: created.id, is_active: true });
    // The device changes hands: Omar logs in on it.
    const moved = await as(omar, "/fcm-tokens/", { method: "POST", body: { token: token("a"), platform: "android" } });
    expect(moved.status).toBe(200);
    expect((await row("SELECT customer_id, platform FROM fcm_tokens WHERE id = ?", created.id))!).toEqual({
      customer_id: omar,
      platform: "android",
    });
    // Now it is Omar's: Sara cannot remove it (404), Omar can (204, and again 204).
    const notHers = await as(sara, `/fcm-tokens/${encodeURIComponent(token("a"))}/`, { method: "DELETE" });
    expect(notHers.status).toBe(404);
    expect((await problem(notHers)).code).toBe("fcm_token_not_found");
    for (let i = 0; i < 2; i++) {
      const removed = await as(omar, `/fcm-tokens/${encodeURIComponent(token("a"))}/`, { method: "DELETE" });
      expect(removed.status).toBe(204);
    }
    expect((await row("SELECT is_active FROM fcm_tokens WHERE id = ?", created.id))!.is_active).toBe(0);
  });

  it("keeps the 10 most recently registered devices of a customer active", async () => {
    const c = (await createCustomerFor(S1)).id;
    for (let i = 0; i < 12; i++) {
      const res = await as(c, "/fcm-tokens/", {
        method: "POST",
        body: { token: token(`cap-${c}-${i}`), platform: "web" },
      });
      expect(res.status).toBe(201);
    }
    const active = await rows("SELECT token FROM fcm_tokens WHERE customer_id = ? AND is_active = 1", c);
    expect(active).toHaveLength(10);
    expect(active.map((r) => r.token)).not.toContain(token(`cap-${c}-0`));
    expect(active.map((r) => r.token)).toContain(token(`cap-${c}-11`));
  });

  it("refuses malformed tokens and platforms (400), and another store's token stays its own", async () => {
    for (const body of [
      { token: "short", platform: "ios" },
      { token: `${token("x")} space`, platform: "ios" },
      { token: token("x"), platform: "windows" },
      { token: token("x") },
    ]) {
      const res = await as(sara, "/fcm-tokens/", { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const theirs = await as(otherStore, "/fcm-tokens/", {
      method: "POST",
      appId: S2,
      body: { token: token("s2"), platform: "ios" },
    });
    expect(theirs.status).toBe(201);
    const probe = await as(sara, `/fcm-tokens/${encodeURIComponent(token("s2"))}/`, { method: "DELETE" });
    expect(probe.status).toBe(404);
    expect((await row("SELECT is_active FROM fcm_tokens WHERE token = ?", token("s2")))!.is_active).toBe(1);
    const bad = await as(sara, "/fcm-tokens/not%20a%20token/", { method: "DELETE" });
    expect(bad.status).toBe(400);
  });
});
