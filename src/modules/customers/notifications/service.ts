import { and, eq, isNull, max, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { enqueueJob } from "../../../core/jobs";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page, searchColumns } from "../../../core/listing";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { checkPlace } from "../locations/places";
import { readTogether } from "../reads";
import { findCustomer } from "../records/service";
import { customerNotifications, customers, NOTIFICATION_STATUSES, notifications } from "../tables";
import {
  type Audience,
  AudienceSchema,
  type Notification,
  type ReceivedNotification,
  type SendNotification,
} from "./schemas";

type NotificationRow = typeof notifications.$inferSelect;
type ReceivedRow = typeof customerNotifications.$inferSelect;

export const notificationRecords = tenantTable(notifications, {
  label: "Notification",
  notFound: "notification_not_found",
});

/** The customers a notification's audience names, as a condition on `customers` (beside the tenant filter). */
export function audienceWhere(audience: Audience): SQL {
  if ("customer_ids" in audience) return inList(customers.id, audience.customer_ids);
  if (audience.segment === "all") return sql`1 = 1`;
  return eq(customers.currentCityId, audience.segment.city_id);
}

export const audienceOf = (row: NotificationRow): Audience => AudienceSchema.parse(row.audience);

export function notificationView(r: NotificationRow): Notification {
  return {
    id: r.id,
    title_en: r.titleEn,
    title_ar: r.titleAr,
    body_en: r.bodyEn,
    body_ar: r.bodyAr,
    data: r.data ?? null,
    audience: audienceOf(r),
    status: r.status,
    recipients_count: r.recipientsCount,
    push_sent: r.pushSent,
    push_failed: r.pushFailed,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
  };
}

/**
 * Send Notification (MN1): checks the audience, stores the notification with its recipients
 * counted, and hands it to the `push.fanout` job. The audience is frozen at the highest customer
 * id it has now: a customer who joins later is not sent an offer made before they came.
 */
export async function sendNotification(
  ctx: ServiceContext,
  input: SendNotification,
): Promise<{ notification_id: number; recipients_count: number; status: "queued" }> {
  const audience: Audience = input.customer_ids ? { customer_ids: input.customer_ids } : { segment: input.segment! };
  const scope = and(live(customers, ctx.appId), audienceWhere(audience));
  // The segment's city and the audience are read in one round trip; the city's 400 comes first.
  const [, [stats]] = await readTogether(
    "segment" in audience && audience.segment !== "all"
      ? checkPlace(
          ctx,
          { cityId: audience.segment.city_id },
          { city: "segment.city_id", district: "segment.district_id" },
        )
      : Promise.resolve(),
    ctx.db
      .select({ count: sql<number>`count(*)`, upTo: max(customers.id) })
      .from(customers)
      .where(scope)
      .then((rows) => rows),
  );
  const count = stats?.count ?? 0;
  if ("customer_ids" in audience && count !== audience.customer_ids.length) {
    const found = await ctx.db.select({ id: customers.id }).from(customers).where(scope);
    const known = new Set(found.map((r) => r.id));
    const missing = audience.customer_ids.filter((id) => !known.has(id));
    throw ApiError.validation({ customer_ids: [`No customer ${missing.join(", ")} in this store.`] });
  }
  const [row] = await notificationRecords.insert(ctx, {
    appId: ctx.appId,
    titleEn: input.title_en,
    titleAr: input.title_ar,
    bodyEn: input.body_en,
    bodyAr: input.body_ar,
    data: input.data ?? null,
    audience,
    recipientsCount: count,
  });
  const id = row!.id;
  try {
    await enqueueJob(ctx.jobs, ctx.appId, "push.fanout", {
      notification_id: id,
      after_customer_id: 0,
      up_to_customer_id: stats?.upTo ?? 0,
      dispatched: 0,
    });
  } catch (error) {
    // Nothing will send it: say so on the record rather than leave it queued for ever.
    await notificationRecords.update(ctx, id, { status: "failed", modifiedAt: nowIso() });
    throw error;
  }
  return { notification_id: id, recipients_count: count, status: "queued" };
}

