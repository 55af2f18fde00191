import type { Context } from "hono";
import type { AppEnv } from "../env";
import { nowMs } from "./clock";
import { ApiError } from "./errors";

/**
 * The rate limits, as documented and as a client sees them: every limited request answers with
 * `RateLimit-Policy` and `RateLimit` (IETF httpapi draft: the quota, what is left, seconds to its
 * reset), and past the limit with a 429 and `Retry-After`.
 *
 * Two counters decide. The Workers Rate Limiting binding counts across the network, but answers
 * only yes or no, and locally (miniflare) its window is the wall clock's minute, so a burst across
 * a minute's turn passes twice the limit. This isolate's own window per key, opened by the key's
 * first request, gives the headers their numbers and holds the documented limit under `wrangler
 * dev` (one isolate). In production an isolate sees part of a key's traffic: its `r` is an upper
 * bound, and the binding refuses what the isolates together exceed.
 */

/** The bindings of wrangler.toml's `[[ratelimits]]`; their `simple` limits are these (test/node/rate-limits.test.ts). */
export type LimiterBinding =
  | "TOKEN_LIMITER"
  | "TEST_WEBHOOK_LIMITER"
  | "WEBHOOK_REPLAY_LIMITER"
  | "OTP_IP_LIMITER"
  | "NOTIFY_LIMITER";

export type RateLimitPolicy = { name: string; limit: number; windowSeconds: number; binding: LimiterBinding };

export const RATE_LIMITS = {
  /** Every merchant and customer token, and the platform key. */
  token: { name: "token", limit: 600, windowSeconds: 60, binding: "TOKEN_LIMITER" },
  testWebhook: { name: "test-webhook", limit: 10, windowSeconds: 60, binding: "TEST_WEBHOOK_LIMITER" },
  webhookReplay: { name: "webhook-replay", limit: 10, windowSeconds: 60, binding: "WEBHOOK_REPLAY_LIMITER" },
  otpIp: { name: "login-ip", limit: 20, windowSeconds: 60, binding: "OTP_IP_LIMITER" },
  notify: { name: "notify", limit: 10, windowSeconds: 60, binding: "NOTIFY_LIMITER" },
} as const satisfies Record<string, RateLimitPolicy>;

export type RateLimitState = { allowed: boolean; remaining: number; resetSeconds: number };

/** Keys kept per policy before expired windows are swept: bounds the isolate's memory. */
const MAX_KEYS = 10_000;

/**
 * Fixed windows per key, each opened by the key's first request: at most `limit` requests from
 * then until `windowSeconds` later. `now` is the caller's (core/clock in the Worker), so a test
 * plays the window's end without waiting for it.
 */
export class WindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly policy: Pick<RateLimitPolicy, "limit" | "windowSeconds">) {}

  take(key: string, now: number): RateLimitState {
    const span = this.policy.windowSeconds * 1000;
    let window = this.windows.get(key);
    // A clock set back (a test's) opens a new window too.
    if (!window || now >= window.start + span || now < window.start) {
      if (this.windows.size >= MAX_KEYS) this.sweep(now, span);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.count < this.policy.limit;
    if (allowed) window.count++;
    return {
      allowed,
      remaining: this.policy.limit - window.count,
      resetSeconds: Math.max(1, Math.ceil((window.start + span - now) / 1000)),
    };
  }

  private sweep(now: number, span: number): void {
    for (const [key, w] of this.windows) if (now >= w.start + span || now < w.start) this.windows.delete(key);
    // Still full: the oldest go (a Map iterates in insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_KEYS) break;
      this.windows.delete(key);
    }
  }
}

const counters = new Map<string, WindowCounter>();

/** The headers of a limited response (IETF httpapi RateLimit header fields). */
export function rateLimitHeaders(policy: RateLimitPolicy, state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Policy": `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

/**
 * Counts this request against `policy` for `key`: sets the RateLimit headers on the response, or
 * throws the 429 (`detail` says whose limit it is) with them and `Retry-After`.
 */
export async function enforceRateLimit(
  c: Context<AppEnv>,
  policy: RateLimitPolicy,
  key: string,
  detail: string,
): Promise<void> {
  let counter = counters.get(policy.name);
  if (!counter) {
    counter = new WindowCounter(policy);
    counters.set(policy.name, counter);
  }
  const state = counter.take(key, nowMs());
  const { success } = await c.env[policy.binding].limit({ key });
  const headers = rateLimitHeaders(policy, success ? state : { ...state, remaining: 0 });
  if (!success || !state.allowed) {
    // Refused by the binding alone: its window's end is unknown here, a whole window is safe.
    const retryAfter = state.allowed ? policy.windowSeconds : state.resetSeconds;
    throw new ApiError(429, "rate_limited", detail, { headers: { ...headers, "Retry-After": String(retryAfter) } });
  }
  // Appended: a request under two limits (a token's, a webhook's test) names both.
  for (const [name, value] of Object.entries(headers)) c.header(name, value, { append: true });
}
