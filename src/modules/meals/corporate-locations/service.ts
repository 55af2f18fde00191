import type { z } from "@hono/zod-openapi";
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { insertedRowEvent } from "../../../core/events/outbox";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import {
  type ListQuery,
  type ListSpec,
  listPageWith,
  namedListSpec,
  type Page,
  searchColumns,
} from "../../../core/listing";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { liveRestaurant } from "../restaurants/service";
import {
  type Audience,
  bodyError,
  type Check,
  changed,
  createAndRead,
  findChecked,
  merchantView,
  readView,
  runChecks,
  type ViewRead,
  write,
  writeAndRead,
} from "../shared";
import { deliveryWindows, restaurants } from "../tables";
import { auditView } from "../views";
import type { CorporateLocation, CreateCorporateLocationSchema, UpdateCorporateLocationSchema } from "./schemas";
import { corporateLocations } from "./tables";

/**
 * Corporate locations: a customer lists the active ones and picks one as a delivery point; the
 * merchant manages them (inactive too). Each names the delivery windows that reach it.
 */

type Row = typeof corporateLocations.$inferSelect;
type WindowRow = typeof deliveryWindows.$inferSelect;

const rows = tenantTable(corporateLocations, { label: "Corporate location", notFound: "corporate_location_not_found" });

export const CORPORATE_LOCATION_LIST: ListSpec = {
  ...namedListSpec(corporateLocations, {
    city_id: { column: corporateLocations.cityId, kind: "integer" },
    company_name: { column: corporateLocations.companyName, kind: "string", nullable: true },
    is_active: { column: corporateLocations.isActive, kind: "boolean" },
  }),
  search: searchColumns(
    corporateLocations.nameEn,
    corporateLocations.nameAr,
    corporateLocations.companyName,
    corporateLocations.district,
    corporateLocations.address,
  ),
  sync: { modifiedAt: corporateLocations.modifiedAt, softDeleted: false },
};

const scopeOf = (ctx: ServiceContext, audience: Audience): SQL =>
  audience.activeOnly
    ? and(live(corporateLocations, ctx.appId), eq(corporateLocations.isActive, true))!
    : live(corporateLocations, ctx.appId);

/** The live windows among `ids` (a subquery of ids); for the public, only those of active restaurants. */
const windowsWhere = (ctx: ServiceContext, ids: SQL, audience: Audience): SQL =>
  and(
    live(deliveryWindows, ctx.appId),
    sql`${deliveryWindows.id} IN (${ids})`,
    audience.activeOnly
      ? sql`${deliveryWindows.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(ctx.appId)})`
      : undefined,
  )!;

const view = (r: Row, windows: WindowRow[]): CorporateLocation => ({
  id: r.id,
  custom_fields: r.customFields ?? null,
  ...auditView(r),
  name_en: r.nameEn,
  name_ar: r.nameAr,
  company_name: r.companyName,
  city_id: r.cityId,
  district: r.district,
  address: r.address,
  lat: r.lat,
  lng: r.lng,
  instructions: r.instructions,
  is_active: r.isActive,
  // In the order the location lists them.
  delivery_windows: r.deliveryWindowIds.flatMap((id) =>
    windows
      .filter((w) => w.id === id)
      .map((w) => ({ id: w.id, restaurant_id: w.restaurantId, from_time: w.fromTime, to_time: w.toTime })),
  ),
});

/** List Corporate Locations: the page and its windows in one statement. */
export async function listCorporateLocations(
  ctx: ServiceContext,
  q: ListQuery,
  audience: Audience,
): Promise<Page<CorporateLocation>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: corporateLocations, scope: () => scopeOf(ctx, audience) },
    (pageRows) => ({
      windows: rowsJson(
        deliveryWindows,
        windowsWhere(ctx, sql`SELECT w.value FROM ${pageRows} AS p, json_each(p.delivery_window_ids) AS w`, audience),
        [asc(deliveryWindows.id)],
      ),
    }),
  );
  const windows = decodeRows(deliveryWindows, nested.windows);
  return { ...page, results: page.results.map((r) => view(r, windows)) };
}

