import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { sha256Hex } from "./crypto";
import { ApiError } from "./errors";
import { TOKEN_PREFIX } from "./permissions";
import { enforceRateLimit, RATE_LIMITS } from "./rate-limit";

const BEARER = /^bearer ([A-Za-z0-9_\-.~+/]{8,2048}=*)$/i;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Whether two strings are equal, in time that does not depend on where they differ (digests of equal length). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(expected)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The platform operator's auth path: `Authorization: Bearer <PLATFORM_API_KEY>` (a Worker secret),
 * no `app-id`. No header 401; a merchant token or a customer's access token 403 `wrong_principal`
 * (they are real, only not the platform's); any other bearer 401 `invalid_token`; without the
 * secret every request is a 503 saying the operator must set it. One rate-limit key, `platform`. Sets
 * the principal `{ kind: "platform" }` (the audit trail's actor `platform`).
 */
export const authenticatePlatform = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const header = c.req.header("authorization");
  if (!header) throw ApiError.unauthorized("Send `Authorization: Bearer <platform key>`.");
  const m = BEARER.exec(header.trim());
  if (!m) throw ApiError.unauthorized("The Authorization header must be `Bearer <token>`.", "malformed_token");
  const token = m[1]!;
  if (token.startsWith(TOKEN_PREFIX) || JWT_SHAPE.test(token)) {
    throw ApiError.forbidden(
      "Platform operations take the platform operator's key, not a merchant or customer token.",
      "wrong_principal",
    );
  }
  const key = c.env.PLATFORM_API_KEY;
  if (!key) {
    throw new ApiError(
      503,
      "platform_key_not_set",
      "The platform operations are off: the operator must set the PLATFORM_API_KEY secret " +
        "(`wrangler secret put PLATFORM_API_KEY`; locally `.dev.vars`).",
    );
  }
  if (!(await sameSecret(token, key))) throw ApiError.unauthorized("The token is not valid.", "invalid_token");
  await enforceRateLimit(
    c,
    RATE_LIMITS.token,
    "platform",
    "Too many platform requests; retry after `Retry-After` seconds.",
  );
  c.set("principal", { kind: "platform" });
  await next();
};
