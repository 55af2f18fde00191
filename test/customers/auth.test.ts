import { env } from "cloudflare:workers";
import { verify } from "hono/jwt";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../src/core/crypto";
import { APP_1, ensureTenant, shardFor, shardNameFor } from "../helpers/factories";
import { json, problem } from "../helpers/request";
import { age, codes, insertCustomer, newIp, newPhone, outbox, P, worldWith } from "./login-helpers";

// Tenants of this file alone, so that its outbox and code counts see no other file's rows.
const S = 61;
const OTHER = 62;

beforeAll(async () => {
  await ensureTenant(S);
  await ensureTenant(OTHER);
});

const phoneBody = (p: { national: string }) => ({ country_code: "966", mobile_number: p.national });

describe("Register Customer and Confirm Customer Registration (CA1, CA2)", () => {
  it("sends a hashed 6-digit code, then creates the verified customer and logs them in", async () => {
    const w = worldWith();
    const p = newPhone();
    const ip = newIp();
    const res = await w.post(
      P.register,
      { ...phoneBody(p), name: "Sara", email: "sara@example.com", lang: "en" },
      { appId: S, ip },
    );
    expect(res.status).toBe(202);
    expect(await json(res)).toEqual({ expires_in: 300, resend_after: 60 });
    const code = w.codeFor(p.e164);
    expect(code).toMatch(/^\d{6}$/);
    expect(w.sent.at(-1)).toMatchObject({ kind: "job", job: "sms.send", app_id: S, payload: { to: p.e164 } });
    const [row] = await codes(S, p.e164);
    expect(row).toMatchObject({ purpose: "register", attempts: 0, ip, consumed_at: null });
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.code_hash).not.toContain(code);

    const ok = await w.post(P.confirm, { ...phoneBody(p), otp: code }, { appId: S, ip });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const body = await json(ok);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 900, refresh_expires_in: 2_592_000 });
    expect(body.refresh_token).toMatch(/^crt_[A-Za-z0-9_-]{43}$/);
    expect(body.customer).toMatchObject({
      country_code: "966",
      mobile_number: p.e164,
      username: p.national,
      name: "Sara",
      email: "sara@example.com",
      lang: "en",
      is_mobile_verified: true,
      is_blocked: false,
      is_deleted: false,
    });
    const claims = await verify(body.access_token, env.CUSTOMER_JWT_SECRET, "HS256");
    // The store's shard rides in the token: its requests start there (src/db/session.ts).
    expect(claims).toMatchObject({
      sub: String(body.customer.id),
      app_id: S,
      kind: "customer",
      shard: shardNameFor(S),
    });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
    const stored = await shardFor(APP_1)
      .prepare("SELECT * FROM refresh_tokens WHERE customer_id = ?")
      .bind(body.customer.id)
      .first<Record<string, string>>();
    expect(stored!.token_hash).toBe(await sha256Hex(body.refresh_token));
    expect(Date.parse(stored!.expires_at!) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect(await outbox(S)).toContainEqual({ type: "customer.created", data: { id: body.customer.id } });

    // Single use.
    const again = await w.post(P.confirm, { ...phoneBody(p), otp: code }, { appId: S, ip });
    expect(again.status).toBe(400);
    expect((await problem(again)).code).toBe("otp_expired");
  });

  it("answers a registered number the same, sends it nothing, and no code confirms it", async () => {
    const w = worldWith();
    const known = newPhone();
    const unknown = newPhone();
    await insertCustomer(S, known);
    const a = await w.post(P.register, { ...phoneBody(known), name: "A" }, { appId: S, ip: newIp() });
    const b = await w.post(P.register, { ...phoneBody(unknown), name: "B" }, { appId: S, ip: newIp() });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(await a.text()).toBe(await b.text());
    expect(w.sent.map((m) => m.payload.to)).toEqual([unknown.e164]);
    expect(await codes(S, known.e164)).toHaveLength(1);
    const res = await w.post(P.confirm, { ...phoneBody(known), otp: "000000" }, { appId: S, ip: newIp() });
    expect((await problem(res)).code).toBe("invalid_otp");
  });

  it("lets a deleted customer's number register again", async () => {
    const w = worldWith();
    const p = newPhone();
    const old = await insertCustomer(S, p);
    await shardFor(APP_1).prepare("UPDATE customers SET is_deleted = 1 WHERE id = ?").bind(old).run();
    expect((await w.post(P.register, { ...phoneBody(p), name: "Back" }, { appId: S, ip: newIp() })).status).toBe(202);
    const res = await w.post(P.confirm, { ...phoneBody(p), otp: w.codeFor(p.e164) }, { appId: S, ip: newIp() });
    expect(res.status).toBe(201);
    expect((await json(res)).customer.id).not.toBe(old);
  });

  it("refuses bad input with 400 naming the field, and an unknown store with 404", async () => {
    const w = worldWith();
    const bad = await w.post(P.register, { country_code: "966", mobile_number: "0112345678", name: "X" }, { appId: S });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("mobile_number");
    const noName = await w.post(P.register, phoneBody(newPhone()), { appId: S });
    expect((await problem(noName)).errors).toHaveProperty("name");
    const otp = await w.post(P.confirm, { ...phoneBody(newPhone()), otp: "12ab" }, { appId: S });
    expect((await problem(otp)).errors).toHaveProperty("otp");
    expect((await problem(await w.post(P.otp, phoneBody(newPhone()), { appId: null }))).code).toBe("missing_app_id");
    expect((await problem(await w.post(P.otp, phoneBody(newPhone()), { appId: 999_999 }))).code).toBe("app_not_found");
    expect(w.sent).toEqual([]);
  });

  // The parser throws on a calling code no country has: it was a 500 on each of these.
  it.each(["999", "11", "0", "01", "8", "59", "3163"])(
    "refuses the unknown calling code %s with a 400 on country_code, on every phone endpoint",
    async (cc) => {
      const w = worldWith();
      const phone = { country_code: cc, mobile_number: "0512345678" };
      for (const [path, body] of [
        [P.register, { ...phone, name: "X" }],
        [P.confirm, { ...phone, otp: "123456" }],
        [P.otp, phone],
        [P.token, { ...phone, otp: "123456" }],
      ] as const) {
        const res = await w.post(path, body, { appId: S, ip: newIp() });
        expect(res.status, `${path} ${cc}`).toBe(400);
        const body_ = await problem(res);
        expect(body_.code).toBe("validation_error");
        expect(body_.errors?.country_code?.join(" "), path).toMatch(/not the calling code of any country/);
      }
      expect(w.sent).toEqual([]);
    },
  );
});