/** One corporate location with its windows, in one batch; 404 when not the store's (or inactive, for a customer). */
export async function getCorporateLocation(
  ctx: ServiceContext,
  id: number,
  audience: Audience,
): Promise<CorporateLocation> {
  return readView(ctx, locationRead(ctx, id, audience));
}

/** One corporate location with its windows as reads of a batch: `id` is an id or the handle of the one it inserts. */
function locationRead(ctx: ServiceContext, id: number | SQL, audience: Audience): ViewRead<CorporateLocation> {
  return {
    reads: [
      ctx.db
        .select()
        .from(corporateLocations)
        .where(and(scopeOf(ctx, audience), eq(corporateLocations.id, id))),
      ctx.db
        .select()
        .from(deliveryWindows)
        .where(
          windowsWhere(
            ctx,
            sql`SELECT value FROM ${corporateLocations}, json_each(${corporateLocations.deliveryWindowIds})
              WHERE ${corporateLocations.id} = ${id} AND ${corporateLocations.appId} = ${ctx.appId}`,
            audience,
          ),
        ),
    ],
    view: (results) => {
      const [found, windows] = results as [Row[], WindowRow[]];
      if (!found[0])
        throw ApiError.notFound(
          "corporate_location_not_found",
          `Corporate location ${typeof id === "number" ? id : ""}`.trim(),
        );
      return view(found[0], windows);
    },
  };
}

// ---- merchant writes ----

type CreateBody = z.infer<typeof CreateCorporateLocationSchema>;
type Fields = z.infer<typeof UpdateCorporateLocationSchema>;

const columns = (b: Fields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  companyName: b.company_name,
  cityId: b.city_id,
  district: b.district,
  address: b.address,
  lat: b.lat,
  lng: b.lng,
  deliveryWindowIds: b.delivery_window_ids,
  instructions: b.instructions,
  isActive: b.is_active,
  customFields: b.custom_fields,
  ordering: b.ordering,
});

/**
 * The windows named must be live windows of the store; a 400 on the field names those that are not.
 * A check of the write's round of reads.
 */
function windowsCheck<Record>(ctx: ServiceContext, ids: number[] | undefined): Check<Record> | undefined {
  if (!ids?.length) return undefined;
  return {
    read: ctx.db
      .select({ id: deliveryWindows.id })
      .from(deliveryWindows)
      .where(and(live(deliveryWindows, ctx.appId), inList(deliveryWindows.id, ids))),
    refuse: (found: { id: number }[]) => {
      const missing = ids.filter((id) => !found.some((f) => f.id === id));
      if (missing.length)
        throw bodyError("delivery_window_ids", `No such delivery windows in this store: ${missing.join(", ")}.`);
    },
  };
}

export async function createCorporateLocation(ctx: ServiceContext, body: CreateBody): Promise<CorporateLocation> {
  await runChecks(ctx, [windowsCheck(ctx, body.delivery_window_ids)]);
  return createAndRead(
    ctx,
    rows.insert(ctx, {
      ...columns(body),
      appId: ctx.appId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
      cityId: body.city_id,
      lat: body.lat,
      lng: body.lng,
    }),
    (id) => insertedRowEvent("corporate_location.created", corporateLocations, { id }),
    (id) => locationRead(ctx, id, merchantView),
  );
}

export async function updateCorporateLocation(
  ctx: ServiceContext,
  id: number,
  body: Fields,
): Promise<CorporateLocation> {
  await findChecked(ctx, rows, id, [windowsCheck(ctx, body.delivery_window_ids)]);
  return writeAndRead(
    ctx,
    changed(ctx, "corporate_location.updated", id),
    [rows.update(ctx, id, { ...columns(body), modifiedAt: nowIso() })],
    locationRead(ctx, id, merchantView),
  );
}

/** Never refused: suborders keep the address they were given. */
export async function deleteCorporateLocation(ctx: ServiceContext, id: number): Promise<void> {
  await rows.find(ctx, id);
  await write(ctx, changed(ctx, "corporate_location.deleted", id), [rows.softDelete(ctx, id)]);
}
