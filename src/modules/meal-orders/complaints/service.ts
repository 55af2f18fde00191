import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { literalEvent, rowEvent } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { inList } from "../../../core/sql";
import { nowIso, todayIn } from "../../../core/time";
import { addCashbackMovement } from "../../customers";
import { addDays, restaurantTimeZoneSql } from "../../meals";
import { mealSubscriptions, suborders } from "../tables";
import { complaintMachine } from "./machine";
import { COMPLAINT_REASON_CODES, COMPLAINT_REASONS, COMPLAINT_WINDOW_DAYS, reasonOf } from "./reasons";
import type { Complaint, CreateComplaint, UpdateComplaint } from "./schemas";
import { COMPLAINT_STATUSES, complaints } from "./tables";

type ComplaintRow = typeof complaints.$inferSelect;
const k = complaints;
const CURRENCY = "SAR";
const label = (id: number) => `Complaint ${id}`;

/** List Complaint Reasons: the fixed list, paged like every list. */
export function listReasons(q: { page?: number; page_size?: number }) {
  const page = q.page ?? 1;
  const pageSize = q.page_size ?? 20;
  const last = Math.max(1, Math.ceil(COMPLAINT_REASONS.length / pageSize));
  if (page > last) throw ApiError.validation({ page: [`Out of range: this list has ${last} page(s) of ${pageSize}.`] });
  return {
    count: COMPLAINT_REASONS.length,
    page,
    pageSize,
    results: COMPLAINT_REASONS.slice((page - 1) * pageSize, page * pageSize).map((r) => ({ ...r })),
  };
}

export const COMPLAINT_LIST: ListSpec = {
  fields: {
    id: { column: k.id, kind: "integer" },
    status: { column: k.status, kind: "string", values: COMPLAINT_STATUSES },
    reason: { column: k.reason, kind: "string", values: COMPLAINT_REASON_CODES },
    suborder_id: { column: k.suborderId, kind: "integer" },
    subscription_id: { column: k.subscriptionId, kind: "integer" },
    customer_id: { column: k.customerId, kind: "integer" },
    created_at: { column: k.createdAt, kind: "datetime" },
    resolved_at: { column: k.resolvedAt, kind: "datetime", nullable: true },
  },
  defaultOrder: "-created_at",
  idColumn: k.id,
  sync: { modifiedAt: k.modifiedAt, softDeleted: false },
};

/** The store's live complaints (of `customerId` when given). */
const scope = (ctx: ServiceContext, customerId?: number): SQL =>
  and(live(k, ctx.appId), customerId === undefined ? undefined : eq(k.customerId, customerId))!;

type SuborderBrief = { id: number; date: string; status: (typeof suborders.$inferSelect)["status"] };

/** The suborders of the store whose ids `ids` gives (a list, or a subquery read in the same statement). */
const briefsOf = (ctx: ServiceContext, ids: readonly number[] | SQL) =>
  and(
    eq(suborders.appId, ctx.appId),
    Array.isArray(ids) ? inList(suborders.id, ids) : sql`${suborders.id} IN (${ids})`,
  )!;

const briefsQuery = (ctx: ServiceContext, ids: readonly number[] | SQL) =>
  ctx.db
    .select({ id: suborders.id, date: suborders.date, status: suborders.status })
    .from(suborders)
    .where(briefsOf(ctx, ids));

function viewsWith(rows: readonly ComplaintRow[], subs: readonly SuborderBrief[]): Complaint[] {
  const byId = new Map(subs.map((s) => [s.id, s]));
  return rows.map((r) => ({
    id: r.id,
    app_id: r.appId,
    suborder_id: r.suborderId,
    subscription_id: r.subscriptionId,
    customer_id: r.customerId,
    reason: reasonOf(r.reason) as Complaint["reason"],
    description: r.description,
    images: r.images,
    status: r.status,
    allowed_actions: complaintMachine.allowed(r.status),
    resolution_note: r.resolutionNote,
    wallet_credit: r.walletCreditMinor === null ? null : toMajor(r.walletCreditMinor),
    currency: CURRENCY,
    resolved_at: r.resolvedAt,
    suborder: byId.get(r.suborderId) ?? { id: r.suborderId, date: "", status: "delivered" },
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
    deleted_at: r.deletedAt,
    is_deleted: r.isDeleted,
    ordering: r.ordering,
  }));
}

