import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { live, softDeleted } from "../../../core/crud/tenant-table";
import { emit, newEvent } from "../../../core/events/outbox";
import type { ListQuery, Page } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { placesOf, refuseUnknownPlace } from "../locations/places";
import type { CreateLocation, Location } from "../locations/schemas";
import {
  createLocation,
  findLocation,
  getLocation,
  listLocations,
  locationInBatch,
  locationValues,
} from "../locations/service";
import { readTogether } from "../reads";
import { findCustomer } from "../records/service";
import { customerLocations } from "../tables";
import type { UpdateMyLocation } from "./schemas";

/**
 * The customer app's own locations (CA8), on the locations resource's service: the customer of
 * the access token must be live (404 `customer_not_found`), and every read and write is scoped to
 * their locations, so another customer's location id is a 404 `customer_location_not_found`.
 */

/** The customer's locations: the customer's check is part of the list's statement. */
export async function listMyLocations(ctx: ServiceContext, customerId: number, q: ListQuery): Promise<Page<Location>> {
  return listLocations(ctx, customerId, q);
}

export async function getMyLocation(ctx: ServiceContext, customerId: number, id: number): Promise<Location> {
  return getLocation(ctx, customerId, id, { liveCustomer: true });
}

/** The customer's check is the create's own, read with the places. */
export async function createMyLocation(ctx: ServiceContext, customerId: number, input: CreateLocation) {
  return createLocation(ctx, customerId, input);
}

/** One live location of the customer: the condition of a guarded write and of its event. */
const mine = (ctx: ServiceContext, customerId: number, id: number) =>
  and(live(customerLocations, ctx.appId), eq(customerLocations.customerId, customerId), eq(customerLocations.id, id))!;

/**
 * Writes `set` to the location with `customer.location.<change>`, both or neither (a concurrent
 * delete); `after`, statements that read the location as the batch left it, whose results it answers.
 */
async function changeLocation(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  set: Partial<typeof customerLocations.$inferInsert>,
  change: "updated" | "deleted",
  after: BatchItem<"sqlite">[] = [],
): Promise<unknown[]> {
  const where = mine(ctx, customerId, id);
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(customerLocations).set(set).where(where)],
    [newEvent(ctx.appId, `customer.location.${change}`, { id, customer_id: customerId })],
    { guard: sql`EXISTS (SELECT 1 FROM ${customerLocations} WHERE ${where})`, after },
  );
  return results.slice(1);
}

/** Writes `set` to the location (as `changeLocation`) and answers it from the same batch. */
async function changeAndRead(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  set: Partial<typeof customerLocations.$inferInsert>,
): Promise<Location> {
  const read = locationInBatch(ctx, customerId, id);
  const [rows] = await changeLocation(ctx, customerId, id, set, "updated", [read.statement]);
  return read.view(rows);
}

/** The customer and their location `id`, read in one round trip; the customer's 404 comes first. */
const findMine = (ctx: ServiceContext, customerId: number, id: number) =>
  readTogether(findCustomer(ctx, customerId), findLocation(ctx, customerId, id));

/**
 * Changes the given fields. The place is checked as it will be: a new city with the location's
 * district (or a new district in the location's city) must still agree, so that a location never
 * names a district outside its city. The places it names are read with the location (the ones it
 * keeps by a subquery of it), so the change waits for one read round trip and its batch.
 */
export async function updateMyLocation(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  input: UpdateMyLocation,
): Promise<Location> {
  const checked = input.city_id !== undefined || input.district_id !== undefined;
  const kept = (column: string) =>
    sql`(SELECT ${sql.identifier(column)} FROM ${customerLocations} WHERE ${mine(ctx, customerId, id)})`;
  const places = checked
    ? placesOf(
        ctx,
        input.city_id == null ? kept("city_id") : [input.city_id],
        input.district_id === undefined ? kept("district_id") : input.district_id === null ? [] : [input.district_id],
      )
    : Promise.resolve(null);
  const [, current, found] = await readTogether(
    findCustomer(ctx, customerId),
    findLocation(ctx, customerId, id),
    places,
  );
  if (found) {
    refuseUnknownPlace(found, {
      cityId: input.city_id ?? current.cityId,
      districtId: input.district_id === undefined ? current.districtId : input.district_id,
    });
  }
  return changeAndRead(ctx, customerId, id, { ...locationValues(input), modifiedAt: nowIso() });
}

export async function updateMyLocationImage(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  image: string | null,
): Promise<Location> {
  await findMine(ctx, customerId, id);
  return changeAndRead(ctx, customerId, id, { image, modifiedAt: nowIso() });
}

export async function deleteMyLocation(ctx: ServiceContext, customerId: number, id: number): Promise<void> {
  await findMine(ctx, customerId, id);
  await changeLocation(ctx, customerId, id, softDeleted(), "deleted");
}
