import { and, eq, sql } from "drizzle-orm";
import { forgetCustomerStanding } from "../../../core/auth";
import type { ServiceContext } from "../../../core/context";
import { live, softDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { revokeCustomerSessions } from "../auth/tokens";
import { changeCustomer, customerRecords, customerView, findCustomer } from "../records/service";
import { customerLocations, customers, fcmTokens, otpCodes } from "../tables";
import type { Profile, UpdateProfile } from "./schemas";

/**
 * The customer app's profile (CA6): the customer of the access token, read and changed through the
 * records' own rules (a new email is unverified, a secondary number is normalised, the city must
 * exist, `customer.updated` is emitted). A deleted customer's token that is still valid gets 401
 * `token_revoked` from the auth path (a blocked one's 403 `customer_blocked`).
 */

const profileOf = (row: typeof customers.$inferSelect): Profile => ({
  ...customerView(row),
  platform_version: row.platformVersion,
});

export async function getProfile(ctx: ServiceContext, customerId: number): Promise<Profile> {
  return profileOf(await findCustomer(ctx, customerId));
}

/** The records' change (one read round trip, one batch that answers the row), shown as the profile. */
export async function updateProfile(ctx: ServiceContext, customerId: number, input: UpdateProfile): Promise<Profile> {
  return profileOf(await changeCustomer(ctx, customerId, input));
}

export async function updateLanguage(ctx: ServiceContext, customerId: number, lang: "ar" | "en"): Promise<Profile> {
  return profileOf(await changeCustomer(ctx, customerId, { lang }));
}

export async function updateAvatar(ctx: ServiceContext, customerId: number, avatar: string | null): Promise<Profile> {
  return profileOf(await changeCustomer(ctx, customerId, { avatar }));
}

/**
 * The app's version is the app's bookkeeping, not a change of the customer: no event. One guarded
 * update that answers the row; none when the customer is not live.
 */
export async function updatePlatformVersion(ctx: ServiceContext, customerId: number, version: string) {
  const [row] = await customerRecords
    .update(ctx, customerId, { platformVersion: version, modifiedAt: nowIso() })
    .returning();
  if (!row) throw ApiError.notFound("customer_not_found", `Customer ${customerId}`);
  return profileOf(row);
}

/** What a deleted customer's mobile number becomes: not a number, unique, so that the real one may register again. */
export const tombstoneOf = (customerId: number) => `deleted:${customerId}`;

/**
 * Delete Customer Account: one batch, guarded on the customer still being live. The customer is
 * soft-deleted with their personal data erased (the number replaced by a tombstone), every login
 * session revoked, every device's FCM token deactivated, their locations soft-deleted and their
 * pending login codes dropped; `customer.deleted` is emitted. Orders, wallet entries and received
 * notifications keep pointing at the (anonymised) customer.
 */
export async function deleteAccount(ctx: ServiceContext, customerId: number): Promise<void> {
  const current = await findCustomer(ctx, customerId);
  const now = nowIso();
  const mine = and(live(customers, ctx.appId), eq(customers.id, customerId))!;
  const tombstone = tombstoneOf(customerId);
  const { applied } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(customers)
        .set({
          ...softDeleted(now),
          mobileNumber: tombstone,
          username: tombstone,
          name: null,
          email: null,
          nationalId: null,
          dateOfBirth: null,
          avatar: null,
          secondaryMobileNumber: null,
          currentCityId: null,
          platformVersion: null,
          customFields: null,
        })
        .where(mine),
      revokeCustomerSessions(ctx.db, ctx.appId, customerId, Date.parse(now)),
      ctx.db
        .update(fcmTokens)
        .set({ isActive: false, modifiedAt: now })
        .where(and(eq(fcmTokens.appId, ctx.appId), eq(fcmTokens.customerId, customerId), eq(fcmTokens.isActive, true))),
      ctx.db
        .update(customerLocations)
        .set(softDeleted(now))
        .where(and(live(customerLocations, ctx.appId), eq(customerLocations.customerId, customerId))),
      ctx.db.delete(otpCodes).where(and(eq(otpCodes.appId, ctx.appId), eq(otpCodes.phone, current.mobileNumber))),
    ],
    [newEvent(ctx.appId, "customer.deleted", { id: customerId })],
    { guard: sql`EXISTS (SELECT 1 FROM ${customers} WHERE ${mine})` },
  );
  // The access token's remaining minutes end now too (the auth path reads the customer again).
  forgetCustomerStanding(ctx.appId, customerId);
  // Another request deleted the account between the read and the batch.
  if (!applied) throw ApiError.notFound("customer_not_found", `Customer ${customerId}`);
}
