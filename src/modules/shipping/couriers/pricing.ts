import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { toMajor } from "../../../core/money";
import { outcomeOf } from "../../../core/outcome";
import { readStoreSettings } from "../../account";
import { checkPlace } from "../../customers";
import { carrierOf, type ShippingEnv } from "../carriers";
import { type CarrierEnv, CarrierError } from "../carriers/adapter";
import { FALLBACK_PACKAGE, readConfig } from "../config/service";
import { packageView, toDims } from "../fields";
import { pickupLocationRecords } from "../pickup-locations/service";
import type { PackageDims } from "../tables";
import type { ActiveCouriersInput, Courier, CourierPricesInput } from "./schemas";
import { allCouriers, type CourierRow, courierView } from "./service";

/**
 * C2 and C3: which couriers serve a destination, and at what price. Deterministic: the same store
 * state and body give the same answer, couriers in id order; every courier left out is named with
 * its reason, so that "no courier" is never a silent empty list.
 */

export type Destination = { cityId: number; districtId: number | null };
type Reason = { courier_id: number; name_en: string; reason: string };

/** Why `c` cannot carry to `dest` (with `codMinor` to collect), or null when it can. */
export function unavailableReason(
  c: CourierRow,
  enabled: number[] | null,
  dest: Destination,
  codMinor: number,
): string | null {
  if (!c.isActive) return "The courier is inactive.";
  if (enabled && !enabled.includes(c.id)) return "The courier is not enabled in the shipping config.";
  if (codMinor > 0 && !c.codSupported) return "The courier does not collect cash on delivery.";
  if (c.type === "custom") {
    if (!c.coverageCities.includes(dest.cityId)) return `The courier does not cover city ${dest.cityId}.`;
    // Districts listed for a city narrow it to them; a city without listed districts is covered whole.
    if (dest.districtId !== null && c.coverageDistricts.length && !c.coverageDistricts.includes(dest.districtId))
      return `The courier does not cover district ${dest.districtId}.`;
  }
  return null;
}

/**
 * A custom courier's price for `weightG` to `cityId`: the first of its rules (in its order) for
 * that city whose band [from, to) holds the weight, else the first such rule for any city.
 */
export function customPrice(c: CourierRow, cityId: number, weightG: number): number | null {
  const fits = c.priceRules.filter((r) => r.weight_from_g <= weightG && weightG < r.weight_to_g);
  const rule = fits.find((r) => r.city_id === cityId) ?? fits.find((r) => r.city_id === null);
  return rule ? rule.price_minor : null;
}

const kg = (g: number) => `${g / 1000} kg`;

export async function activeCouriers(
  ctx: ServiceContext,
  env: ShippingEnv,
  input: ActiveCouriersInput,
): Promise<{ results: Courier[]; unavailable: Reason[] }> {
  // The place's check and the couriers at once: its refusal still comes first.
  const [placeOf, all, config] = await Promise.all([
    outcomeOf(checkPlace(ctx, { cityId: input.city_id, districtId: input.district_id })),
    allCouriers(ctx, env),
    readConfig(ctx),
  ]);
  placeOf();
  const dest = { cityId: input.city_id, districtId: input.district_id ?? null };
  const weightG = input.weight ?? config?.packageDefaults?.weight_g ?? FALLBACK_PACKAGE.weight_g;
  const results: Courier[] = [];
  const unavailable: Reason[] = [];
  for (const c of all) {
    let reason = unavailableReason(c, config?.enabledCourierIds ?? null, dest, input.cod_amount ?? 0);
    if (!reason && c.type === "custom" && customPrice(c, dest.cityId, weightG) === null)
      reason = `No price rule for ${kg(weightG)} in city ${dest.cityId}.`;
    if (reason) unavailable.push({ courier_id: c.id, name_en: c.nameEn, reason });
    else results.push(courierView(c));
  }
  return { results, unavailable };
}

export type Quote = { courier_id: number; service: string; price_minor: number; estimated_days: number | null };