export async function listComplaints(ctx: ServiceContext, q: ListQuery, customerId?: number): Promise<Page<Complaint>> {
  // One statement: the page and its suborders.
  const { page, nested } = await listPageWith(ctx.db, q, { table: k, scope: () => scope(ctx, customerId) }, (rows) => ({
    suborders: sql`(SELECT json_group_array(json_array(${suborders.id}, ${suborders.date}, ${suborders.status}))
      FROM ${suborders} WHERE ${briefsOf(ctx, sql`SELECT suborder_id FROM ${rows}`)})`,
  }));
  const subs = ((nested.suborders ?? []) as [number, string, SuborderBrief["status"]][]).map(([id, date, status]) => ({
    id,
    date,
    status,
  }));
  return { ...page, results: viewsWith(page.results, subs) };
}

async function findComplaint(ctx: ServiceContext, id: number, customerId?: number) {
  const row = await ctx.db
    .select()
    .from(k)
    .where(and(eq(k.id, id), scope(ctx, customerId)))
    .get();
  if (!row) throw ApiError.notFound("complaint_not_found", label(id));
  return row;
}

/** One complaint's row and its suborder, in one batch keyed by the id; else 404. */
async function findWithSuborder(ctx: ServiceContext, id: number, customerId?: number) {
  const where = and(eq(k.id, id), scope(ctx, customerId))!;
  const [rows, subs] = await ctx.db.batch([
    ctx.db.select().from(k).where(where),
    briefsQuery(ctx, sql`SELECT ${k.suborderId} FROM ${k} WHERE ${where}`),
  ]);
  if (!rows[0]) throw ApiError.notFound("complaint_not_found", label(id));
  return { row: rows[0], subs };
}

/** One complaint and its suborder, in one batch keyed by the id. */
export async function complaintDetails(ctx: ServiceContext, id: number, customerId?: number): Promise<Complaint> {
  const { row, subs } = await findWithSuborder(ctx, id, customerId);
  return viewsWith([row], subs)[0]!;
}

const COMPLAINABLE = ["delivered", "not_received_by_customer"];

const eventData = sql`json_object('id', id, 'suborder_id', suborder_id, 'status', status, 'reason', reason)`;

/** Complain SubOrder: a delivered (or not received) suborder of the customer's, within the window after its date. */
export async function createComplaint(
  ctx: ServiceContext,
  customerId: number,
  suborderId: number,
  input: CreateComplaint,
): Promise<Complaint> {
  // Every read at once: the suborder with its restaurant's time zone, and a complaint it already has.
  const [subs, existing] = await ctx.db.batch([
    ctx.db
      .select({
        subscriptionId: suborders.subscriptionId,
        date: suborders.date,
        status: suborders.status,
        timeZone: restaurantTimeZoneSql(ctx.appId, sql`${suborders.restaurantId}`),
      })
      .from(suborders)
      .where(and(eq(suborders.id, suborderId), live(suborders, ctx.appId), eq(suborders.customerId, customerId))),
    ctx.db
      .select({ id: k.id })
      .from(k)
      .where(and(eq(k.appId, ctx.appId), eq(k.suborderId, suborderId))),
  ]);
  const sub = subs[0];
  if (!sub) throw ApiError.notFound("suborder_not_found", `Suborder ${suborderId}`);
  if (!COMPLAINABLE.includes(sub.status))
    throw ApiError.conflict(
      "complaint_not_allowed",
      `Suborder ${suborderId} is ${sub.status}: only a delivered or not received one can be complained about.`,
      { current_status: sub.status },
    );
  const last = addDays(sub.date, COMPLAINT_WINDOW_DAYS);
  if (todayIn(sub.timeZone ?? "Asia/Riyadh") > last)
    throw ApiError.conflict(
      "complaint_window_closed",
      `Complaints about the delivery of ${sub.date} were taken until ${last}.`,
      { last_valid_date: last },
    );
  if (existing[0]) throw exists(suborderId, existing[0].id);
  const plan = new BatchPlan(ctx.db);
  const complaint = plan.insert(
    "complaint",
    ctx.db.insert(k).values({
      appId: ctx.appId,
      suborderId,
      subscriptionId: sub.subscriptionId,
      customerId,
      reason: input.reason,
      description: input.description ?? null,
      images: input.images ?? [],
    }),
  );
  plan.event(rowEvent("complaint.created", k, sql`id = ${complaint.id}`, eventData));
  // The complaint as the batch made it: the answer, with the suborder as read above.
  const made = plan.read<ComplaintRow>(ctx.db.select().from(k).where(sql`${k.id} = ${complaint.id}`));
  let rows: ComplaintRow[];
  try {
    rows = (await plan.run(ctx.events)).rows(made);
  } catch (error) {
    // Two complaints at once: the unique index lets one in.
    const winner = await ctx.db.select({ id: k.id }).from(k).where(eq(k.suborderId, suborderId)).get();
    if (winner) throw exists(suborderId, winner.id);
    throw error;
  }
  return viewsWith(rows, [{ id: suborderId, date: sub.date, status: sub.status }])[0]!;
}

