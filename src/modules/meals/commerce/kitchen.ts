import { type SQL, sql } from "drizzle-orm";
import { liveRow } from "../../../core/crud/tenant-table";
import { decodeRows, intLiteral, rowsJson } from "../../../core/json-rows";
import { type DeliveryWindowDetail, deliveryWindowView } from "../restaurants/areas";
import { branchView } from "../restaurants/views";
import { deliveryWindows, planCategories, planOptions, products, restaurantBranches } from "../tables";

/**
 * What a kitchen's day (meals logistics) reads of the meals side, as parts of ONE statement
 * (core/json-rows): the branch and which deliveries it cooks, and the names of the plan
 * categories, options, products and windows the day's suborders name. Deleted records are read
 * too: a suborder keeps what it was sold.
 */

const BRANCH = sql.raw("restaurant_branches");

/**
 * The live branch `branchId` of the store, as scalar subqueries: its row (JSON), its restaurant and
 * city, and whether it cooks its restaurant's deliveries in its city (the main branch there, else
 * the first by ordering: one kitchen per restaurant and city, so no delivery is cooked twice).
 */
export function branchKitchenSql(appId: number, branchId: number) {
  const a = intLiteral(appId);
  const b = intLiteral(branchId);
  const of = (column: string) => sql`(SELECT ${sql.raw(column)} FROM ${BRANCH} WHERE id = ${b} AND ${liveRow(a)})`;
  const restaurantId = of("restaurant_id");
  const cityId = of("city_id");
  return {
    branch: rowsJson(restaurantBranches, sql`id = ${b} AND ${liveRow(a)}`),
    restaurantId,
    cityId,
    cooksDeliveries: sql`(SELECT x.id FROM ${BRANCH} x WHERE ${liveRow(a, "x")}
      AND x.restaurant_id = ${restaurantId} AND x.city_id = ${cityId}
      ORDER BY x.is_main DESC, x.ordering, x.id LIMIT 1) = ${b}`,
  };
}

/** The branch of a `branchKitchenSql` part, as the API shows it; undefined when there is none. */
export function branchFromJson(json: unknown) {
  const row = decodeRows(restaurantBranches, json)[0];
  return row && branchView(row);
}

/** Subqueries of the ids a kitchen's day names. */
export type KitchenIds = { categories: SQL; options: SQL; addOnProducts: SQL; windows: SQL };

export type KitchenPart = "plan_categories" | "plan_options" | "products" | "windows";

export function kitchenNamesJson(appId: number, ids: KitchenIds): Record<KitchenPart, SQL> {
  const a = intLiteral(appId);
  return {
    plan_categories: rowsJson(planCategories, sql`app_id = ${a} AND id IN ${ids.categories}`),
    plan_options: rowsJson(planOptions, sql`app_id = ${a} AND id IN ${ids.options}`),
    products: rowsJson(
      products,
      sql`app_id = ${a} AND (id IN ${ids.addOnProducts}
        OR id IN (SELECT product_id FROM plan_options WHERE app_id = ${a} AND id IN ${ids.options}))`,
    ),
    windows: rowsJson(deliveryWindows, sql`app_id = ${a} AND id IN ${ids.windows}`),
  };
}

export type Named = { name_en: string; name_ar: string };

export type KitchenNames = {
  categories: Map<number, Named>;
  /** Plan option → the product it serves. */
  options: Map<number, number>;
  products: Map<number, Named>;
  windows: Map<number, DeliveryWindowDetail>;
};

/** The maps of a `kitchenNamesJson` result (each part parsed JSON, or its text). */
export function kitchenNamesFromJson(parts: Record<KitchenPart, unknown>): KitchenNames {
  const named = (r: { id: number; nameEn: string; nameAr: string }) =>
    [r.id, { name_en: r.nameEn, name_ar: r.nameAr }] as const;
  return {
    categories: new Map(decodeRows(planCategories, parts.plan_categories).map(named)),
    options: new Map(decodeRows(planOptions, parts.plan_options).map((o) => [o.id, o.productId])),
    products: new Map(decodeRows(products, parts.products).map(named)),
    windows: new Map(decodeRows(deliveryWindows, parts.windows).map((w) => [w.id, deliveryWindowView(w)])),
  };
}