/** The quotes of one courier, or the reason it has none. */
export async function quoteCourier(
  env: ShippingEnv,
  c: CourierRow,
  originCityId: number,
  dest: Destination,
  packages: PackageDims[],
  codMinor: number,
): Promise<Quote[] | string> {
  const weightG = packages.reduce((s, p) => s + p.weight_g, 0);
  if (c.type === "custom") {
    const price = customPrice(c, dest.cityId, weightG);
    if (price === null) return `No price rule for ${kg(weightG)} in city ${dest.cityId}.`;
    const services = c.services.filter((s) => codMinor === 0 || s.cod_supported);
    if (!services.length) return "No service of the courier collects cash on delivery.";
    return services.map((s) => ({
      courier_id: c.id,
      service: s.code,
      price_minor: price,
      estimated_days: c.estimatedDaysMax,
    }));
  }
  const adapter = carrierOf(env, c.code);
  if (!adapter) return "The carrier is not offered in this environment.";
  try {
    const quotes = await adapter.quote(env as CarrierEnv, {
      origin: { cityId: originCityId },
      destination: dest,
      packages,
      codAmountMinor: codMinor,
    });
    const cod = new Set(c.services.filter((s) => s.cod_supported).map((s) => s.code));
    const usable = quotes.filter((q) => codMinor === 0 || cod.has(q.service));
    if (!usable.length) return "The carrier does not serve this destination.";
    return usable.map((q) => ({
      courier_id: c.id,
      service: q.service,
      price_minor: q.priceMinor,
      estimated_days: q.estimatedDays,
    }));
  } catch (error) {
    if (error instanceof CarrierError) return `The carrier gave no price: ${error.message}`;
    throw error;
  }
}

/** The origin's city: the pickup location's (400 when it is not the store's), or the city given, checked. */
async function originCityOf(ctx: ServiceContext, origin: CourierPricesInput["origin"]): Promise<number | undefined> {
  if (origin.pickup_location_id === undefined) {
    await checkPlace(ctx, { cityId: origin.city_id }, { city: "origin.city_id", district: "origin.district_id" });
    return origin.city_id;
  }
  const loc = await pickupLocationRecords.get(ctx, origin.pickup_location_id);
  if (!loc)
    throw ApiError.validation({ "origin.pickup_location_id": [`No pickup location ${origin.pickup_location_id}.`] });
  return loc.cityId;
}

export async function courierPrices(ctx: ServiceContext, env: ShippingEnv, input: CourierPricesInput) {
  // Every read at once; the refusals still come in the order of the checks (origin, then destination).
  const [originOf, destinationOf, all, config, settings] = await Promise.all([
    outcomeOf(originCityOf(ctx, input.origin)),
    outcomeOf(
      checkPlace(
        ctx,
        { cityId: input.destination.city_id, districtId: input.destination.district_id },
        { city: "destination.city_id", district: "destination.district_id" },
      ),
    ),
    allCouriers(ctx, env),
    readConfig(ctx),
    readStoreSettings(ctx.db, ctx.appId),
  ]);
  const originCityId = originOf();
  destinationOf();
  const dest = { cityId: input.destination.city_id, districtId: input.destination.district_id ?? null };
  const packages = input.packages.map(toDims);
  const cod = input.cod_amount ?? 0;
  const wanted = input.courier_ids ? all.filter((c) => input.courier_ids!.includes(c.id)) : all;
  const results: {
    courier_id: number;
    service: string;
    price: number;
    currency: string;
    estimated_days: number | null;
  }[] = [];
  const unavailable: Reason[] = [];
  for (const c of wanted) {
    const reason = unavailableReason(c, config?.enabledCourierIds ?? null, dest, cod);
    const quotes = reason ?? (await quoteCourier(env, c, originCityId!, dest, packages, cod));
    if (typeof quotes === "string") unavailable.push({ courier_id: c.id, name_en: c.nameEn, reason: quotes });
    else
      for (const q of quotes)
        results.push({
          courier_id: q.courier_id,
          service: q.service,
          price: toMajor(q.price_minor),
          currency: settings.currency,
          estimated_days: q.estimated_days,
        });
  }
  for (const id of input.courier_ids ?? [])
    if (!all.some((c) => c.id === id))
      unavailable.push({ courier_id: id, name_en: "", reason: `No courier ${id} in this store.` });
  const totalG = packages.reduce((s, p) => s + p.weight_g, 0);
  return { results, unavailable, packages: packages.map(packageView), total_weight: totalG / 1000 };
}
