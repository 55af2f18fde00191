import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan, insertSelect } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, insertedRowEvent, newEvent } from "../../../core/events/outbox";
import { isGuardAbort } from "../../../core/guards";
import { enqueueJob } from "../../../core/jobs";
import { logLimitReached, logTaskFailure } from "../../../core/logging";
import { parseMobile } from "../phone";
import type { Customer } from "../records/schemas";
import { customerView } from "../records/service";
import { customerSettings, customers } from "../tables";
import { compareCode, expired, tooMany, triesRefusal, tryStatements, whenGood, wrongCode } from "./check";
import { budgetWait, type CodeScope, newestCodeQuery, sendWait, storeCode } from "./codes";
import {
  generateCode,
  hashCode,
  OTP_DEFAULT_LENGTH,
  OTP_RESEND_AFTER_S,
  OTP_TTL_S,
  REGISTER_BUDGET_DEFAULT,
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
/** What the auth operations take of their request: the JWT secret, the test numbers, the IP, the store's shard. */
export type AuthDeps = { secret: string; tests: TestNumbers; ip: string | null; shard: string };

export type CodeSent = { expires_in: number; resend_after: number };
export type Login = TokenPair & { customer: Customer };

type CustomerRow = typeof customers.$inferSelect;

const iso = (ms: number) => new Date(ms).toISOString();

/** The store's live customer with this number (at most one: the unique index covers live rows). */
const byPhone = (ctx: ServiceContext, e164: string) =>
  ctx.db
    .select()
    .from(customers)
    .where(and(live(customers, ctx.appId), eq(customers.mobileNumber, e164)))
    .limit(1);

const findByPhone = (ctx: ServiceContext, e164: string) => byPhone(ctx, e164).get();

/** A new login: a refresh token of a new family, and the statement that stores it where `when` holds. */
async function newLogin(ctx: ServiceContext, customerId: number | SQL, when: SQL) {
  const { token, hash } = await newRefreshToken();
  const insert = refreshTokenInsert(
    ctx.db,
    { appId: ctx.appId, customerId, familyId: newFamilyId(), hash, now: Date.now() },
    when,
  );
  return { token, insert };
}

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
  const mobile = await parseMobile(ctx, input.country_code, input.mobile_number);
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
  const mobile = await parseMobile(ctx, input.country_code, input.mobile_number);
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

/** CA2: creates the customer the code's registration named, verified, and logs them in. */
export async function confirmRegistration(ctx: ServiceContext, deps: AuthDeps, input: VerifyOtp): Promise<Login> {
  const mobile = await parseMobile(ctx, input.country_code, input.mobile_number);
  const scope: CodeScope = { appId: ctx.appId, phone: mobile.e164, purpose: "register" };
  const [codes, registered] = await ctx.db.batch([newestCodeQuery(ctx.db, scope), byPhone(ctx, mobile.e164)]);
  const code = await compareCode(deps, scope, codes[0], input.otp);
  // A good code of a number registered since it was sent is used up all the same, and answered 409.
  const creates = sql`${whenGood(code)} AND ${registered[0] ? 0 : 1} = 1
    AND NOT EXISTS (SELECT 1 FROM ${customers} WHERE ${and(live(customers, ctx.appId), eq(customers.mobileNumber, mobile.e164))})`;
  const given = code.row.payload ?? {};
  const plan = new BatchPlan(ctx.db);
  const [spend, ...used] = tryStatements(ctx.db, code);
  const spent = plan.read<{ attempts: number }>(spend);
  plan.guarded(used, () => triesRefusal(ctx.db, code));
  const customer = plan.insert(
    "customer",
    insertSelect(
      ctx.db,
      customers,
      {
        appId: ctx.appId,
        countryCode: mobile.countryCode,
        mobileNumber: mobile.e164,
        username: mobile.national,
        name: typeof given.name === "string" ? given.name : null,
        email: typeof given.email === "string" ? given.email : null,
        lang: given.lang === "en" ? "en" : "ar",
        isMobileVerified: true,
      },
      sql`WHERE ${creates}`,
      { returning: true },
    ),
  );
  const { token, insert } = await newLogin(ctx, customer.id, sql`${customer.id} IS NOT NULL`);
  plan.add(insert).event(insertedRowEvent("customer.created", customers, customer));
  const result = await plan.run(ctx.events);
  if (!code.good) throw wrongCode(result.rows(spent)[0]!.attempts);
  const [row] = result.rows<CustomerRow>(customer);
  if (!row) {
    throw ApiError.conflict(
      "customer_already_registered",
      "This number was registered since the code was sent; log in with Request OTP.",
    );
  }
  return {
    ...(await tokenPair(deps.secret, { appId: ctx.appId, customerId: row.id, shard: deps.shard }, token, Date.now())),
    customer: customerView(row),
  };
}

const blocked = () =>
  ApiError.forbidden("This customer is blocked by the store and cannot log in.", "customer_blocked");

/**
 * CA4: logs a customer in with a code; their number is verified by it. Two round trips: the code and
 * the customer read together, then one batch (the code's try, check.ts) that for a good code of a
 * live, unblocked customer also marks the number verified and stores the refresh token.
 */
export async function getAccessToken(ctx: ServiceContext, deps: AuthDeps, input: VerifyOtp): Promise<Login> {
  const mobile = await parseMobile(ctx, input.country_code, input.mobile_number);
  const scope: CodeScope = { appId: ctx.appId, phone: mobile.e164, purpose: "login" };
  const [codes, found] = await ctx.db.batch([newestCodeQuery(ctx.db, scope), byPhone(ctx, mobile.e164)]);
  const code = await compareCode(deps, scope, codes[0], input.otp);
  const customer = found[0];
  // The batch repeats that the customer is live and not blocked: either may have changed since the read.
  const mine = and(live(customers, ctx.appId), eq(customers.id, customer?.id ?? 0), eq(customers.isBlocked, false));
  const logsIn = sql`${whenGood(code)} AND EXISTS (SELECT 1 FROM ${customers} WHERE ${mine})`;
  const unverified = sql`${whenGood(code)} AND EXISTS (SELECT 1 FROM ${customers} WHERE ${mine}
      AND ${customers.isMobileVerified} = 0)`;
  const { token, insert } = await newLogin(ctx, customer?.id ?? 0, logsIn);
  const at = new Date().toISOString();
  let outcome: Awaited<ReturnType<typeof emit>>;
  try {
    outcome = await emit(
      ctx.db,
      ctx.events,
      [
        ...tryStatements(ctx.db, code),
        ctx.db
          .update(customers)
          .set({ isMobileVerified: true, modifiedAt: at })
          .where(and(mine, eq(customers.isMobileVerified, false), whenGood(code))),
        insert,
      ],
      [newEvent(ctx.appId, "customer.updated", { id: customer?.id ?? 0 })],
      { guard: unverified },
    );
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    throw await triesRefusal(ctx.db, code);
  }
  const { results, applied } = outcome;
  if (!code.good) throw wrongCode((results[0] as { attempts: number }[])[0]!.attempts);
  if (!customer || (results.at(-1) as unknown[]).length === 0) {
    // The code is used up. Deleted since it was sent: as if the code were no longer good.
    const now = customer && !customer.isBlocked ? await findByPhone(ctx, mobile.e164) : customer;
    throw now?.isBlocked ? blocked() : expired();
  }
  const changed = applied && !customer.isMobileVerified ? { isMobileVerified: true, modifiedAt: at } : {};
  return {
    ...(await tokenPair(
      deps.secret,
      { appId: ctx.appId, customerId: customer.id, shard: deps.shard },
      token,
      Date.now(),
    )),
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
  return tokenPair(deps.secret, { appId: ctx.appId, customerId, shard: deps.shard }, token, now);
}

/** Logout: revokes the refresh token's family. Unknown or already revoked tokens are not an error (RFC 7009). */
export async function logout(ctx: ServiceContext, refreshToken: string): Promise<void> {
  await revokeFamilyOf(ctx.db, ctx.appId, refreshToken);
}
