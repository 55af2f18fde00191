import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError, type ErrorCode } from "../../../core/errors";
import { emit, insertedRowEvent, newEvent } from "../../../core/events/outbox";
import { enqueueJob } from "../../../core/jobs";
import { logLimitReached, logTaskFailure } from "../../../core/logging";
import { parseMobile } from "../phone";
import type { Customer } from "../records/schemas";
import { customerView } from "../records/service";
import { customerSettings, customers } from "../tables";
import {
  budgetWait,
  type CodeScope,
  checkWait,
  consumeCode,
  newestCode,
  type StoredCode,
  sendWait,
  spendTry,
  storeCode,
} from "./codes";
import {
  generateCode,
  hashCode,
  OTP_DEFAULT_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_AFTER_S,
  OTP_TTL_S,
  REGISTER_BUDGET_DEFAULT,
  sameHash,
  type TestNumbers,
  unsendableHash,
} from "./otp";
import type { Register, VerifyOtp } from "./schemas";
import {
  invalidRefreshToken,
  newFamilyId,
  newRefreshToken,
  refreshTokenInsert,
  revokeFamily,
  revokeFamilyOf,
  rotateRefreshToken,
  type TokenPair,
  tokenPair,
} from "./tokens";

/** What the login needs beyond the store's db: the Worker's secret, the test numbers, the client's IP. */
export type AuthDeps = { secret: string; tests: TestNumbers; ip: string | null };

export type CodeSent = { expires_in: number; resend_after: number };
export type Login = TokenPair & { customer: Customer };

type CustomerRow = typeof customers.$inferSelect;

const iso = (ms: number) => new Date(ms).toISOString();

const tooMany = (code: ErrorCode, detail: string, seconds: number) =>
  new ApiError(429, code, detail, { headers: { "Retry-After": String(seconds) } });

const expired = () =>
  new ApiError(
    400,
    "otp_expired",
    "No live code for this number: it expired, was used, or a newer one was sent. Request a new code.",
  );

/** The store's live customer with this number (at most one: the unique index covers live rows). */
const byPhone = (ctx: ServiceContext, e164: string) =>
  ctx.db
    .select()
    .from(customers)
    .where(and(live(customers, ctx.appId), eq(customers.mobileNumber, e164)))
    .limit(1);

const findByPhone = (ctx: ServiceContext, e164: string) => byPhone(ctx, e164).get();

type Lookup = { customer?: CustomerRow; length: number; budget: number };

/** The live customer with this number, and the store's code settings, in one round trip. */
async function lookup(ctx: ServiceContext, e164: string): Promise<Lookup> {
  const [found, settings] = await ctx.db.batch([
    byPhone(ctx, e164),
    ctx.db
      .select({ otpLength: customerSettings.otpLength, budget: customerSettings.registerCodesPer10Min })
      .from(customerSettings)
      .where(eq(customerSettings.appId, ctx.appId)),
  ]);
  const length = settings[0]?.otpLength ?? OTP_DEFAULT_LENGTH;
  const budget = settings[0]?.budget ?? REGISTER_BUDGET_DEFAULT;
  return {
    customer: found[0],
    length: length >= 4 && length <= 8 ? length : OTP_DEFAULT_LENGTH,
    budget: budget >= 1 ? budget : REGISTER_BUDGET_DEFAULT,
  };
}

const SEND_REFUSED = {
  otp_send_limit_reached: "At most 5 codes are sent to a number in 10 minutes; retry after `Retry-After` seconds.",
  otp_resend_too_soon: "A code was sent to this number less than a minute ago; retry after `Retry-After` seconds.",
  register_budget_reached:
    "The store has sent as many registration codes as it allows in 10 minutes; retry after `Retry-After` seconds.",
} as const;

const smsText = (lang: string, code: string) =>
  lang === "en" ? `Your code is ${code}. It expires in 5 minutes.` : `رمز التحقق: ${code}. صالح لمدة 5 دقائق.`;

/**
 * Sends a code, or only seems to: `deliver` false (a number the answer must not reveal) stores a
 * code nobody can match and sends nothing, with the same statements, so that the answer and its
 * timing are the same. The SMS is queued after the response for the same reason.
 */
