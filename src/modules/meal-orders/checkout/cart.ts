import { sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { ApiError, addFieldError, type FieldErrors } from "../../../core/errors";
import { type Location, readLocation } from "../../customers";
import { earliestStartDate, type PlanForOrder, planVersionForOrder, type ZoneAtPoint, zonesAround } from "../../meals";
import type { ServiceLineInput } from "../../orders";
import { deliveryDates, planDayFor, restaurantToday, startProblem } from "../schedule";
import type { MealChoice } from "../tables";
import { versionPriceMinor } from "./pricing";
import type { MealCart } from "./schemas";

/**
 * A meal cart checked against the plan and the customer: the version on sale, the start date, the
 * delivery dates and the menu-cycle day of each, the meals of each date, the window and location
 * (or the pickup branch). Every rule broken is a 409 naming it (dates: the first valid one); a
 * record the body names that is not the store's or the customer's is a 400 on its field.
 */

/** Who buys: the store's customer, and where their locations are (a channel customer's are the channel's). */
export type Buyer = {
  customerId: number;
  locations: { ctx: ServiceContext; customerId: number };
  channel: { appId: number; customerId: number } | null;
  /** The `city-id` header: the city the app listed the provider in. */
  cityId: number | null;
};

/** One delivery of the term as it is stored in `meal_orders.selections` (and becomes a suborder). */
export type DeliverySelection = { date: string; plan_day_id: number | null; meals: MealChoice[] };

export type ResolvedMealCart = {
  p: PlanForOrder;
  startDate: string;
  endDate: string;
  deliveries: DeliverySelection[];
  isPickup: boolean;
  pickupBranchId: number | null;
  deliveryWindowId: number | null;
  primaryLocationId: number | null;
  secondaryLocationId: number | null;
  location: Location | null;
  notes: string | null;
  deliveryFeeMinor: number;
  lines: ServiceLineInput[];
};

const bad = (field: string, message: string) => ApiError.validation({ [field]: [message] });

/** The plan version of the store that is on sale, or a 400 on `plan_version_id`. */
export async function planOnSale(ctx: ServiceContext, versionId: number): Promise<PlanForOrder> {
  const p = await planVersionForOrder(ctx, versionId);
  if (!p) throw bad("plan_version_id", `Plan version ${versionId} is not on sale in this store.`);
  return p;
}

/** The first date a term may start, or 409 `plan_version_closed`. */
export function firstStart(p: PlanForOrder, notAfter?: string): string {
  const first = earliestStartDate(p, restaurantToday(p.restaurant), notAfter);
  if (!first)
    throw ApiError.conflict(
      "plan_version_closed",
      `Version ${p.version.id} can no longer start: its last start date is ${p.version.maxStartDate}.`,
    );
  return first;
}

export function checkStart(p: PlanForOrder, start: string, first: string): void {
  const problem = startProblem(p, start, first);
  if (!problem) return;
  const detail = {
    start_date_too_early: `Too early: the first start date of version ${p.version.id} is ${problem.first}.`,
    start_date_too_late: `Too late: version ${p.version.id} starts at the latest on ${p.version.maxStartDate}.`,
    start_date_closed: `${start} is not a delivery day of version ${p.version.id} (an off day or a closed date).`,
  }[problem.code];
  throw ApiError.conflict(problem.code, detail, { first_valid_date: problem.first });
}

/** The recommended options of a category (at most its maximum), else its first option: what the kitchen serves. */
function defaultChoice(p: PlanForOrder, categoryId: number, max: number): MealChoice | null {
  const options = p.options.filter((o) => o.planCategoryId === categoryId);
  if (!options.length) return null;
  const recommended = options.filter((o) => o.isRecommended).slice(0, max);
  return {
    plan_category_id: categoryId,
    option_ids: (recommended.length ? recommended : options.slice(0, 1)).map((o) => o.id),
  };
}

const maxOf = (c: { isMultiSelect: boolean; maxSelectedOptions: number }) =>
  c.isMultiSelect ? Math.max(1, c.maxSelectedOptions) : 1;

/**
 * The meals of each delivery: the body's choices, checked against the categories and options of
 * the plan day serving the date; a category not chosen gets the kitchen's default when the plan
 * skips option selection, and is a 400 otherwise.
 */
export function mealsOfDeliveries(
  p: PlanForOrder,
  dates: string[],
  given: MealCart["dates"],
  field = "dates",
): DeliverySelection[] {
  const errors: FieldErrors = {};
  const add = (path: string, message: string) => addFieldError(errors, path, message);
  const index = new Map(dates.map((d, i) => [d, i]));
  const chosen = new Map<string, Map<number, number[]>>();
  given?.forEach((d, i) => {
    const n = index.get(d.date);
    if (n === undefined) {
      const next = dates.find((x) => x > d.date) ?? null;
      throw ApiError.conflict(
        "date_not_in_schedule",
        `${d.date} (dates.${i}) is not a delivery date of this order: it delivers from ${dates[0]} to ` +
          `${dates[dates.length - 1]}, skipping off days and closed dates.`,
        { first_valid_date: next, delivery_dates: dates },
      );
    }
    const day = planDayFor(p, n);
    const categories = p.categories.filter((c) => c.planDayId === day);
    const picks = new Map<number, number[]>();
    d.options.forEach((o, j) => {
      const at = `${field}.${i}.options.${j}`;
      const category = categories.find((c) => c.id === o.plan_category_id);
      if (!category) {
        add(
          `${at}.plan_category_id`,
          `Not a category of the plan day serving ${d.date}; its categories are ${categories.map((c) => c.id).join(", ") || "none"}.`,
        );
        return;
      }
      if (picks.has(category.id))
        add(`${at}.plan_category_id`, `Category ${category.id} is chosen twice on ${d.date}.`);
      const valid = new Set(p.options.filter((x) => x.planCategoryId === category.id).map((x) => x.id));
      const outside = o.option_ids.filter((x) => !valid.has(x));
      if (outside.length)
        add(`${at}.option_ids`, `Not options of category ${category.id} on ${d.date}: ${outside.join(", ")}.`);
      if (o.option_ids.length > maxOf(category))
        add(
          `${at}.option_ids`,
          `Category ${category.id} takes at most ${maxOf(category)} option(s); ${o.option_ids.length} given.`,
        );
      picks.set(category.id, o.option_ids);
    });
    chosen.set(d.date, picks);
  });
  const deliveries = dates.map((date, n): DeliverySelection => {
    const day = planDayFor(p, n);
    const picks = chosen.get(date) ?? new Map<number, number[]>();
    const meals: MealChoice[] = [];
    const missing: number[] = [];
    for (const c of p.categories.filter((x) => x.planDayId === day)) {
      const ids = picks.get(c.id);
      if (ids) meals.push({ plan_category_id: c.id, option_ids: ids });
      else if (p.plan.skipOptionSelection) {
        const fallback = defaultChoice(p, c.id, maxOf(c));
        if (fallback) meals.push(fallback);
      } else if (p.options.some((o) => o.planCategoryId === c.id)) missing.push(c.id);
    }
    if (missing.length && Object.keys(errors).length < 10)
      add(
        field,
        `Choose the meals of ${date}: categor${missing.length > 1 ? "ies" : "y"} ${missing.join(", ")} ha${missing.length > 1 ? "ve" : "s"} none.`,
      );
    return { date, plan_day_id: day, meals };
  });
  if (Object.keys(errors).length) throw ApiError.validation(errors, "Some meals cannot be ordered; see `errors`.");
  return deliveries;
}

/**
 * A location the body names, read with the delivery zones around it (delivery only) in ONE round
 * trip: null when it is not one of the customer's (of their store: a channel customer's are the
 * channel's).
 */
type Place = { location: Location | null; zonesAt: ((point: { lat: number; lng: number }) => ZoneAtPoint[]) | null };

async function readPlace(ctx: ServiceContext, buyer: Buyer, id: number, delivery: boolean): Promise<Place> {
  const of = (column: string) => sql`(SELECT ${sql.raw(column)} FROM customer_locations WHERE id = ${id})`;
  // A channel customer's location on another shard than the provider's cannot be read in the zones'
  // statement: the zones of the city are read beside it, unbounded, and the point picks among them.
  const sameDb = buyer.locations.ctx.db === ctx.db;
  const [location, zonesAt] = await Promise.all([
    readLocation(buyer.locations.ctx, buyer.locations.customerId, id),
    delivery
      ? zonesAround(ctx, {
          ...(sameDb && { lat: of("latitude"), lng: of("longitude") }),
          ...(buyer.cityId !== null && { cityId: buyer.cityId }),
        })
      : null,
  ]);
  return { location, zonesAt };
}

/** The location a place holds, or a 400 on `field`. */
function locationOf(place: Place, id: number, field: string): Location {
  if (!place.location) throw bad(field, `Location ${id} is not one of yours.`);
  return place.location;
}

/** Whether a delivery zone of the restaurant (in the city named, when one is) contains the location. */
function served(p: PlanForOrder, l: Location, place: Place | null): boolean {
  const zones = place?.zonesAt?.({ lat: Number(l.latitude), lng: Number(l.longitude) }) ?? [];
  return zones.some((z) => z.restaurantId === p.restaurant.id);
}

type Places = { primary: Place | null; secondary: Place | null };

/** Delivery: the window of the restaurant for subscriptions, and the locations it serves; or the pickup branch. */
function handOver(p: PlanForOrder, body: MealCart, places: Places) {
  const locations = () => ({
    primary: body.primary_location_id
      ? locationOf(places.primary!, body.primary_location_id, "primary_location_id")
      : null,
    secondary: body.secondary_location_id
      ? locationOf(places.secondary!, body.secondary_location_id, "secondary_location_id")
      : null,
  });
  if (body.is_pickup) {
    if (!p.restaurant.supportsPickup)
      throw ApiError.conflict("pickup_not_supported", `Restaurant ${p.restaurant.id} does not take pickups.`);
    const branch = p.branches.find((b) => b.id === body.pickup_branch_id);
    if (!branch)
      throw bad("pickup_branch_id", `Branch ${body.pickup_branch_id} is not one of restaurant ${p.restaurant.id}'s.`);
    if (!branch.supportsPickup)
      throw ApiError.conflict("pickup_not_supported", `Branch ${branch.id} does not take pickups.`, {
        branch_id: branch.id,
      });
    const { primary, secondary } = locations();
    return { pickupBranchId: branch.id, windowId: null, primary: primary?.id ?? null, location: primary, secondary };
  }
  if (!p.restaurant.supportsDelivery)
    throw ApiError.conflict(
      "delivery_not_supported",
      `Restaurant ${p.restaurant.id} does not deliver; pick up instead.`,
    );
  const window = p.windows.find((w) => w.id === body.delivery_window_id && w.type !== "on_demand");
  if (!window)
    throw bad(
      "delivery_window_id",
      `Not a subscription delivery window of restaurant ${p.restaurant.id}; its windows are ${
        p.windows
          .filter((w) => w.type !== "on_demand")
          .map((w) => w.id)
          .join(", ") || "none"
      }.`,
    );
  const { primary, secondary } = locations();
  const location = primary!;
  for (const [l, place, field] of [
    [location, places.primary, "primary_location_id"],
    [secondary, places.secondary, "secondary_location_id"],
  ] as const) {
    if (l && !served(p, l, place))
      throw ApiError.conflict(
        "location_not_served",
        `Window ${window.id} of restaurant ${p.restaurant.id} does not serve location ${l.id} (${field}): no delivery zone of the restaurant contains it.`,
        { location_id: l.id, delivery_window_id: window.id },
      );
  }
  return { pickupBranchId: null, windowId: window.id, primary: location.id, location, secondary };
}

/** The line an order of the version is charged: the version at its price after its own discount. */
export function planLine(p: PlanForOrder): ServiceLineInput {
  const duration = p.version.duration ?? `${p.version.numOfDays} days`;
  return {
    key: 0,
    nameEn: `${p.plan.nameEn} (${duration})`,
    nameAr: `${p.plan.nameAr} (${duration})`,
    sku: `meal-plan-version-${p.version.id}`,
    qty: 1,
    unitPriceMinor: versionPriceMinor(p.version),
  };
}

/**
 * The order a meal cart describes, checked, in ONE round trip: the plan version, and the locations
 * with the zones around them, read together; the checks then run in their order.
 */
export async function resolveMealCart(ctx: ServiceContext, buyer: Buyer, body: MealCart): Promise<ResolvedMealCart> {
  const place = (id: number | undefined | null) => (id ? readPlace(ctx, buyer, id, !body.is_pickup) : null);
  const [plan, primary, secondary] = await Promise.allSettled([
    planOnSale(ctx, body.plan_version_id),
    place(body.primary_location_id),
    place(body.secondary_location_id),
  ]);
  const p = settled(plan);
  checkStart(p, body.start_date, firstStart(p));
  const dates = deliveryDates(p, body.start_date);
  const deliveries = mealsOfDeliveries(p, dates, body.dates);
  const h = handOver(p, body, { primary: settled(primary), secondary: settled(secondary) });
  return {
    p,
    startDate: dates[0]!,
    endDate: dates[dates.length - 1]!,
    deliveries,
    isPickup: body.is_pickup,
    pickupBranchId: h.pickupBranchId,
    deliveryWindowId: h.windowId,
    primaryLocationId: h.primary,
    secondaryLocationId: h.secondary?.id ?? null,
    location: h.location,
    notes: body.notes ?? null,
    deliveryFeeMinor: body.is_pickup ? 0 : p.version.deliveryPriceMinor,
    lines: [planLine(p)],
  };
}

/** A read's value, or its failure thrown where the checks reach it (as when the reads ran one after another). */
function settled<T>(r: PromiseSettledResult<T>): T {
  if (r.status === "rejected") throw r.reason;
  return r.value;
}