describe("Request OTP and Get Access Token (CA3, CA4)", () => {
  it("logs a customer in, verifies their number once (customer.updated), and never logs the code", async () => {
    const w = worldWith();
    const p = newPhone();
    const id = await insertCustomer(S, p);
    const ip = newIp();
    expect((await w.post(P.otp, phoneBody(p), { appId: S, ip })).status).toBe(202);
    const code = w.codeFor(p.e164);
    const wrong = code === "000000" ? "111111" : "000000";
    const miss = await w.post(P.token, { ...phoneBody(p), otp: wrong }, { appId: S, ip });
    expect(miss.status).toBe(400);
    expect(await problem(miss)).toMatchObject({ code: "invalid_otp", attempts_left: 4 });
    const logged = vi.spyOn(console, "log");
    const ok = await w.post(P.token, { ...phoneBody(p), otp: code }, { appId: S, ip });
    expect(logged.mock.calls.flat().join("\n")).not.toContain(code);
    logged.mockRestore();
    expect(ok.status).toBe(200);
    const body = await json(ok);
    expect(Object.keys(body).sort()).toEqual(
      ["access_token", "customer", "expires_in", "refresh_expires_in", "refresh_token", "token_type"].sort(),
    );
    expect(body.customer).toMatchObject({ id, is_mobile_verified: true });
    const updates = () => outbox(S).then((e) => e.filter((x) => x.type === "customer.updated" && x.data.id === id));
    expect(await updates()).toHaveLength(1);
    // A second login changes nothing of the customer: no event.
    await age(S, p.e164, 61);
    await w.post(P.otp, phoneBody(p), { appId: S, ip });
    expect((await w.post(P.token, { ...phoneBody(p), otp: w.codeFor(p.e164) }, { appId: S, ip })).status).toBe(200);
    expect(await updates()).toHaveLength(1);
  });

  it("answers an unknown number exactly as a customer's, and sends it nothing", async () => {
    const w = worldWith();
    const known = newPhone();
    const unknown = newPhone();
    await insertCustomer(S, known);
    const a = await w.post(P.otp, phoneBody(known), { appId: S, ip: newIp() });
    const b = await w.post(P.otp, phoneBody(unknown), { appId: S, ip: newIp() });
    expect(a.status).toBe(b.status);
    expect(await a.text()).toBe(await b.text());
    expect(w.sent.map((m) => m.payload.to)).toEqual([known.e164]);
    // The limits count both alike.
    const a2 = await w.post(P.otp, phoneBody(known), { appId: S, ip: newIp() });
    const b2 = await w.post(P.otp, phoneBody(unknown), { appId: S, ip: newIp() });
    expect([a2.status, b2.status]).toEqual([429, 429]);
    expect((await problem(a2)).code).toBe((await problem(b2)).code);
    const guess = await w.post(P.token, { ...phoneBody(unknown), otp: "123456" }, { appId: S, ip: newIp() });
    expect(await problem(guess)).toMatchObject({ code: "invalid_otp", attempts_left: 4 });
  });

  it("gives a code 5 tries, then it is dead (429) even for the right code", async () => {
    const w = worldWith();
    const p = newPhone();
    await insertCustomer(S, p);
    await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
    const code = w.codeFor(p.e164);
    const wrong = code === "999999" ? "888888" : "999999";
    for (const left of [4, 3, 2, 1, 0]) {
      const res = await w.post(P.token, { ...phoneBody(p), otp: wrong }, { appId: S, ip: newIp() });
      expect(await problem(res)).toMatchObject({ code: "invalid_otp", attempts_left: left });
    }
    const dead = await w.post(P.token, { ...phoneBody(p), otp: code }, { appId: S, ip: newIp() });
    expect(dead.status).toBe(429);
    expect((await problem(dead)).code).toBe("otp_attempts_exceeded");
    expect(Number(dead.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("refuses an expired code, and a code a newer one replaced", async () => {
    const w = worldWith();
    const p = newPhone();
    await insertCustomer(S, p);
    await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
    const first = w.codeFor(p.e164);
    await shardFor(APP_1)
      .prepare("UPDATE otp_codes SET expires_at = '2020-01-01T00:00:00.000Z' WHERE phone = ?")
      .bind(p.e164)
      .run();
    const late = await w.post(P.token, { ...phoneBody(p), otp: first }, { appId: S, ip: newIp() });
    expect(late.status).toBe(400);
    expect((await problem(late)).code).toBe("otp_expired");
    await age(S, p.e164, 61);
    await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
    const second = w.codeFor(p.e164);
    if (second !== first) {
      const old = await w.post(P.token, { ...phoneBody(p), otp: first }, { appId: S, ip: newIp() });
      expect((await problem(old)).code).toBe("invalid_otp");
    }
    expect((await w.post(P.token, { ...phoneBody(p), otp: second }, { appId: S, ip: newIp() })).status).toBe(200);
  });

  it("refuses a blocked customer with 403 after a good code, and a deleted one as if unknown", async () => {
    const w = worldWith();
    const p = newPhone();
    await insertCustomer(S, p, { isBlocked: true });
    await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
    const res = await w.post(P.token, { ...phoneBody(p), otp: w.codeFor(p.e164) }, { appId: S, ip: newIp() });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("customer_blocked");
    const gone = newPhone();
    const id = await insertCustomer(S, gone);
    await shardFor(APP_1).prepare("UPDATE customers SET is_deleted = 1 WHERE id = ?").bind(id).run();
    await w.post(P.otp, phoneBody(gone), { appId: S, ip: newIp() });
    expect(w.sent.some((m) => m.payload.to === gone.e164)).toBe(false);
  });

  it("uses the store's code length", async () => {
    await shardFor(APP_1)
      .prepare("INSERT OR REPLACE INTO customer_settings (app_id, otp_length) VALUES (?, 4)")
      .bind(OTHER)
      .run();
    const w = worldWith();
    const p = newPhone();
    await insertCustomer(OTHER, p);
    await w.post(P.otp, phoneBody(p), { appId: OTHER, ip: newIp() });
    expect(w.codeFor(p.e164)).toMatch(/^\d{4}$/);
    expect(
      (await w.post(P.token, { ...phoneBody(p), otp: w.codeFor(p.e164) }, { appId: OTHER, ip: newIp() })).status,
    ).toBe(200);
  });
});

describe("Limits (429 with Retry-After)", () => {
  it("one code a minute, 5 codes in 10 minutes per number", async () => {
    const w = worldWith();
    const p = newPhone();
    await insertCustomer(S, p);
    expect((await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() })).status).toBe(202);
    const soon = await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
    expect(soon.status).toBe(429);
    expect((await problem(soon)).code).toBe("otp_resend_too_soon");
    expect(Number(soon.headers.get("retry-after"))).toBeGreaterThan(55);
    expect(Number(soon.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    for (let i = 0; i < 4; i++) {
      await age(S, p.e164, 61);
      expect((await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() })).status).toBe(202);
    }
    // The oldest code is now 5 × 61 s old: it leaves the 10-minute window in 600 − 305 = 295 s.
    await age(S, p.e164, 61);
    const full = await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
    expect(full.status).toBe(429);
    expect((await problem(full)).code).toBe("otp_send_limit_reached");
    const wait = Number(full.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(290);
    expect(wait).toBeLessThanOrEqual(295);
    expect(w.sent.filter((m) => m.payload.to === p.e164)).toHaveLength(5);
  });

  it("10 code checks an hour per number, across its codes", async () => {
    const w = worldWith();
    const p = newPhone();
    await insertCustomer(S, p);
    for (let round = 0; round < 2; round++) {
      await age(S, p.e164, 61);
      await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
      const wrong = w.codeFor(p.e164) === "000000" ? "111111" : "000000";
      for (let i = 0; i < 5; i++) await w.post(P.token, { ...phoneBody(p), otp: wrong }, { appId: S, ip: newIp() });
    }
    await age(S, p.e164, 61);
    await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
    const res = await w.post(P.token, { ...phoneBody(p), otp: w.codeFor(p.e164) }, { appId: S, ip: newIp() });
    expect(res.status).toBe(429);
    expect((await problem(res)).code).toBe("otp_attempts_exceeded");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(3000);
  });

  it("20 requests a minute per IP (the local rate limiter enforces it)", async () => {
    const w = worldWith();
    const ip = newIp();
    let limited: Response | undefined;
    // A fixed window may turn over once during the loop: 41 requests are enough to cross 20 in one.
    for (let i = 0; i < 41 && !limited; i++) {
      const res = await w.post(P.otp, phoneBody(newPhone()), { appId: S, ip });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(202);
    }
    expect(limited).toBeDefined();
    expect((await problem(limited!)).code).toBe("rate_limited");
    // Seconds to the end of the IP's window (test/core/rate-limit.test.ts checks the count exactly).
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited!.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  });

  it("applies the IP ceiling to every code route, before any work", async () => {
    const w = worldWith({ OTP_IP_LIMITER: { limit: async () => ({ success: false }) } });
    const p = newPhone();
    for (const [path, body] of [
      [P.register, { ...phoneBody(p), name: "X" }],
      [P.confirm, { ...phoneBody(p), otp: "123456" }],
      [P.otp, phoneBody(p)],
      [P.token, { ...phoneBody(p), otp: "123456" }],
    ] as const) {
      const res = await w.post(path, body, { appId: S, ip: newIp() });
      expect(res.status, path).toBe(429);
      expect((await problem(res)).code).toBe("rate_limited");
    }
    expect(await codes(S, p.e164)).toEqual([]);
  });
});

describe("Test numbers (OTP_TEST_NUMBERS)", () => {
  it("in development: a fixed code, no SMS, no send limit, no hourly limit", async () => {
    const p = newPhone();
    const w = worldWith({ OTP_TEST_NUMBERS: `966500000009:654321, ${p.e164}:123456` });
    await insertCustomer(S, p);
    for (let i = 0; i < 7; i++) expect((await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() })).status).toBe(202);
    expect(w.sent).toEqual([]);
    // Nor the hourly count of checks: the code is known, there is nothing to guess.
    for (let i = 0; i < 11; i++) {
      await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() });
      expect((await w.post(P.token, { ...phoneBody(p), otp: "123456" }, { appId: S, ip: newIp() })).status).toBe(200);
    }
  });

  it("in production: ignored (logged once), the number is an ordinary one", async () => {
    const p = newPhone();
    const warn = vi.spyOn(console, "warn");
    const w = worldWith({ ENVIRONMENT: "production", OTP_TEST_NUMBERS: `${p.e164}:123456` });
    await insertCustomer(S, p);
    expect((await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() })).status).toBe(202);
    expect(w.sent.map((m) => m.payload.to)).toEqual([p.e164]);
    expect((await w.post(P.otp, phoneBody(p), { appId: S, ip: newIp() })).status).toBe(429);
    const code = w.codeFor(p.e164);
    if (code !== "123456") {
      const res = await w.post(P.token, { ...phoneBody(p), otp: "123456" }, { appId: S, ip: newIp() });
      expect((await problem(res)).code).toBe("invalid_otp");
    }
    expect(warn.mock.calls.flat().join("\n")).toContain('"setting":"OTP_TEST_NUMBERS"');
    warn.mockRestore();
  });
});