async function sendCode(
  ctx: ServiceContext,
  deps: AuthDeps,
  s: CodeScope,
  opts: { deliver: boolean; length: number; budget: number; lang: string; payload: Record<string, unknown> | null },
): Promise<CodeSent> {
  const now = Date.now();
  const fixed = deps.tests.get(s.phone);
  const code = fixed ?? generateCode(opts.length);
  const codeHash = opts.deliver ? await hashCode(deps.secret, s, code) : await unsendableHash(deps.secret, s);
  const stored = await storeCode(ctx.db, s, {
    codeHash,
    payload: opts.deliver ? opts.payload : null,
    ip: deps.ip,
    now,
    unlimited: fixed !== undefined,
    budget: opts.budget,
  });
  if (!stored) {
    // The number's own limits first, then the store's budget: neither depends on who the number is.
    const wait = (await sendWait(ctx.db, s, now)) ??
      (s.purpose === "register" ? await budgetWait(ctx.db, s.appId, opts.budget, now) : null) ?? {
        code: "otp_resend_too_soon" as const,
        seconds: 1,
      };
    if (wait.code === "register_budget_reached") logLimitReached("register_sms_budget", s.appId, wait.seconds);
    throw tooMany(wait.code, SEND_REFUSED[wait.code], wait.seconds);
  }
  if (opts.deliver && fixed === undefined) {
    const job = { to: s.phone, text: smsText(opts.lang, code), expires_at: iso(now + OTP_TTL_S * 1000) };
    ctx.events.defer(
      enqueueJob(ctx.jobs, ctx.appId, "sms.send", job).catch((error) =>
        logTaskFailure("job", error, { app_id: ctx.appId }),
      ),
    );
  }
  return { expires_in: OTP_TTL_S, resend_after: OTP_RESEND_AFTER_S };
}

/** CA1: a code to confirm a registration; a number already registered is sent nothing, answered the same. */
export async function register(ctx: ServiceContext, deps: AuthDeps, input: Register): Promise<CodeSent> {
  const mobile = parseMobile(input.country_code, input.mobile_number);
  const { customer, length, budget } = await lookup(ctx, mobile.e164);
  const lang = input.lang ?? "ar";
  const payload = { name: input.name, email: input.email ?? null, lang };
  const scope: CodeScope = { appId: ctx.appId, phone: mobile.e164, purpose: "register" };
  return sendCode(ctx, deps, scope, { deliver: !customer, length, budget, lang, payload });
}

/** CA3: a login code; a number of no customer is sent nothing, answered the same. */
export async function requestOtp(
  ctx: ServiceContext,
  deps: AuthDeps,
  input: { country_code: string; mobile_number: string },
): Promise<CodeSent> {
  const mobile = parseMobile(input.country_code, input.mobile_number);
  const { customer, length, budget } = await lookup(ctx, mobile.e164);
  const scope: CodeScope = { appId: ctx.appId, phone: mobile.e164, purpose: "login" };
  return sendCode(ctx, deps, scope, {
    deliver: Boolean(customer),
    length,
    budget,
    lang: customer?.lang ?? "ar",
    payload: null,
  });
}

/**
 * Checks a code: its try is spent before the comparison (codes.ts), the comparison is in constant
 * time, and a match uses the code up. Wrong: 400 `invalid_otp` with the tries left; none left:
 * 429; no live code: 400 `otp_expired`.
 */
async function verify(ctx: ServiceContext, deps: AuthDeps, s: CodeScope, otp: string): Promise<StoredCode> {
  const now = Date.now();
  const row = await newestCode(ctx.db, s);
  if (!row || row.consumedAt || row.expiresAt <= iso(now)) throw expired();
  const used = await spendTry(ctx.db, s, row.id, now, { hourly: !deps.tests.has(s.phone) });
  if (used === null) {
    // Why the try was refused, read after it: another request may have used the code meanwhile.
    const fresh = await newestCode(ctx.db, s);
    if (!fresh || fresh.id !== row.id || fresh.consumedAt || fresh.expiresAt <= iso(now)) throw expired();
    if (fresh.attempts >= OTP_MAX_ATTEMPTS) {
      throw tooMany(
        "otp_attempts_exceeded",
        "This code had 5 tries and is dead; request a new code (after `Retry-After` seconds).",
        (await sendWait(ctx.db, s, now))?.seconds ?? 1,
      );
    }
    throw tooMany(
      "otp_attempts_exceeded",
      "Too many codes were tried for this number in the last hour; retry after `Retry-After` seconds.",
      (await checkWait(ctx.db, s, now)) ?? 1,
    );
  }
  if (!sameHash(await hashCode(deps.secret, s, otp), row.codeHash)) {
    const left = OTP_MAX_ATTEMPTS - used;
    throw new ApiError(
      400,
      "invalid_otp",
      left > 0
        ? `The code is wrong; ${left} tries left.`
        : "The code is wrong and has no tries left; request a new code.",
      { attempts_left: left },
    );
  }
  const consumed = await consumeCode(ctx.db, row.id, now);
  if (!consumed) throw expired();
  return consumed;
}

