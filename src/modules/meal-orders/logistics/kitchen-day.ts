import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { liveRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { decodeRows, intLiteral, rowArray, rowsJson } from "../../../core/json-rows";
import { customersFromJson, customersJson } from "../../customers";
import {
  branchFromJson,
  branchKitchenSql,
  type DeliveryWindowDetail,
  type KitchenNames,
  kitchenNamesFromJson,
  kitchenNamesJson,
} from "../../meals";
import { suborders } from "../tables";
import type { KitchenDay } from "./schemas";
import { captains } from "./tables";

/**
 * The kitchen's day: the suborders a branch prepares on a date, grouped by delivery window (pickup
 * as its own group), with their customers, captains, meals and add-ons by name, and what to cook in
 * all. A branch prepares the pickups at it, and the deliveries of its restaurant in its city when it
 * is that restaurant's kitchen there (its main branch in the city, else the first). Only suborders
 * of active subscriptions (or paused ones, for the days before the pause; or completed ones, whose
 * last deliveries stay on their day), not held by a pause and not cancelled. ONE statement (one D1 round trip): every level is a JSON part of it.
 */

const DAY = sql.identifier("kitchen_day");

/**
 * Subscriptions whose suborders of the day count: frozen ones (a pause's) are left out below; a
 * completed one's are all final, and stay on the day they were delivered.
 */
const COOKING = sql.raw("('active', 'paused', 'completed')");
const CANCELLED = sql.raw("('cancelled_by_customer', 'cancelled_by_operation')");

type Group = KitchenDay["groups"][number];
type KitchenSuborder = Group["suborders"][number];
type Customer = NonNullable<KitchenSuborder["customer"]>;
type Captain = NonNullable<KitchenSuborder["captain"]>;

export async function kitchenDay(ctx: ServiceContext, date: string, branchId: number): Promise<KitchenDay> {
  const a = intLiteral(ctx.appId);
  const b = intLiteral(branchId);
  const branch = branchKitchenSql(ctx.appId, branchId);
  // The delivery's city: its own address's, else the subscription's (both snapshots of a customer location).
  const cityOf = sql`COALESCE(json_extract(s.location, '$.city_id'),
    (SELECT json_extract(ms.location, '$.city_id') FROM meal_subscriptions ms WHERE ms.id = s.subscription_id))`;
  const day = sql`SELECT s.* FROM suborders s
    WHERE ${liveRow(a, "s")} AND s.date = ${date} AND s.is_frozen = 0
      AND s.status NOT IN ${CANCELLED}
      AND EXISTS (SELECT 1 FROM meal_subscriptions ms WHERE ms.id = s.subscription_id AND ${liveRow(a, "ms")}
        AND ms.status IN ${COOKING})
      AND ((s.is_pickup = 1 AND s.pickup_branch_id = ${b})
        OR (s.is_pickup = 0 AND s.restaurant_id = ${branch.restaurantId} AND ${branch.cooksDeliveries}
          AND ${cityOf} = ${branch.cityId}))`;
  const names = kitchenNamesJson(ctx.appId, {
    categories: sql`(SELECT json_extract(m.value, '$.plan_category_id') FROM ${DAY}, json_each(${DAY}.meals) m)`,
    options: sql`(SELECT o.value FROM ${DAY}, json_each(${DAY}.meals) m, json_each(m.value, '$.option_ids') o)`,
    addOnProducts: sql`(SELECT json_extract(x.value, '$.product_id') FROM ${DAY}, json_each(${DAY}.add_ons) x)`,
    windows: sql`(SELECT delivery_window_id FROM ${DAY})`,
  });
  const parts: Record<string, SQL> = {
    branch: branch.branch,
    suborders: sql`(SELECT json_group_array(${rowArray(suborders, "kitchen_day")}) FROM ${DAY})`,
    customers: customersJson(ctx.appId, sql`(SELECT customer_id FROM ${DAY})`),
    captains: rowsJson(captains, sql`app_id = ${a} AND id IN (SELECT captain_id FROM ${DAY})`),
    ...names,
  };
  const row = await ctx.db.get<Record<string, string | null>>(
    sql`WITH ${DAY} AS MATERIALIZED (${day}) SELECT ${sql.join(
      Object.entries(parts).map(([k, v]) => sql`${v} AS ${sql.identifier(k)}`),
      sql`, `,
    )}`,
  );
  const found = branchFromJson(row?.branch ?? "[]");
  if (!found) throw ApiError.notFound("branch_not_found", `Branch ${branchId}`);
  const parsed = Object.fromEntries(Object.keys(names).map((k) => [k, JSON.parse(row?.[k] ?? "[]")]));
  return assemble(date, found, {
    suborders: decodeRows(suborders, row?.suborders ?? "[]"),
    customers: customersFromJson(row?.customers ?? "[]"),
    captains: decodeRows(captains, row?.captains ?? "[]"),
    names: kitchenNamesFromJson(parsed as Parameters<typeof kitchenNamesFromJson>[0]),
  });
}

type DayData = {
  suborders: (typeof suborders.$inferSelect)[];
  customers: Map<number, { id: number; name: string | null; mobile_number: string; lang: string }>;
  captains: (typeof captains.$inferSelect)[];
  names: KitchenNames;
};

const unnamed = { name_en: "", name_ar: "" };

/** The groups in the order of the day: windows by their start, deliveries without one, then pickup. */
function assemble(date: string, branch: KitchenDay["branch"], d: DayData): KitchenDay {
  const captainsById = new Map<number, Captain>(
    d.captains.map((c) => [c.id, { id: c.id, name: c.name, mobile_number: c.mobileNumber }]),
  );
  const totals = new Map<number, number>();
  const count = (productId: number, qty: number) => totals.set(productId, (totals.get(productId) ?? 0) + qty);
  const groups = new Map<string, Group & { from: string }>();
  for (const s of [...d.suborders].sort((x, y) => x.id - y.id)) {
    const window: DeliveryWindowDetail | undefined =
      s.deliveryWindowId === null ? undefined : d.names.windows.get(s.deliveryWindowId);
    const key = s.isPickup ? "pickup" : window ? `w${window.id}` : "none";
    if (!groups.has(key))
      groups.set(key, {
        // Windows by start time, then id; "~" sorts after any time.
        from: s.isPickup ? "~pickup" : window ? `${window.from_time}|${String(window.id).padStart(15, "0")}` : "~none",
        is_pickup: s.isPickup,
        delivery_window: s.isPickup ? null : (window ?? null),
        suborders: [],
      });
    const meals = s.meals.map((m) => ({
      plan_category_id: m.plan_category_id,
      ...(d.names.categories.get(m.plan_category_id) ?? unnamed),
      options: m.option_ids.map((o) => {
        const productId = d.names.options.get(o) ?? null;
        if (productId !== null) count(productId, 1);
        return {
          id: o,
          product_id: productId,
          ...((productId !== null && d.names.products.get(productId)) || unnamed),
        };
      }),
    }));
    const addOns = s.addOns.map((x) => {
      count(x.product_id, x.qty);
      return { product_id: x.product_id, ...(d.names.products.get(x.product_id) ?? unnamed), qty: x.qty };
    });
    const customer: Customer | undefined = d.customers.get(s.customerId);
    groups.get(key)!.suborders.push({
      id: s.id,
      subscription_id: s.subscriptionId,
      status: s.status,
      is_pickup: s.isPickup,
      customer: customer
        ? { id: customer.id, name: customer.name, mobile_number: customer.mobile_number, lang: customer.lang }
        : null,
      location: s.location ?? null,
      captain: s.captainId === null ? null : (captainsById.get(s.captainId) ?? null),
      meals,
      add_ons: addOns,
      notes: s.notes,
      operation_note: s.operationNote,
    });
  }
  const ordered = [...groups.values()].sort((x, y) => (x.from < y.from ? -1 : x.from > y.from ? 1 : 0));
  return {
    date,
    branch,
    suborders_count: d.suborders.length,
    groups: ordered.map(({ from: _f, ...g }) => g),
    totals: [...totals.entries()]
      .map(([product_id, qty]) => ({ product_id, ...(d.names.products.get(product_id) ?? unnamed), qty }))
      .sort((x, y) => y.qty - x.qty || x.product_id - y.product_id),
  };
}