export const NOTIFICATION_LIST: ListSpec = {
  fields: {
    id: { column: notifications.id, kind: "integer" },
    status: { column: notifications.status, kind: "string", values: NOTIFICATION_STATUSES },
    recipients_count: { column: notifications.recipientsCount, kind: "integer" },
    push_sent: { column: notifications.pushSent, kind: "integer" },
    push_failed: { column: notifications.pushFailed, kind: "integer" },
    created_at: { column: notifications.createdAt, kind: "datetime" },
  },
  search: searchColumns(notifications.titleEn, notifications.titleAr, notifications.bodyEn, notifications.bodyAr),
  searchDescription: "Matches the titles and bodies (substring).",
  defaultOrder: "-created_at",
  idColumn: notifications.id,
  sync: { modifiedAt: notifications.modifiedAt, softDeleted: false },
};

export async function listNotifications(ctx: ServiceContext, q: ListQuery): Promise<Page<Notification>> {
  const page = await listPage(ctx.db, q, { table: notifications, scope: () => notificationRecords.live(ctx) });
  return mapPage(page, notificationView);
}

export async function getNotification(ctx: ServiceContext, id: number): Promise<Notification> {
  return notificationView(await notificationRecords.find(ctx, id));
}

// ---- the customer app: received notifications (CA9) ----

export function receivedView(r: ReceivedRow): ReceivedNotification {
  return {
    id: r.id,
    notification_id: r.notificationId,
    title_en: r.titleEn,
    title_ar: r.titleAr,
    body_en: r.bodyEn,
    body_ar: r.bodyAr,
    data: r.data ?? null,
    is_read: r.readAt !== null,
    read_at: r.readAt,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
  };
}

const received = (ctx: ServiceContext, customerId: number) =>
  and(live(customerNotifications, ctx.appId), eq(customerNotifications.customerId, customerId))!;

export const RECEIVED_LIST: ListSpec = {
  fields: {
    id: { column: customerNotifications.id, kind: "integer" },
    notification_id: { column: customerNotifications.notificationId, kind: "integer" },
    read_at: { column: customerNotifications.readAt, kind: "datetime", nullable: true },
    created_at: { column: customerNotifications.createdAt, kind: "datetime" },
  },
  search: searchColumns(
    customerNotifications.titleEn,
    customerNotifications.titleAr,
    customerNotifications.bodyEn,
    customerNotifications.bodyAr,
  ),
  searchDescription: "Matches the titles and bodies (substring).",
  defaultOrder: "-created_at",
  idColumn: customerNotifications.id,
  // Not deleted through the API: no include_deleted.
  sync: { modifiedAt: customerNotifications.modifiedAt, softDeleted: false },
};

/** The customer's received notifications, newest first; `isRead` keeps the read (or unread) ones. */
export async function listReceived(
  ctx: ServiceContext,
  customerId: number,
  q: ListQuery,
  isRead?: boolean,
): Promise<Page<ReceivedNotification>> {
  const readFilter =
    isRead === undefined ? undefined : sql`${customerNotifications.readAt} IS ${sql.raw(isRead ? "NOT NULL" : "NULL")}`;
  const [, page] = await Promise.all([
    findCustomer(ctx, customerId),
    listPage(ctx.db, q, { table: customerNotifications, scope: () => and(received(ctx, customerId), readFilter)! }),
  ]);
  return mapPage(page, receivedView);
}

/** Marks one of the customer's notifications read; reading it again keeps the first `read_at`. */
export async function markRead(ctx: ServiceContext, customerId: number, id: number): Promise<ReceivedNotification> {
  await findCustomer(ctx, customerId);
  const now = nowIso();
  const [row] = await ctx.db
    .update(customerNotifications)
    .set({
      readAt: sql`coalesce(${customerNotifications.readAt}, ${now})`,
      // Reading it again changes nothing, so its modified_at stays (no repeat for a mirror).
      modifiedAt: sql`CASE WHEN ${customerNotifications.readAt} IS NULL THEN ${now} ELSE ${customerNotifications.modifiedAt} END`,
    })
    .where(and(received(ctx, customerId), eq(customerNotifications.id, id)))
    .returning();
  if (!row) throw ApiError.notFound("notification_not_found", `Notification ${id}`);
  return receivedView(row);
}

/** Marks every unread notification of the customer read; says how many. */
export async function markAllRead(ctx: ServiceContext, customerId: number): Promise<{ updated: number }> {
  await findCustomer(ctx, customerId);
  const now = nowIso();
  const result = await ctx.db
    .update(customerNotifications)
    .set({ readAt: now, modifiedAt: now })
    .where(and(received(ctx, customerId), isNull(customerNotifications.readAt)));
  return { updated: result.meta.changes ?? 0 };
}
