import { and, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, softDeleted } from "../../../core/crud/tenant-table";
import { emit, newEvent } from "../../../core/events/outbox";
import type { ListQuery, Page } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { checkPlace } from "../locations/places";
import type { CreateLocation, Location } from "../locations/schemas";
import { createLocation, findLocation, getLocation, listLocations, locationValues } from "../locations/service";
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

export async function createMyLocation(ctx: ServiceContext, customerId: number, input: CreateLocation) {
  await findCustomer(ctx, customerId);
  return createLocation(ctx, customerId, input);
}

/** One live location of the customer: the condition of a guarded write and of its event. */
const mine = (ctx: ServiceContext, customerId: number, id: number) =>
  and(live(customerLocations, ctx.appId), eq(customerLocations.customerId, customerId), eq(customerLocations.id, id))!;

/** Writes `set` to the location with `customer.location.<change>`, both or neither (a concurrent delete). */
async function changeLocation(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  set: Partial<typeof customerLocations.$inferInsert>,
  change: "updated" | "deleted",
): Promise<void> {
  const where = mine(ctx, customerId, id);
  await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(customerLocations).set(set).where(where)],
    [newEvent(ctx.appId, `customer.location.${change}`, { id, customer_id: customerId })],
    { guard: sql`EXISTS (SELECT 1 FROM ${customerLocations} WHERE ${where})` },
  );
}

/**
 * Changes the given fields. The place is checked as it will be: a new city with the location's
 * district (or a new district in the location's city) must still agree, so that a location never
 * names a district outside its city.
 */
export async function updateMyLocation(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  input: UpdateMyLocation,
): Promise<Location> {
  await findCustomer(ctx, customerId);
  const current = await findLocation(ctx, customerId, id);
  if (input.city_id !== undefined || input.district_id !== undefined) {
    await checkPlace(ctx, {
      cityId: input.city_id ?? current.cityId,
      districtId: input.district_id === undefined ? current.districtId : input.district_id,
    });
  }
  await changeLocation(ctx, customerId, id, { ...locationValues(input), modifiedAt: nowIso() }, "updated");
  return getLocation(ctx, customerId, id);
}

export async function updateMyLocationImage(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  image: string | null,
): Promise<Location> {
  await findCustomer(ctx, customerId);
  await findLocation(ctx, customerId, id);
  await changeLocation(ctx, customerId, id, { image, modifiedAt: nowIso() }, "updated");
  return getLocation(ctx, customerId, id);
}

export async function deleteMyLocation(ctx: ServiceContext, customerId: number, id: number): Promise<void> {
  await findCustomer(ctx, customerId);
  await findLocation(ctx, customerId, id);
  await changeLocation(ctx, customerId, id, softDeleted(), "deleted");
}
