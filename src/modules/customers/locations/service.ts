import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { eventPayloadSql, newEventId } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, type Page, searchColumns } from "../../../core/listing";
import { customerLocations, LOCATION_TYPES } from "../tables";
import { checkPlace, placesOf } from "./places";
import type { CreateLocation, Location } from "./schemas";

/**
 * Customer locations, for both audiences: the merchant's (MC1, for a customer it names) and the
 * customer app's own (CA8, for the customer of the token). Callers check the customer first; these
 * functions scope every read and write by store and customer.
 */

type LocationRow = typeof customerLocations.$inferSelect;

export const locationRecords = tenantTable(customerLocations, {
  label: "Location",
  notFound: "customer_location_not_found",
});

const ofCustomer = (ctx: ServiceContext, customerId: number) =>
  and(locationRecords.live(ctx), eq(customerLocations.customerId, customerId))!;

/** The shape of rows, with their cities and districts read in one round trip. */
export async function locationViews(ctx: ServiceContext, rows: readonly LocationRow[]): Promise<Location[]> {
  const ids = (pick: (r: LocationRow) => number | null) => rows.map(pick).filter((id): id is number => id !== null);
  const places = await placesOf(
    ctx,
    ids((r) => r.cityId),
    ids((r) => r.districtId),
  );
  return rows.map((r) => locationView(r, places));
}

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
  return row ? locationView(row, places) : null;
}

function locationView(r: LocationRow, places: Awaited<ReturnType<typeof placesOf>>): Location {
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
};

/** A page of the customer's live locations. */
export async function listLocations(ctx: ServiceContext, customerId: number, q: ListQuery): Promise<Page<Location>> {
  const page = await listPage(ctx.db, q, { table: customerLocations, scope: () => ofCustomer(ctx, customerId) });
  return { ...page, results: await locationViews(ctx, page.results) };
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

export async function getLocation(ctx: ServiceContext, customerId: number, id: number): Promise<Location> {
  return (await locationViews(ctx, [await findLocation(ctx, customerId, id)]))[0]!;
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

/** Adds a location to the customer, with its `customer.location.created` event in the same batch. */
export async function createLocation(
  ctx: ServiceContext,
  customerId: number,
  input: CreateLocation,
): Promise<Location> {
  await checkPlace(ctx, { cityId: input.city_id, districtId: input.district_id });
  const eventId = newEventId();
  const type = "customer.location.created";
  const locationData = sql`json_object('id', id, 'customer_id', customer_id)`;
  const plan = new BatchPlan(ctx.db);
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
  return (await locationViews(ctx, [row]))[0]!;
}
