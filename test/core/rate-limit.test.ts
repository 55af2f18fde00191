import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { RATE_LIMITS, WindowCounter } from "../../src/core/rate-limit";
import { newIp, newPhone, P, worldWith } from "../customers/login-helpers";
import { APP_1, tokenFor } from "../helpers/factories";
import { call, problem } from "../helpers/request";

afterEach(() => setClock(null));

const phoneBody = () => ({ country_code: "966", mobile_number: newPhone().national });

describe("WindowCounter", () => {
  it("allows `limit` requests a window per key, opened by the key's first, then refuses until it ends", () => {
    const counter = new WindowCounter({ limit: 3, windowSeconds: 60 });
    const t0 = 1_800_000_000_000;
    expect([1, 2, 3].map((i) => counter.take("a", t0 + i * 1000))).toEqual([
      { allowed: true, remaining: 2, resetSeconds: 60 },
      { allowed: true, remaining: 1, resetSeconds: 59 },
      { allowed: true, remaining: 0, resetSeconds: 58 },
    ]);
    // The window is the key's (opened at t0 + 1 s), not the clock's minute.
    expect(counter.take("a", t0 + 30_500)).toEqual({ allowed: false, remaining: 0, resetSeconds: 31 });
    expect(counter.take("b", t0 + 30_500)).toEqual({ allowed: true, remaining: 2, resetSeconds: 60 });
    expect(counter.take("a", t0 + 60_999).allowed).toBe(false);
    expect(counter.take("a", t0 + 61_000)).toEqual({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it("a burst across a minute's turn passes the limit once, not twice (what the binding alone let through)", () => {
    const counter = new WindowCounter({ limit: 600, windowSeconds: 60 });
    const turn = 1_800_000_000_000 - 20_000; // 700 requests from 20 s before a minute's turn to 19 s after
    const allowed = Array.from({ length: 700 }, (_, i) => counter.take("token", turn + i * 55)).filter(
      (s) => s.allowed,
    );
    expect(allowed).toHaveLength(600);
  });

  it("a clock set back opens a new window rather than holding the old one", () => {
    const counter = new WindowCounter({ limit: 1, windowSeconds: 60 });
    expect(counter.take("k", 2_000_000_000_000).allowed).toBe(true);
    expect(counter.take("k", 1_000_000_000_000).allowed).toBe(true);
  });
});

describe("RateLimit headers", () => {
  it("every response of a token's operation names the token's limit and what is left of it", async () => {
    setClock("2026-06-01T10:00:00.000Z");
    const token = await tokenFor(APP_1, ["can_read_order"]);
    const first = await call("/order/v1/merchant/fulfillments/tickets/", { token });
    const second = await call("/order/v1/merchant/fulfillments/tickets/", { token });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe(`"token";q=600;w=60`);
    expect(first.headers.get("ratelimit")).toBe(`"token";r=599;t=60`);
    expect(second.headers.get("ratelimit")).toBe(`"token";r=598;t=60`);
  });

  it("the login's ceiling per IP: 20 a minute, the 21st a 429 with Retry-After and the headers", async () => {
    setClock("2026-06-01T10:00:00.000Z");
    const w = worldWith();
    const ip = newIp();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await w.post(P.otp, phoneBody(), { appId: APP_1, ip })).status);
    expect(statuses).toEqual(Array(20).fill(202));
    const limited = await w.post(P.otp, phoneBody(), { appId: APP_1, ip });
    expect(limited.status).toBe(429);
    expect((await problem(limited)).code).toBe("rate_limited");
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(limited.headers.get("ratelimit-policy")).toBe(`"${RATE_LIMITS.otpIp.name}";q=20;w=60`);
    expect(limited.headers.get("ratelimit")).toBe(`"${RATE_LIMITS.otpIp.name}";r=0;t=60`);
    // 30 s on, the same window: 30 s left.
    setClock("2026-06-01T10:00:30.000Z");
    const later = await w.post(P.otp, phoneBody(), { appId: APP_1, ip });
    expect(later.status).toBe(429);
    expect(later.headers.get("retry-after")).toBe("30");
  });
});
