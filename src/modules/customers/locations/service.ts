import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan, batchStatement, selectColumns } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { eventPayloadSql, newEventId } from "../../../core/events/outbox";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, type Page, searchColumns } from "../../../core/listing";
import { readTogether } from "../reads";
import { findCustomer, liveCustomerParent } from "../records/service";
import { customerLocations, LOCATION_TYPES } from "../tables";
import { type PlaceParts, placesFromJson, placesJson, placesNamed, placesOf, refuseUnknownPlace } from "./places";
import type { CreateLocation, Location } from "./schemas";

/**
 * Customer locations, for both audiences: the merchant's (MC1, for a customer it names) and the
 * customer app's own (CA8, for the customer of the token). Callers check the customer first (the
 * create checks it itself, beside the places); these functions scope every read and write by store
 * and customer.
 */

type LocationRow = typeof customerLocations.$inferSelect;

export const locationRecords = tenantTable(customerLocations, {
  label: "Location",
  notFound: "customer_location_not_found",
});

const ofCustomer = (ctx: ServiceContext, customerId: number) =>
  and(locationRecords.live(ctx), eq(customerLocations.customerId, customerId))!;

/** The cities and districts of the locations that `ids` selects (a subquery), as parts of their statement. */
const placesOfLocations = (ctx: ServiceContext, ids: SQL) => {
  const of = (column: string) =>
    sql`(SELECT ${sql.identifier(column)} FROM ${customerLocations} WHERE ${customerLocations.id} IN ${ids})`;
  return placesJson(ctx.appId, of("city_id"), of("district_id"));
};

/**
 * The customer's live location whose id `id` selects (an id, or a subquery: a cart's location, read
 * in the round trip of the cart itself), with its city and district, in ONE round trip; null when
 * there is none.
 */
export async function readLocation(
  ctx: ServiceContext,
  customerId: number,
  id: number | SQL,
): Promise<Location | null> {
  const of = (column: string) => sql`(SELECT ${sql.raw(column)} FROM customer_locations WHERE id = ${id})`;
  const [[row], places] = await Promise.all([
    ctx.db
      .select()
      .from(customerLocations)
      .where(and(ofCustomer(ctx, customerId), sql`${customerLocations.id} = ${id}`))
      .limit(1),
    placesOf(ctx, of("city_id"), of("district_id")),
  ]);
  return row ? locationViews([row], places)[0]! : null;
}

/** The shape of rows, with their cities and districts (`placesFromJson` of `placesOfLocations`, or `placesOf`). */
function locationViews(rows: readonly LocationRow[], places: Awaited<ReturnType<typeof placesOf>>): Location[] {
  return rows.map((r) => {
    const city = r.cityId === null ? null : (places.cities.get(r.cityId) ?? null);
    const district = r.districtId === null ? null : (places.districts.get(r.districtId) ?? null);
    return {
      id: r.id,
      customer_id: r.customerId,
      type: r.type,
      name_en: r.nameEn,
      name_ar: r.nameAr,
      latitude: String(r.latitude),
      longitude: String(r.longitude),
      city_id: r.cityId,
      city,
      city_name_en: city?.name_en ?? null,
      city_name_ar: city?.name_ar ?? null,
      district_id: r.districtId,
      district: district?.name_en ?? null,
      district_ar: district?.name_ar ?? null,
      address1: r.address1,
      address2: r.address2,
      postal_code: r.postalCode,
      formatted_address: r.formattedAddress,
      place_id: r.placeId,
      route: r.route,
      street_number: r.streetNumber,
      location_url: r.locationUrl,
      image: r.image,
      description: r.description,
      ordering: r.ordering,
      created_at: r.createdAt,
      modified_at: r.modifiedAt,
    };
  });
}

export const LOCATION_LIST: ListSpec = {
  fields: {
    id: { column: customerLocations.id, kind: "integer" },
    type: { column: customerLocations.type, kind: "string", values: LOCATION_TYPES },
    name_en: { column: customerLocations.nameEn, kind: "string" },
    name_ar: { column: customerLocations.nameAr, kind: "string" },
    city_id: { column: customerLocations.cityId, kind: "integer", nullable: true },
    district_id: { column: customerLocations.districtId, kind: "integer", nullable: true },
    postal_code: { column: customerLocations.postalCode, kind: "string", nullable: true },
    ordering: { column: customerLocations.ordering, kind: "integer" },
    created_at: { column: customerLocations.createdAt, kind: "datetime" },
    modified_at: { column: customerLocations.modifiedAt, kind: "datetime" },
  },
  search: searchColumns(
    customerLocations.nameEn,
    customerLocations.nameAr,
    customerLocations.address1,
    customerLocations.formattedAddress,
  ),
  searchDescription: "Matches the names, `address1` and `formatted_address` (substring).",
  defaultOrder: "ordering",
  idColumn: customerLocations.id,
  sync: { modifiedAt: customerLocations.modifiedAt, softDeleted: false },
};

/**
 * A page of a live customer's live locations (404 `customer_not_found` when the customer is not),
 * with their places, in one statement.
 */
export async function listLocations(ctx: ServiceContext, customerId: number, q: ListQuery): Promise<Page<Location>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: customerLocations, scope: () => ofCustomer(ctx, customerId), parent: liveCustomerParent(ctx, customerId) },
    (rows) => placesOfLocations(ctx, sql`(SELECT id FROM ${rows})`),
  );
  return { ...page, results: locationViews(page.results, placesFromJson(nested)) };
}

