import { and, eq, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { refuseWhileUsed, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, literalEvent, newEvent, rowEvent, unionEvents } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, namedListSpec, type Page } from "../../../core/listing";
import { outcomeOf } from "../../../core/outcome";
import { nowIso } from "../../../core/time";
import { checkPlace } from "../../customers";
import { openShipmentsUsing } from "../shipments/machine";
import { pickupLocations, shipments, shippingConfigs } from "../tables";
import type { CreatePickupLocation, PickupLocation, UpdatePickupLocation } from "./schemas";

type Row = typeof pickupLocations.$inferSelect;

export const pickupLocationRecords = tenantTable(pickupLocations, {
  label: "Pickup location",
  notFound: "pickup_location_not_found",
  events: {
    created: "pickup_location.created",
    updated: "pickup_location.updated",
    deleted: "pickup_location.deleted",
  },
});

export const pickupLocationView = (r: Row): PickupLocation => ({
  id: r.id,
  name_en: r.nameEn,
  name_ar: r.nameAr,
  location: { address1: r.address1, lat: r.lat, lng: r.lng },
  city_id: r.cityId,
  district_id: r.districtId,
  phone: r.phone,
  working_hours: r.workingHours as PickupLocation["working_hours"],
  is_active: r.isActive,
  is_default: r.isDefault,
  ordering: r.ordering,
  custom_fields: r.customFields ?? null,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
});

export const PICKUP_LOCATION_LIST: ListSpec = {
  ...namedListSpec(pickupLocations, {
    city_id: { column: pickupLocations.cityId, kind: "integer" },
    district_id: { column: pickupLocations.districtId, kind: "integer", nullable: true },
    is_active: { column: pickupLocations.isActive, kind: "boolean" },
    is_default: { column: pickupLocations.isDefault, kind: "boolean" },
  }),
  sync: { modifiedAt: pickupLocations.modifiedAt, softDeleted: false },
};

export async function listPickupLocations(ctx: ServiceContext, q: ListQuery): Promise<Page<PickupLocation>> {
  return mapPage(
    await listPage(ctx.db, q, { table: pickupLocations, scope: () => pickupLocationRecords.live(ctx) }),
    pickupLocationView,
  );
}

/** The customer app's list at checkout: the active ones only. */
export async function listActivePickupLocations(ctx: ServiceContext, q: ListQuery): Promise<Page<PickupLocation>> {
  const scope = and(pickupLocationRecords.live(ctx), eq(pickupLocations.isActive, true))!;
  return mapPage(await listPage(ctx.db, q, { table: pickupLocations, scope: () => scope }), pickupLocationView);
}

export const pickupLocationDetails = async (ctx: ServiceContext, id: number) =>
  pickupLocationView(await pickupLocationRecords.find(ctx, id));

/**
 * A new default takes the flag from the old one in the same batch (one default per store, kept by
 * a unique index too); the old one gets its `pickup_location.updated`.
 */
async function takeDefault(ctx: ServiceContext, exceptId: number | null) {
  const [old] = await ctx.db
    .select({ id: pickupLocations.id })
    .from(pickupLocations)
    .where(and(pickupLocationRecords.live(ctx), eq(pickupLocations.isDefault, true)))
    .limit(1);
  if (!old || old.id === exceptId) return null;
  return {
    event: literalEvent(ctx.appId, "pickup_location.updated", { id: old.id }),
    statement: pickupLocationRecords.update(ctx, old.id, { isDefault: false, modifiedAt: nowIso() }),
  };
}

