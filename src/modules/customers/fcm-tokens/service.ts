import { and, desc, eq, notInArray } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { nowIso } from "../../../core/time";
import { readTogether } from "../reads";
import { findCustomer } from "../records/service";
import { fcmTokens } from "../tables";
import type { FcmToken, RegisterFcmToken } from "./schemas";

/**
 * A customer's devices for pushes (CA7). A token is unique in the store: registering one that
 * exists re-activates it and gives it to the caller (a device changes hands, or its customer
 * logged out and another logged in). A customer keeps at most ACTIVE_TOKENS_MAX active tokens, the
 * most recently registered: a send job then never has more of one customer than it can push.
 */
export const ACTIVE_TOKENS_MAX = 10;

const view = (r: typeof fcmTokens.$inferSelect): FcmToken => ({
  id: r.id,
  token: r.token,
  platform: r.platform,
  is_active: r.isActive,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
});

/** Registers (201) or re-activates (200) the token for the customer, in one batch with the cap. */
export async function registerFcmToken(
  ctx: ServiceContext,
  customerId: number,
  input: RegisterFcmToken,
): Promise<{ token: FcmToken; created: boolean }> {
  // The customer and the token read in one round trip; the customer's 404 comes first.
  const [, [existing]] = await readTogether(
    findCustomer(ctx, customerId),
    ctx.db
      .select({ id: fcmTokens.id })
      .from(fcmTokens)
      .where(and(eq(fcmTokens.appId, ctx.appId), eq(fcmTokens.token, input.token)))
      .limit(1)
      .then((rows) => rows),
  );
  const now = nowIso();
  const active = and(live(fcmTokens, ctx.appId), eq(fcmTokens.customerId, customerId), eq(fcmTokens.isActive, true));
  const newest = ctx.db
    .select({ id: fcmTokens.id })
    .from(fcmTokens)
    .where(active)
    .orderBy(desc(fcmTokens.modifiedAt), desc(fcmTokens.id))
    .limit(ACTIVE_TOKENS_MAX);
  const [rows] = await ctx.db.batch([
    ctx.db
      .insert(fcmTokens)
      .values({ appId: ctx.appId, customerId, token: input.token, platform: input.platform, modifiedAt: now })
      .onConflictDoUpdate({
        target: [fcmTokens.appId, fcmTokens.token],
        set: {
          customerId,
          platform: input.platform,
          isActive: true,
          isDeleted: false,
          deletedAt: null,
          modifiedAt: now,
        },
      })
      .returning(),
    ctx.db
      .update(fcmTokens)
      .set({ isActive: false, modifiedAt: now })
      .where(and(active, notInArray(fcmTokens.id, newest))),
  ]);
  return { token: view(rows[0]!), created: !existing };
}

/** Deactivates one of the customer's tokens (again: no error); another customer's or an unknown one is 404. */
export async function removeFcmToken(ctx: ServiceContext, customerId: number, token: string): Promise<void> {
  await findCustomer(ctx, customerId);
  const rows = await ctx.db
    .update(fcmTokens)
    .set({ isActive: false, modifiedAt: nowIso() })
    .where(and(live(fcmTokens, ctx.appId), eq(fcmTokens.customerId, customerId), eq(fcmTokens.token, token)))
    .returning({ id: fcmTokens.id });
  if (!rows.length) throw ApiError.notFound("fcm_token_not_found", "This FCM token");
}
