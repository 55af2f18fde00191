import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import type { ShippingEnv } from "../carriers";
import { allCouriers } from "../couriers/service";
import { packageView, toDims } from "../fields";
import { pickupLocationRecords } from "../pickup-locations/service";
import { type PackageDims, shippingConfigs } from "../tables";
import type { ShippingConfig, UpdateShippingConfig } from "./schemas";

export type ConfigRow = typeof shippingConfigs.$inferSelect;

/** A package when neither the request nor the config gives one: 1 kg, 30 × 20 × 10 cm. */
export const FALLBACK_PACKAGE: PackageDims = { weight_g: 1000, length_cm: 30, width_cm: 20, height_cm: 10 };

export async function readConfig(ctx: ServiceContext): Promise<ConfigRow | undefined> {
  const [row] = await ctx.db.select().from(shippingConfigs).where(eq(shippingConfigs.appId, ctx.appId)).limit(1);
  return row;
}

const view = (r: ConfigRow | undefined): ShippingConfig => ({
  default_pickup_location_id: r?.defaultPickupLocationId ?? null,
  package_defaults: r?.packageDefaults ? packageView(r.packageDefaults) : null,
  enabled_courier_ids: r?.enabledCourierIds ?? null,
  modified_at: r?.modifiedAt ?? null,
});

export const getShippingConfig = async (ctx: ServiceContext) => view(await readConfig(ctx));

/** MH1 POST: the fields given replace theirs; ids must name the store's live pickup location and couriers. */
export async function updateShippingConfig(
  ctx: ServiceContext,
  env: ShippingEnv,
  input: UpdateShippingConfig,
): Promise<ShippingConfig> {
  // The pickup location and the couriers named are checked with one round trip of reads.
  const [loc, all] = await Promise.all([
    input.default_pickup_location_id != null ? pickupLocationRecords.get(ctx, input.default_pickup_location_id) : null,
    input.enabled_courier_ids ? allCouriers(ctx, env) : null,
  ]);
  if (input.default_pickup_location_id != null && !loc)
    throw ApiError.validation({
      default_pickup_location_id: [`No pickup location ${input.default_pickup_location_id}.`],
    });
  if (input.enabled_courier_ids && all) {
    const have = new Set(all.map((c) => c.id));
    const missing = input.enabled_courier_ids.filter((id) => !have.has(id));
    if (missing.length) throw ApiError.validation({ enabled_courier_ids: [`No courier ${missing.join(", ")}.`] });
  }
  const set = {
    modifiedAt: nowIso(),
    defaultPickupLocationId: input.default_pickup_location_id,
    packageDefaults:
      input.package_defaults === undefined ? undefined : input.package_defaults && toDims(input.package_defaults),
    enabledCourierIds: input.enabled_courier_ids,
  };
  // The upsert answers the config as it is now: no read after it.
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(shippingConfigs)
        .values({ appId: ctx.appId, ...set })
        .onConflictDoUpdate({ target: shippingConfigs.appId, set })
        .returning(),
    ],
    [newEvent(ctx.appId, "shipping_config.updated", { app_id: ctx.appId })],
  );
  return view((results[0] as ConfigRow[])[0]);
}