const exists = (suborderId: number, id: number) =>
  ApiError.conflict("complaint_exists", `Suborder ${suborderId} already has complaint ${id}.`, { complaint_id: id });

/**
 * The store moves a complaint (open → in_review → resolved | rejected) or notes its answer; a
 * resolution may credit cashback to the customer's wallet in the same batch (an entry of type
 * `deposit`, linked to the subscription's order, and its `customer.wallet.updated`).
 */
export async function updateComplaint(ctx: ServiceContext, id: number, input: UpdateComplaint): Promise<Complaint> {
  // The suborder does not change with the complaint: read with it, it answers after the write.
  const { row, subs } = await findWithSuborder(ctx, id);
  const to = input.status !== undefined && input.status !== row.status ? input.status : undefined;
  if (to) complaintMachine.next(row.status, to, label(id));
  if (input.wallet_credit !== undefined && to !== "resolved")
    throw ApiError.validation({ wallet_credit: ["Only when the complaint moves to `resolved`."] });
  const at = nowIso();
  const final = to === "resolved" || to === "rejected";
  const same = sql`${k.id} = ${id} AND ${k.appId} = ${ctx.appId} AND ${k.status} = ${row.status}
    AND ${k.modifiedAt} = ${row.modifiedAt}`;
  const statements = [
    abortUnless(ctx.db, sql`EXISTS (SELECT 1 FROM ${k} WHERE ${same})`, `complaint:${id}`),
    ctx.db
      .update(k)
      .set({
        ...(to && { status: to }),
        ...(input.resolution_note !== undefined && { resolutionNote: input.resolution_note }),
        ...(input.wallet_credit !== undefined && { walletCreditMinor: input.wallet_credit }),
        ...(final && { resolvedAt: at }),
        modifiedAt: at,
      })
      .where(same),
  ];
  const credit = input.wallet_credit;
  const type = to === "resolved" ? "complaint.resolved" : "complaint.updated";
  const base = { id, suborder_id: row.suborderId, status: to ?? row.status, reason: row.reason };
  const event =
    type === "complaint.resolved"
      ? literalEvent(ctx.appId, type, { ...base, wallet_credit: credit === undefined ? null : toMajor(credit) })
      : literalEvent(ctx.appId, type, base);
  const plan = new BatchPlan(ctx.db).add(...statements).event(event);
  if (credit !== undefined)
    addCashbackMovement(plan, ctx, row.customerId, {
      type: "deposit",
      units: credit,
      orderId: sql`(SELECT ${mealSubscriptions.orderId} FROM ${mealSubscriptions}
        WHERE ${mealSubscriptions.id} = ${row.subscriptionId})`,
      reason: `Complaint ${id} resolved`,
      reference: `complaint:${id}`,
    });
  // The complaint as the batch left it: the answer.
  const changed = plan.read<ComplaintRow>(ctx.db.select().from(k).where(eq(k.id, id)));
  let rows: ComplaintRow[];
  try {
    rows = (await plan.run(ctx.events)).rows(changed);
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    const now = await findComplaint(ctx, id);
    if (now.status === row.status && now.modifiedAt === row.modifiedAt)
      throw ApiError.notFound("customer_not_found", `The complaint's customer ${row.customerId}`);
    throw ApiError.conflict("concurrent_update", `${label(id)} changed while this request ran; retry.`);
  }
  return viewsWith(rows, subs)[0]!;
}
