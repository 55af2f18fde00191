import { and, eq, gte, inArray, ne, or, type SQL } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../../core/listing";
import { containsText } from "../../../core/sql";
import { nowIso, todayIn } from "../../../core/time";
import { checkPlace, parseMobile } from "../../customers";
import { findBranch, restaurantTimeZones } from "../../meals";
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
};

export async function listCaptains(ctx: ServiceContext, q: ListQuery): Promise<Page<Captain>> {
  return mapPage(await listPage(ctx.db, q, { table: captains, scope: () => captainRows.live(ctx) }), captainView);
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

/** The city and branch named must exist: a 400 on the field otherwise. */
async function checkRefs(ctx: ServiceContext, body: { city_id?: number; branch_id?: number | null }) {
  await checkPlace(ctx, { cityId: body.city_id });
  if (body.branch_id != null && !(await findBranch(ctx, body.branch_id)))
    throw ApiError.validation({ branch_id: ["No such branch of the store's restaurants."] });
}

async function refuseTakenMobile(ctx: ServiceContext, e164: string, self?: number) {
  const other = await ctx.db
    .select({ id: captains.id })
    .from(captains)
    .where(
      and(
        captainRows.live(ctx),
        eq(captains.mobileNumber, e164),
        self === undefined ? undefined : ne(captains.id, self),
      ),
    )
    .get();
  if (other) throw mobileTaken(e164, other.id);
}

/** The unique index answers a race the check above lost. */
async function takingMobile<T>(e164: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (e164 && /UNIQUE constraint failed: captains\./.test(String((err as Error)?.message))) throw mobileTaken(e164);
    throw err;
  }
}

export async function createCaptain(ctx: ServiceContext, body: CreateCaptain): Promise<Captain> {
  const mobile = parseMobile(body.country_code ?? "966", body.mobile_number);
  await checkRefs(ctx, body);
  await refuseTakenMobile(ctx, mobile.e164);
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

/** A new `country_code` alone would re-read the old number: it comes with `mobile_number`. */
export async function updateCaptain(ctx: ServiceContext, id: number, body: UpdateCaptain): Promise<Captain> {
  const row = await captainRows.find(ctx, id);
  if (body.country_code !== undefined && body.mobile_number === undefined)
    throw ApiError.validation({ mobile_number: ["Required with country_code."] });
  const mobile =
    body.mobile_number === undefined
      ? undefined
      : parseMobile(body.country_code ?? row.countryCode, body.mobile_number);
  await checkRefs(ctx, body);
  if (mobile) await refuseTakenMobile(ctx, mobile.e164, id);
  const changed = await takingMobile(mobile?.e164, () =>
    captainRows.change(ctx, id, {
      name: body.name,
      countryCode: mobile?.countryCode,
      mobileNumber: mobile?.e164,
      cityId: body.city_id,
      branchId: body.branch_id,
      isActive: body.is_active,
      vehicle: body.vehicle,
      ordering: body.ordering,
      modifiedAt: nowIso(),
    }),
  );
  return captainView(changed);
}

/**
 * Refused while suborders still to be delivered today or later (each restaurant's today) are
 * assigned to the captain: they would go out with nobody. Past and finished ones keep the captain.
 */
export async function deleteCaptain(ctx: ServiceContext, id: number): Promise<void> {
  await captainRows.find(ctx, id);
  // Today at UTC-12 is the earliest today anywhere: the exact day is each restaurant's, below.
  const earliest = todayIn("Etc/GMT+12");
  const open = await ctx.db
    .select({ id: suborders.id, restaurantId: suborders.restaurantId, date: suborders.date })
    .from(suborders)
    .where(
      and(
        live(suborders, ctx.appId),
        eq(suborders.captainId, id),
        eq(suborders.isFrozen, false),
        inArray(suborders.status, [...OPEN_SUBORDER_STATUSES, "on_delivery"]),
        gte(suborders.date, earliest),
      ),
    );
  const zones = await restaurantTimeZones(ctx, [...new Set(open.map((s) => s.restaurantId))]);
  const due = open.filter((s) => s.date >= todayIn(zones.get(s.restaurantId) ?? "UTC")).map((s) => s.id);
  if (due.length)
    throw ApiError.conflict(
      "captain_in_use",
      `Suborders ${due.join(", ")} are still to be delivered by captain ${id}; assign them to another captain first.`,
      { suborders: due },
    );
  await captainRows.remove(ctx, id);
}