/** The customer's live location `id`, or 404 `customer_location_not_found` (another customer's too). */
export async function findLocation(ctx: ServiceContext, customerId: number, id: number): Promise<LocationRow> {
  const [row] = await ctx.db
    .select()
    .from(customerLocations)
    .where(and(ofCustomer(ctx, customerId), eq(customerLocations.id, id)))
    .limit(1);
  if (!row) throw ApiError.notFound("customer_location_not_found", `Location ${id}`);
  return row;
}

/**
 * The customer's live location `id` with its places, in one statement: 404
 * `customer_location_not_found` (another customer's too); with `liveCustomer`, 404
 * `customer_not_found` first when the customer is not live.
 */
export async function getLocation(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  opts: { liveCustomer?: boolean } = {},
): Promise<Location> {
  const read = locationRead(ctx, customerId, id, opts);
  return read.view(await ctx.db.get<LocationReadRow>(read.query));
}

type LocationReadRow = Record<string, string | number | null> | undefined;

/**
 * `getLocation`'s statement, and its view of the row the statement answers: run on its own, or as
 * the read of a write's batch (`locationInBatch`) that answers the location as the write left it.
 */
function locationRead(ctx: ServiceContext, customerId: number, id: number, opts: { liveCustomer?: boolean } = {}) {
  const mine = and(ofCustomer(ctx, customerId), eq(customerLocations.id, id))!;
  const parent = opts.liveCustomer ? liveCustomerParent(ctx, customerId) : undefined;
  const parts = placesOfLocations(ctx, sql`(SELECT ${customerLocations.id} FROM ${customerLocations} WHERE ${mine})`);
  const query = sql`SELECT ${rowsJson(customerLocations, mine)} AS "rows", ${parent?.exists ?? sql`1`} AS "parent_found", ${sql.join(
    Object.entries(parts).map(([k, v]) => sql`${v} AS ${sql.identifier(k)}`),
    sql`, `,
  )}`;
  const view = (row: LocationReadRow): Location => {
    if (parent && row?.parent_found !== 1) throw parent.notFound(row?.parent_found);
    const found = decodeRows(customerLocations, row?.rows ?? "[]");
    if (!found.length) throw ApiError.notFound("customer_location_not_found", `Location ${id}`);
    const parsed = Object.fromEntries(Object.keys(parts).map((k) => [k, JSON.parse(String(row?.[k] ?? "[]"))]));
    return locationViews(found, placesFromJson(parsed as PlaceParts))[0]!;
  };
  return { query, view, columns: ["rows", "parent_found", ...Object.keys(parts)] };
}

/**
 * The customer's location `id` read where it stands in a write's batch (after the change), and its
 * view once the batch has run: the write answers from its own round trip.
 */
export function locationInBatch(ctx: ServiceContext, customerId: number, id: number) {
  const read = locationRead(ctx, customerId, id);
  return {
    statement: batchStatement(ctx.db, read.query, selectColumns(read.columns)),
    view: (rows: unknown) => read.view((rows as LocationReadRow[])[0]),
  };
}

/** The columns of the fields a body gives (a create's, or a partial update's). */
export function locationValues(input: Partial<CreateLocation>) {
  return {
    type: input.type,
    nameEn: input.name_en,
    nameAr: input.name_ar,
    latitude: input.latitude,
    longitude: input.longitude,
    cityId: input.city_id,
    districtId: input.district_id,
    address1: input.address1,
    address2: input.address2,
    postalCode: input.postal_code,
    formattedAddress: input.formatted_address,
    placeId: input.place_id,
    route: input.route,
    streetNumber: input.street_number,
    locationUrl: input.location_url,
    image: input.image,
    description: input.description,
    ordering: input.ordering,
  };
}

/**
 * Adds a location to the customer (404 `customer_not_found` unless live), with its
 * `customer.location.created` event: the customer and the places read in one round trip, then one
 * batch that holds the customer live and answers the row.
 */
export async function createLocation(
  ctx: ServiceContext,
  customerId: number,
  input: CreateLocation,
): Promise<Location> {
  const place = { cityId: input.city_id, districtId: input.district_id };
  const [, places] = await readTogether(findCustomer(ctx, customerId), placesNamed(ctx, place));
  refuseUnknownPlace(places, place);
  const eventId = newEventId();
  const type = "customer.location.created";
  const locationData = sql`json_object('id', id, 'customer_id', customer_id)`;
  const plan = new BatchPlan(ctx.db);
  plan.guard(
    liveCustomerParent(ctx, customerId).exists,
    "customer",
    ApiError.notFound("customer_not_found", `Customer ${customerId}`),
  );
  const location = plan.insert(
    "location",
    ctx.db
      .insert(customerLocations)
      .values({
        appId: ctx.appId,
        customerId,
        ...locationValues(input),
        latitude: input.latitude,
        longitude: input.longitude,
      })
      .returning(),
  );
  plan.event(
    sql`SELECT ${eventId} AS id, app_id, ${type} AS type,
        ${eventPayloadSql(type, sql`${eventId}`, sql`app_id`, locationData)} AS payload
      FROM ${customerLocations} WHERE id = ${location.id}`,
  );
  const row = (await plan.run(ctx.events)).row<LocationRow>(location);
  return locationViews([row], places)[0]!;
}
