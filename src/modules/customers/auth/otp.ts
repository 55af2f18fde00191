/**
 * One-time codes: made, hashed and compared here; stored and counted in `codes.ts`.
 */

/** Seconds a code lives. */
export const OTP_TTL_S = 300;
/** Seconds before another code may be sent to the same number. */
export const OTP_RESEND_AFTER_S = 60;
/** Tries a code has; the code is dead after them. */
export const OTP_MAX_ATTEMPTS = 5;
/** Codes a number may be sent within `OTP_SEND_WINDOW_S`. */
export const OTP_MAX_SENDS = 5;
export const OTP_SEND_WINDOW_S = 600;
/** Code checks a number may have within an hour, across its codes. */
export const OTP_MAX_CHECKS_PER_HOUR = 10;
export const OTP_CHECK_WINDOW_S = 3600;
export const OTP_DEFAULT_LENGTH = 6;
/** A store's registration codes within this window are counted against its SMS budget (a store setting). */
export const REGISTER_BUDGET_WINDOW_S = 600;
export const REGISTER_BUDGET_DEFAULT = 20;

/**
 * A code of `length` digits, uniform: 32-bit draws at or above the largest multiple of 10^length
 * are drawn again, so that no code is likelier than another (no modulo bias).
 */
export function generateCode(length: number): string {
  const n = 10 ** length;
  const limit = Math.floor(2 ** 32 / n) * n;
  const draw = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(draw);
    if (draw[0]! < limit) return String(draw[0]! % n).padStart(length, "0");
  }
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * HMAC-SHA256 of the code, keyed with the Worker's secret and bound to the store, number and
 * purpose: a leaked table cannot be brute-forced offline, nor a hash replayed for another number.
 * The "otp:v1" label keeps these MACs apart from the JWTs the same secret signs.
 */
export async function hashCode(
  secret: string,
  scope: { appId: number; phone: string; purpose: string },
  code: string,
): Promise<string> {
  const message = `otp:v1:${scope.appId}:${scope.phone}:${scope.purpose}:${code}`;
  return hex(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message)));
}

/**
 * The stored hash of a code that is never sent (a number the request must not reveal): the same
 * work as a real one, and no code typed by anyone can match it.
 */
export function unsendableHash(secret: string, scope: { appId: number; phone: string; purpose: string }) {
  const random = hex(crypto.getRandomValues(new Uint8Array(32)).buffer);
  return hashCode(secret, scope, `unsent:${random}`);
}

/** Compares two hashes in constant time (lengths are public: both are 64 hex digits). */
export function sameHash(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  if (x.byteLength !== y.byteLength) return false;
  return crypto.subtle.timingSafeEqual(x, y);
}

/** `OTP_TEST_NUMBERS` parsed: E.164 digits → fixed code. */
export type TestNumbers = ReadonlyMap<string, string>;

const TEST_ENTRY = /^(\d{8,15}):(\d{4,8})$/;
let warnedProduction = false;

/**
 * The development test numbers (`966500000001:123456,…`), as Firebase Auth offers them: fixed
 * codes, no SMS, no send limit. In production they are ignored, and the Worker says so once per
 * isolate: a stray setting must not open a back door, nor take the login down.
 */
export function testNumbers(env: { ENVIRONMENT: string; OTP_TEST_NUMBERS?: string }): TestNumbers {
  const raw = env.OTP_TEST_NUMBERS?.trim() ?? "";
  if (!raw) return new Map();
  if (env.ENVIRONMENT === "production") {
    if (!warnedProduction) {
      warnedProduction = true;
      console.warn(
        JSON.stringify({ msg: "config ignored", level: "warn", setting: "OTP_TEST_NUMBERS", reason: "production" }),
      );
    }
    return new Map();
  }
  const out = new Map<string, string>();
  for (const entry of raw.split(",")) {
    const m = TEST_ENTRY.exec(entry.trim().replace(/^\+/, ""));
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}