export async function createPickupLocation(ctx: ServiceContext, input: CreatePickupLocation): Promise<PickupLocation> {
  const [placeOf, swap] = await Promise.all([
    outcomeOf(checkPlace(ctx, { cityId: input.city_id, districtId: input.district_id })),
    input.is_default ? takeDefault(ctx, null) : null,
  ]);
  placeOf();
  const plan = new BatchPlan(ctx.db);
  if (swap) plan.add(swap.statement);
  const location = plan.insert(
    "location",
    pickupLocationRecords.insert(ctx, {
      appId: ctx.appId,
      nameEn: input.name_en,
      nameAr: input.name_ar,
      address1: input.location.address1,
      lat: input.location.lat,
      lng: input.location.lng,
      cityId: input.city_id,
      districtId: input.district_id ?? null,
      phone: input.phone ?? null,
      workingHours: input.working_hours ?? [],
      isActive: input.is_active ?? true,
      isDefault: input.is_default ?? false,
      ordering: input.ordering ?? 0,
      customFields: input.custom_fields ?? null,
    }),
  );
  plan.event(
    rowEvent("pickup_location.created", pickupLocations, sql`id = ${location.id}`, sql`json_object('id', id)`),
    ...(swap ? [swap.event] : []),
  );
  return pickupLocationView((await plan.run(ctx.events)).row<Row>(location));
}

export async function updatePickupLocation(
  ctx: ServiceContext,
  id: number,
  input: UpdatePickupLocation,
): Promise<PickupLocation> {
  // The row, the place (when the change names both its parts) and the default to take, read together.
  const placeKnown = input.city_id !== undefined && input.district_id !== undefined;
  const [rowOf, placeOf, taken] = await Promise.all([
    outcomeOf(pickupLocationRecords.find(ctx, id)),
    placeKnown ? outcomeOf(checkPlace(ctx, { cityId: input.city_id, districtId: input.district_id })) : null,
    input.is_default ? takeDefault(ctx, id) : null,
  ]);
  const row = rowOf();
  if (placeOf) placeOf();
  else if (input.city_id !== undefined || input.district_id !== undefined)
    await checkPlace(ctx, {
      cityId: input.city_id ?? row.cityId,
      districtId: input.district_id === undefined ? row.districtId : input.district_id,
    });
  const set = {
    modifiedAt: nowIso(),
    nameEn: input.name_en,
    nameAr: input.name_ar,
    address1: input.location?.address1,
    lat: input.location?.lat,
    lng: input.location?.lng,
    cityId: input.city_id,
    districtId: input.district_id,
    phone: input.phone,
    workingHours: input.working_hours,
    isActive: input.is_active,
    isDefault: input.is_default,
    ordering: input.ordering,
    customFields: input.custom_fields,
  };
  const swap = input.is_default && !row.isDefault ? taken : null;
  const updated = rowEvent(
    "pickup_location.updated",
    pickupLocations,
    and(pickupLocationRecords.live(ctx), eq(pickupLocations.id, id))!,
    sql`json_object('id', id)`,
  );
  // The row was read above: the update answers it as it is now, in the batch that takes the default.
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [...(swap ? [swap.statement] : []), pickupLocationRecords.update(ctx, id, set).returning()],
    swap ? unionEvents([swap.event, updated]) : [newEvent(ctx.appId, "pickup_location.updated", { id })],
  );
  const [changed] = results[swap ? 1 : 0] as Row[];
  if (!changed) throw ApiError.notFound("pickup_location_not_found", `Pickup location ${id}`);
  return pickupLocationView(changed);
}

/** Refused while the config names it as the default origin or an unfinished shipment leaves from it. */
export async function deletePickupLocation(ctx: ServiceContext, id: number): Promise<void> {
  const [rowOf, [config, open]] = await Promise.all([
    outcomeOf(pickupLocationRecords.find(ctx, id)),
    ctx.db.batch([
      ctx.db
        .select({ id: shippingConfigs.appId })
        .from(shippingConfigs)
        .where(and(eq(shippingConfigs.appId, ctx.appId), eq(shippingConfigs.defaultPickupLocationId, id))),
      openShipmentsUsing(ctx, shipments.originPickupLocationId, id),
    ]),
  ]);
  rowOf();
  refuseWhileUsed(
    "pickup_location_in_use",
    { shipping_config: config.length ? [ctx.appId] : [], shipments: open.map((s) => s.id) },
    `Pickup location ${id} is the default origin or an unfinished shipment's origin.`,
  );
  await emit(
    ctx.db,
    ctx.events,
    [pickupLocationRecords.softDelete(ctx, id)],
    [newEvent(ctx.appId, "pickup_location.deleted", { id })],
  );
}
