import { and, eq, gte, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { literalEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../../core/listing";
import { containsText } from "../../../core/sql";
import { nowIso, todayIn } from "../../../core/time";
import { checkPlace, parseMobile } from "../../customers";
import { findBranch, restaurantTimeZoneSql } from "../../meals";
import { OPEN_SUBORDER_STATUSES, suborders } from "../tables";
import type { Captain, CreateCaptain, UpdateCaptain } from "./schemas";
import { captains } from "./tables";

/** Captains (ML2, ML5): the store's delivery people, each in a city and, usually, at a branch. */

export type CaptainRow = typeof captains.$inferSelect;

export const captainRows = tenantTable(captains, {
  label: "Captain",
  notFound: "captain_not_found",
  events: { created: "captain.created", updated: "captain.updated", deleted: "captain.deleted" },
});

export const captainView = (r: CaptainRow): Captain => ({
  id: r.id,
  app_id: r.appId,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
  deleted_at: r.deletedAt,
  is_deleted: r.isDeleted,
  ordering: r.ordering,
  name: r.name,
  country_code: r.countryCode,
  mobile_number: r.mobileNumber,
  city_id: r.cityId,
  branch_id: r.branchId,
  is_active: r.isActive,
  vehicle: r.vehicle,
});

/** A term: part of the name, or digits of the mobile number in any form it is typed ("0534…", "+966 53…"). */
function searchCaptains(term: string) {
  const conditions: SQL[] = [containsText(captains.name, term)];
  if (/^[\d\s+().-]+$/.test(term)) {
    const digits = term
      .replace(/\D/g, "")
      .slice(/^\s*00/.test(term) ? 2 : 0)
      .replace(/^0/, "");
    if (digits.length >= 2) conditions.push(containsText(captains.mobileNumber, digits));
  }
  return { where: or(...conditions)!, indexed: false };
}

export const CAPTAIN_LIST: ListSpec = {
  fields: {
    id: { column: captains.id, kind: "integer" },
    name: { column: captains.name, kind: "string" },
    mobile_number: { column: captains.mobileNumber, kind: "string" },
    city_id: { column: captains.cityId, kind: "integer" },
    branch_id: { column: captains.branchId, kind: "integer", nullable: true },
    is_active: { column: captains.isActive, kind: "boolean" },
    ordering: { column: captains.ordering, kind: "integer" },
    created_at: { column: captains.createdAt, kind: "datetime" },
  },
  search: searchCaptains,
  searchDescription: "A term found in the name, or digits of the mobile number in any form; may repeat.",
  defaultOrder: "ordering",
  idColumn: captains.id,
  sync: { modifiedAt: captains.modifiedAt, softDeleted: true },
};

export async function listCaptains(ctx: ServiceContext, q: ListQuery): Promise<Page<Captain>> {
  return mapPage(await listPage(ctx.db, q, { table: captains, scope: () => captainRows.listed(ctx, q) }), captainView);
}

export async function getCaptain(ctx: ServiceContext, id: number): Promise<Captain> {
  return captainView(await captainRows.find(ctx, id));
}

const mobileTaken = (e164: string, other?: number) =>
  ApiError.conflict(
    "captain_mobile_taken",
    `Another captain of the store has mobile number ${e164}.`,
    other === undefined ? {} : { captain_id: other },
  );

/**
 * The city and branch named must exist: a 400 on the field otherwise. Both are read at once; the
 * city's refusal still comes first.
 */
async function checkRefs(ctx: ServiceContext, body: { city_id?: number; branch_id?: number | null }) {
  const [place, branch] = await Promise.allSettled([
    checkPlace(ctx, { cityId: body.city_id }),
    body.branch_id == null ? undefined : findBranch(ctx, body.branch_id),
  ]);
  if (place.status === "rejected") throw place.reason;
  if (branch.status === "rejected") throw branch.reason;
  if (body.branch_id != null && !branch.value)
    throw ApiError.validation({ branch_id: ["No such branch of the store's restaurants."] });
}

/** The live captains of the store, other than `self`, who have the mobile number `e164`. */
const holdersWhere = (ctx: ServiceContext, e164: string, self?: number) =>
  and(captainRows.live(ctx), eq(captains.mobileNumber, e164), self === undefined ? undefined : ne(captains.id, self));

const holderOf = (ctx: ServiceContext, e164: string, self?: number) =>
  ctx.db
    .select({ id: captains.id })
    .from(captains)
    .where(holdersWhere(ctx, e164, self))
    .get();

/** The unique index answers a race the check lost. */
async function takingMobile<T>(e164: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (e164 && /UNIQUE constraint failed: captains\./.test(String((err as Error)?.message))) throw mobileTaken(e164);
    throw err;
  }
}

/** The live captain `id` of the store, as a condition of a batch (the 404 when it fails). */
const captainLives = (ctx: ServiceContext, id: number) =>
  sql`EXISTS (SELECT 1 FROM ${captains} WHERE ${and(captainRows.live(ctx), eq(captains.id, id))})`;

const captainNotFound = (id: number) => ApiError.notFound("captain_not_found", `${captainRows.label} ${id}`);

export async function createCaptain(ctx: ServiceContext, body: CreateCaptain): Promise<Captain> {
  const mobile = await parseMobile(ctx, body.country_code ?? "966", body.mobile_number);
  // One round trip of reads: the references and the number's holder, refused in that order.
  const [refs, holder] = await Promise.allSettled([checkRefs(ctx, body), holderOf(ctx, mobile.e164)]);
  if (refs.status === "rejected") throw refs.reason;
  if (holder.status === "rejected") throw holder.reason;
  if (holder.value) throw mobileTaken(mobile.e164, holder.value.id);
  const row = await takingMobile(mobile.e164, () =>
    captainRows.create(ctx, {
      appId: ctx.appId,
      name: body.name,
      countryCode: mobile.countryCode,
      mobileNumber: mobile.e164,
      cityId: body.city_id,
      branchId: body.branch_id ?? null,
      isActive: body.is_active,
      vehicle: body.vehicle,
      ordering: body.ordering,
    }),
  );
  return captainView(row);
}

/**
 * A new `country_code` alone would re-read the old number: it comes with `mobile_number`. The row
 * and the references are read at once; the number's holder (known only with the row's country
 * code) and the row's existence are guards of the one batch that changes it and reads it back.
 */
export async function updateCaptain(ctx: ServiceContext, id: number, body: UpdateCaptain): Promise<Captain> {
  const [found, refs] = await Promise.allSettled([captainRows.get(ctx, id), checkRefs(ctx, body)]);
  if (found.status === "rejected") throw found.reason;
  const row = found.value;
  if (!row) throw captainNotFound(id);
  if (body.country_code !== undefined && body.mobile_number === undefined)
    throw ApiError.validation({ mobile_number: ["Required with country_code."] });
  const mobile =
    body.mobile_number === undefined
      ? undefined
      : await parseMobile(ctx, body.country_code ?? row.countryCode, body.mobile_number);
  if (refs.status === "rejected") throw refs.reason;
  const plan = new BatchPlan(ctx.db);
  plan.guard(captainLives(ctx, id), "captain", captainNotFound(id));
  if (mobile)
    plan.guard(
      sql`NOT EXISTS (SELECT 1 FROM ${captains} WHERE ${holdersWhere(ctx, mobile.e164, id)})`,
      "captain_mobile",
      async () => {
        const holder = await holderOf(ctx, mobile.e164, id);
        return holder ? mobileTaken(mobile.e164, holder.id) : null;
      },
    );
  const changed = plan.read<CaptainRow>(
    captainRows
      .update(ctx, id, {
        name: body.name,
        countryCode: mobile?.countryCode,
        mobileNumber: mobile?.e164,
        cityId: body.city_id,
        branchId: body.branch_id,
        isActive: body.is_active,
        vehicle: body.vehicle,
        ordering: body.ordering,
        modifiedAt: nowIso(),
      })
      .returning(),
  );
  plan.event(literalEvent(ctx.appId, "captain.updated", { id }));
  const result = await takingMobile(mobile?.e164, () => plan.run(ctx.events));
  return captainView(result.rows(changed)[0]!);
}

/**
 * Refused while suborders still to be delivered today or later (each restaurant's today) are
 * assigned to the captain: they would go out with nobody. Past and finished ones keep the captain.
 * The captain and its open suborders, each with its restaurant's time zone, are read at once.
 */
export async function deleteCaptain(ctx: ServiceContext, id: number): Promise<void> {
  // Today at UTC-12 is the earliest today anywhere: an earlier date is past in every zone.
  const earliest = todayIn("Etc/GMT+12");
  const [row, open] = await Promise.all([
    captainRows.get(ctx, id),
    ctx.db
      .select({
        id: suborders.id,
        date: suborders.date,
        timeZone: restaurantTimeZoneSql(ctx.appId, sql`${suborders.restaurantId}`),
      })
      .from(suborders)
      .where(
        and(
          live(suborders, ctx.appId),
          eq(suborders.captainId, id),
          eq(suborders.isFrozen, false),
          inArray(suborders.status, [...OPEN_SUBORDER_STATUSES, "on_delivery"]),
          gte(suborders.date, earliest),
        ),
      ),
  ]);
  if (!row) throw captainNotFound(id);
  const due = open.filter((s) => s.date >= todayIn(s.timeZone ?? "UTC")).map((s) => s.id);
  if (due.length)
    throw ApiError.conflict(
      "captain_in_use",
      `Suborders ${due.join(", ")} are still to be delivered by captain ${id}; assign them to another captain first.`,
      { suborders: due },
    );
  const plan = new BatchPlan(ctx.db);
  plan.guard(captainLives(ctx, id), "captain", captainNotFound(id));
  plan.add(captainRows.softDelete(ctx, id));
  plan.event(literalEvent(ctx.appId, "captain.deleted", { id }));
  await plan.run(ctx.events);
}