/** A new login: a refresh token of a new family, and the statement that stores it. */
async function newLogin(ctx: ServiceContext, customerId: number | SQL) {
  const { token, hash } = await newRefreshToken();
  const insert = refreshTokenInsert(ctx.db, {
    appId: ctx.appId,
    customerId,
    familyId: newFamilyId(),
    hash,
    now: Date.now(),
  });
  return { token, insert };
}

/** CA2: creates the customer the code's registration named, verified, and logs them in. */
export async function confirmRegistration(ctx: ServiceContext, deps: AuthDeps, input: VerifyOtp): Promise<Login> {
  const mobile = parseMobile(input.country_code, input.mobile_number);
  const code = await verify(ctx, deps, { appId: ctx.appId, phone: mobile.e164, purpose: "register" }, input.otp);
  if (await findByPhone(ctx, mobile.e164)) {
    throw ApiError.conflict(
      "customer_already_registered",
      "This number was registered since the code was sent; log in with Request OTP.",
    );
  }
  const given = code.payload ?? {};
  const plan = new BatchPlan(ctx.db);
  const customer = plan.insert(
    "customer",
    ctx.db
      .insert(customers)
      .values({
        appId: ctx.appId,
        countryCode: mobile.countryCode,
        mobileNumber: mobile.e164,
        username: mobile.national,
        name: typeof given.name === "string" ? given.name : null,
        email: typeof given.email === "string" ? given.email : null,
        lang: given.lang === "en" ? "en" : "ar",
        isMobileVerified: true,
      })
      .returning(),
  );
  const { token, insert } = await newLogin(ctx, customer.id);
  plan.add(insert).event(insertedRowEvent("customer.created", customers, customer));
  const row = (await plan.run(ctx.events)).row<CustomerRow>(customer);
  return {
    ...(await tokenPair(deps.secret, { appId: ctx.appId, customerId: row.id }, token, Date.now())),
    customer: customerView(row),
  };
}

const blocked = () =>
  ApiError.forbidden("This customer is blocked by the store and cannot log in.", "customer_blocked");

/** CA4: logs a customer in with a code; their number is verified by it. */
export async function getAccessToken(ctx: ServiceContext, deps: AuthDeps, input: VerifyOtp): Promise<Login> {
  const mobile = parseMobile(input.country_code, input.mobile_number);
  await verify(ctx, deps, { appId: ctx.appId, phone: mobile.e164, purpose: "login" }, input.otp);
  // Deleted since the code was sent: as if the code were no longer good.
  const customer = await findByPhone(ctx, mobile.e164);
  if (!customer) throw expired();
  if (customer.isBlocked) throw blocked();
  const { token, insert } = await newLogin(ctx, customer.id);
  const at = new Date().toISOString();
  const unverified = sql`EXISTS (SELECT 1 FROM ${customers} WHERE ${customers.id} = ${customer.id}
      AND ${customers.isMobileVerified} = 0)`;
  const { applied } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(customers)
        .set({ isMobileVerified: true, modifiedAt: at })
        .where(and(live(customers, ctx.appId), eq(customers.id, customer.id), eq(customers.isMobileVerified, false))),
      insert,
    ],
    [newEvent(ctx.appId, "customer.updated", { id: customer.id })],
    { guard: unverified },
  );
  const changed = applied && !customer.isMobileVerified ? { isMobileVerified: true, modifiedAt: at } : {};
  return {
    ...(await tokenPair(deps.secret, { appId: ctx.appId, customerId: customer.id }, token, Date.now())),
    customer: customerView({ ...customer, ...changed }),
  };
}

/** CA5: a new pair for a live refresh token, which is replaced (rotation). */
export async function refreshAccessToken(
  ctx: ServiceContext,
  deps: AuthDeps,
  refreshToken: string,
): Promise<TokenPair> {
  const now = Date.now();
  const { customerId, familyId, token } = await rotateRefreshToken(ctx.db, ctx.appId, refreshToken, now);
  const customer = await ctx.db
    .select({ isBlocked: customers.isBlocked })
    .from(customers)
    .where(and(live(customers, ctx.appId), eq(customers.id, customerId)))
    .get();
  if (!customer || customer.isBlocked) {
    await revokeFamily(ctx.db, ctx.appId, familyId, now);
    throw customer ? blocked() : invalidRefreshToken();
  }
  return tokenPair(deps.secret, { appId: ctx.appId, customerId }, token, now);
}

/** Logout: revokes the refresh token's family. Unknown or already revoked tokens are not an error (RFC 7009). */
export async function logout(ctx: ServiceContext, refreshToken: string): Promise<void> {
  await revokeFamilyOf(ctx.db, ctx.appId, refreshToken);
}
