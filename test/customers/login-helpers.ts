import { env } from "cloudflare:workers";
import type { JobMessage } from "../../src/core/jobs";
import type { waitsMeter } from "../helpers/d1-waits";
import { APP_1, shardFor } from "../helpers/factories";
import { BASE, fetchWorker } from "../helpers/request";

/** The customer login's paths, under /api/v1/customer. */
export const P = {
  register: "/api/v1/customer/register/",
  confirm: "/api/v1/customer/register/confirm/",
  otp: "/api/v1/customer/auth/otp/",
  token: "/api/v1/customer/auth/token/",
  refresh: "/api/v1/customer/auth/token/refresh/",
  logout: "/api/v1/customer/auth/logout/",
};

let seq = 0;
const stamp = Date.now() % 100_000;

/** A fresh valid Saudi mobile number: its national form and its E.164 digits. */
export function newPhone(): { national: string; e164: string } {
  const seven = String((stamp * 37 + seq++ * 7919) % 10_000_000).padStart(7, "0");
  const rest = `5${5}${seven}`;
  return { national: `0${rest}`, e164: `966${rest}` };
}

/** A fresh client IP, so that each test has its own per-IP ceiling. */
export const newIp = () => `10.${(stamp >> 8) & 255}.${stamp & 255}.${seq++ % 250}`;

export type Sent = JobMessage<"sms.send">;

/**
 * The Worker with a changed env (production, test numbers, a stub limiter) and a JOBS queue that
 * records what is queued, so that a test reads the code an SMS would carry.
 */
export function worldWith(overrides: Partial<Env> = {}) {
  const sent: Sent[] = [];
  const jobs: Queue = {
    metrics: () => env.JOBS.metrics(),
    send: async (message) => {
      sent.push(message as Sent);
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
    },
    sendBatch: (messages, options) => env.JOBS.sendBatch(messages, options),
  };
  const world = { ...env, JOBS: jobs, ...overrides };
  async function post(
    path: string,
    body: unknown,
    opts: {
      appId?: number | null;
      ip?: string;
      headers?: Record<string, string>;
      /** Counts the D1 round trips the response waited for (test/helpers/d1-waits.ts), not the deferred work. */
      meter?: ReturnType<typeof waitsMeter>;
    } = {},
  ): Promise<Response> {
    const headers = new Headers({ "content-type": "application/json", ...opts.headers });
    if (opts.appId !== null) headers.set("app-id", String(opts.appId ?? 1));
    if (opts.ip) headers.set("cf-connecting-ip", opts.ip);
    return fetchWorker(
      new Request(BASE + path, { method: "POST", headers, body: JSON.stringify(body) }),
      world,
      opts.meter,
    );
  }
  /** The code of the last SMS queued to `e164`. */
  const codeFor = (e164: string) => {
    const job = sent.filter((m) => m.payload.to === e164).at(-1);
    if (!job) throw new Error(`no SMS queued to ${e164}`);
    return /(\d{4,8})/.exec(job.payload.text)![1]!;
  };
  return { post, sent, codeFor, env: world };
}

/** A live customer inserted directly, for the login tests. */
export async function insertCustomer(
  appId: number,
  phone: { national: string; e164: string },
  extra: { isBlocked?: boolean; isMobileVerified?: boolean; lang?: "ar" | "en" } = {},
): Promise<number> {
  const row = await shardFor(appId)
    .prepare(
      "INSERT INTO customers (app_id, country_code, mobile_number, username, name, lang, " +
        "is_blocked, is_mobile_verified) " +
        "VALUES (?, '966', ?, ?, 'Test customer', ?, ?, ?) RETURNING id",
    )
    .bind(
      appId,
      phone.e164,
      phone.national,
      extra.lang ?? "en",
      extra.isBlocked ? 1 : 0,
      extra.isMobileVerified ? 1 : 0,
    )
    .first<{ id: number }>();
  return row!.id;
}

/** Moves a number's codes back in time (to leave the cooldown or a window without waiting). */
export async function age(appId: number, e164: string, seconds: number): Promise<void> {
  await shardFor(APP_1)
    .prepare(
      "UPDATE otp_codes SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, ?) WHERE app_id = ? AND phone = ?",
    )
    .bind(`-${seconds} seconds`, appId, e164)
    .run();
}

export const codes = (appId: number, e164: string) =>
  shardFor(appId)
    .prepare("SELECT * FROM otp_codes WHERE app_id = ? AND phone = ? ORDER BY id")
    .bind(appId, e164)
    .all<Record<string, unknown>>()
    .then((r) => r.results);

export const outbox = (appId: number) =>
  shardFor(appId)
    .prepare("SELECT type, payload FROM outbox_events WHERE app_id = ? ORDER BY created_at")
    .bind(appId)
    .all<{ type: string; payload: string }>()
    .then((r) => r.results.map((e) => ({ type: e.type, data: JSON.parse(e.payload).data })));
