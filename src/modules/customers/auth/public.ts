import type { Context } from "hono";
import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { enforceRateLimit, RATE_LIMITS } from "../../../core/rate-limit";
import { publicRoute } from "../../../core/routes";
import type { AppEnv } from "../../../env";
import { testNumbers } from "./otp";
import {
  CodeSentSchema,
  LoginSchema,
  LogoutSchema,
  RefreshSchema,
  RegisterSchema,
  RequestOtpSchema,
  TokenPairSchema,
  VerifyOtpSchema,
} from "./schemas";
import {
  type AuthDeps,
  confirmRegistration,
  getAccessToken,
  logout,
  refreshAccessToken,
  register,
  requestOtp,
} from "./service";

/**
 * The customer login (CA1–CA5) and logout, under /api/v1/customer: public routes (only `app-id`),
 * since the customer has no token yet. Codes requested and codes checked also count against a
 * ceiling per client IP.
 */

const common = { tags: ["Customer app: login"] };

const SEND_ERRORS = { 429: ["rate_limited", "otp_send_limit_reached", "otp_resend_too_soon"] } as const;
const CHECK_ERRORS = {
  400: ["invalid_otp", "otp_expired"],
  429: ["rate_limited", "otp_attempts_exceeded"],
} as const;
const LIMITS =
  "Limits: 5 codes a number in 10 minutes, one a minute, 20 requests a minute per IP (429 with `Retry-After`).";

export const registerRoute = publicRoute({
  ...common,
  method: "post",
  path: "/register/",
  operationId: "registerCustomer",
  summary: "Register Customer",
  specId: "CA1",
  description:
    "Sends a code to confirm the registration by SMS (expires in 5 minutes). The answer is the same " +
    "whether or not the number is registered; a registered number is sent nothing (log in with " +
    `Request OTP). ${LIMITS} A store sends at most 20 registration codes in 10 minutes, all numbers ` +
    "together (a store setting; against SMS pumping): 429 `register_budget_reached` with `Retry-After`.",
  request: { body: jsonBody(RegisterSchema) },
  errors: { 429: [...SEND_ERRORS[429], "register_budget_reached"] },
  responses: { 202: jsonContent(CodeSentSchema, "A code is on its way to the number, if one is due.") },
});

export const confirmRegistrationRoute = publicRoute({
  ...common,
  method: "post",
  path: "/register/confirm/",
  operationId: "confirmCustomerRegistration",
  summary: "Confirm Customer Registration",
  specId: "CA2",
  description:
    "Checks the code of Register Customer; a good one creates the customer (mobile verified, event " +
    "`customer.created`) and logs them in. A code has 5 tries.",
  request: { body: jsonBody(VerifyOtpSchema) },
  errors: { ...CHECK_ERRORS, 409: ["customer_already_registered"] },
  responses: { 201: jsonContent(LoginSchema, "The customer, created, and their tokens.") },
});

export const requestOtpRoute = publicRoute({
  ...common,
  method: "post",
  path: "/auth/otp/",
  operationId: "requestCustomerOtp",
  summary: "Request OTP",
  specId: "CA3",
  description:
    "Sends a login code by SMS (expires in 5 minutes; a new one replaces the previous one). The answer " +
    `is the same whether or not the number is a customer's; a number of no customer is sent nothing. ${LIMITS}`,
  request: { body: jsonBody(RequestOtpSchema) },
  errors: SEND_ERRORS,
  responses: { 202: jsonContent(CodeSentSchema, "A code is on its way to the number, if one is due.") },
});

export const getAccessTokenRoute = publicRoute({
  ...common,
  method: "post",
  path: "/auth/token/",
  operationId: "getCustomerAccessToken",
  summary: "Get Access Token",
  specId: "CA4",
  description:
    "Exchanges the code of Request OTP for an access token (a JWT of 15 minutes) and a refresh token " +
    "(30 days). A code has 5 tries, and a number 10 checks an hour.",
  request: { body: jsonBody(VerifyOtpSchema) },
  errors: { ...CHECK_ERRORS, 403: ["customer_blocked"] },
  responses: { 200: jsonContent(LoginSchema, "The tokens and the customer.") },
});

export const refreshAccessTokenRoute = publicRoute({
  ...common,
  method: "post",
  path: "/auth/token/refresh/",
  operationId: "refreshCustomerAccessToken",
  summary: "Refresh Access Token",
  specId: "CA5",
  description:
    "A new pair for a refresh token, which is replaced: use the new one next time. A replaced token used " +
    "again revokes every token of its login (`refresh_token_reused`): refresh one request at a time.",
  request: { body: jsonBody(RefreshSchema) },
  errors: { 401: ["invalid_refresh_token", "refresh_token_reused"], 403: ["customer_blocked"] },
  responses: { 200: jsonContent(TokenPairSchema, "The new access and refresh tokens.") },
});

export const logoutRoute = publicRoute({
  ...common,
  method: "post",
  path: "/auth/logout/",
  operationId: "logoutCustomer",
  summary: "Log Out",
  beyondSpec: "The spec has no logout; revoking the session's refresh tokens is how a customer app signs out.",
  description:
    "Revokes the refresh token's login (the token and every one it was replaced by). An unknown or " +
    "already revoked token is not an error (RFC 7009). The access token lives out its 15 minutes.",
  request: { body: jsonBody(LogoutSchema) },
  responses: { 204: { description: "Logged out." } },
});

/** The client's IP, as Cloudflare gives it; absent only in local tools that do not set it. */
const clientIp = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip") ?? null;

/** The per-IP ceiling on codes requested and checked. */
async function limitIp(c: Context<AppEnv>): Promise<void> {
  await enforceRateLimit(
    c,
    RATE_LIMITS.otpIp,
    `otp:${clientIp(c) ?? "unknown"}`,
    "Too many login requests from this address; retry after `Retry-After` seconds.",
  );
}

function deps(c: Context<AppEnv>): AuthDeps {
  const secret = c.env.CUSTOMER_JWT_SECRET;
  if (!secret) throw new Error("CUSTOMER_JWT_SECRET is not set (see README, Secrets)");
  return { secret, tests: testNumbers(c.env), ip: clientIp(c), shard: c.get("shard") };
}

// RFC 6749 §5.1: an answer carrying tokens is never cached.
const NO_STORE = { "Cache-Control": "no-store" };

export const customerAuthRouter = createRouter()
  .openapi(registerRoute, async (c) => {
    await limitIp(c);
    return c.json(await register(serviceContext(c), deps(c), c.req.valid("json")), 202);
  })
  .openapi(confirmRegistrationRoute, async (c) => {
    await limitIp(c);
    return c.json(await confirmRegistration(serviceContext(c), deps(c), c.req.valid("json")), 201, NO_STORE);
  })
  .openapi(requestOtpRoute, async (c) => {
    await limitIp(c);
    return c.json(await requestOtp(serviceContext(c), deps(c), c.req.valid("json")), 202);
  })
  .openapi(getAccessTokenRoute, async (c) => {
    await limitIp(c);
    return c.json(await getAccessToken(serviceContext(c), deps(c), c.req.valid("json")), 200, NO_STORE);
  })
  .openapi(refreshAccessTokenRoute, async (c) =>
    c.json(await refreshAccessToken(serviceContext(c), deps(c), c.req.valid("json").refresh_token), 200, NO_STORE),
  )
  .openapi(logoutRoute, async (c) => {
    await logout(serviceContext(c), c.req.valid("json").refresh_token);
    return c.body(null, 204);
  });
