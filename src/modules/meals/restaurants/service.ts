import type { z } from "@hono/zod-openapi";
import { and, type Column, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, refuseWhileUsed, softDeleted, type TenantTable, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { insertedRowEvent } from "../../../core/events/outbox";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import {
  type ListParent,
  type ListQuery,
  type ListSpec,
  listPageWith,
  type Page,
  searchColumns,
} from "../../../core/listing";
import { nowIso } from "../../../core/time";
import {
  type Audience,
  bodyError,
  type Check,
  changed,
  createAndRead,
  findChecked,
  merchantView,
  readView,
  runChecks,
  type Stmt,
  type ViewRead,
  write,
  writeAndRead,
} from "../shared";
import {
  combos,
  deliveryWindows,
  deliveryZones,
  menuCategories,
  menus,
  plans,
  products,
  REST_TYPES,
  restaurantBranches,
  restaurantCategories,
  restaurants,
} from "../tables";
import type { CreateRestaurantSchema, Restaurant, UpdateRestaurantSchema } from "./schemas";
import { type RestaurantRow, restaurantView } from "./views";

/** Restaurants: the public lists and details, and the merchant's writes with their delivery areas. */

/** The restaurants the public sees: live and active. */
export const liveRestaurant = (appId: number) => and(live(restaurants, appId), eq(restaurants.isActive, true))!;

/** Live restaurants of the store, to find-or-404 on; the public reads also require `is_active`. */
export const restaurantRows = tenantTable(restaurants, { label: "Restaurant", notFound: "restaurant_not_found" });

export const RESTAURANT_LIST: ListSpec = {
  fields: {
    id: { column: restaurants.id, kind: "integer" },
    name_en: { column: restaurants.nameEn, kind: "string" },
    name_ar: { column: restaurants.nameAr, kind: "string" },
    rest_type: { column: restaurants.restType, kind: "string", values: REST_TYPES },
    category_id: { column: restaurants.categoryId, kind: "integer", nullable: true },
    supports_pickup: { column: restaurants.supportsPickup, kind: "boolean" },
    supports_delivery: { column: restaurants.supportsDelivery, kind: "boolean" },
    ordering: { column: restaurants.ordering, kind: "integer" },
    created_at: { column: restaurants.createdAt, kind: "datetime" },
  },
  search: searchColumns(restaurants.nameEn, restaurants.nameAr, restaurants.subtitleEn, restaurants.subtitleAr),
  defaultOrder: "ordering",
  idColumn: restaurants.id,
  sync: { modifiedAt: restaurants.modifiedAt, softDeleted: false },
};

/** List Restaurant, and On-Demand Restaurants (those whose `rest_type` serves on-demand orders), with their
 * main branches, in one statement (one round trip). */
export async function listRestaurants(
  ctx: ServiceContext,
  q: ListQuery,
  opts: { onDemand: boolean },
): Promise<Page<Restaurant>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    {
      table: restaurants,
      scope: () =>
        opts.onDemand
          ? and(liveRestaurant(ctx.appId), inArray(restaurants.restType, ["on_demand", "both"]))!
          : liveRestaurant(ctx.appId),
    },
    (rows) => ({
      mains: rowsJson(
        restaurantBranches,
        and(
          live(restaurantBranches, ctx.appId),
          eq(restaurantBranches.isMain, true),
          sql`${restaurantBranches.restaurantId} IN (SELECT id FROM ${rows})`,
        )!,
      ),
    }),
  );
  const mains = decodeRows(restaurantBranches, nested.mains);
  return {
    ...page,
    results: page.results.map((r) =>
      restaurantView(
        r,
        mains.find((b) => b.restaurantId === r.id),
      ),
    ),
  };
}

/** An active restaurant of the store as the parent of a public list: checked in the list's own statement. */
export function activeRestaurantParent(ctx: ServiceContext, id: number): ListParent {
  return {
    exists: sql`EXISTS (SELECT 1 FROM ${restaurants} WHERE ${and(liveRestaurant(ctx.appId), eq(restaurants.id, id))})`,
    notFound: () => ApiError.notFound("restaurant_not_found", `Restaurant ${id}`),
  };
}

/** Restaurant Details; the merchant's writes answer with inactive restaurants too. */
export async function getRestaurant(
  ctx: ServiceContext,
  id: number,
  audience: Audience = { activeOnly: true },
): Promise<Restaurant> {
  return readView(ctx, restaurantRead(ctx, id, audience));
}

/** Restaurant Details as reads of a batch: `id` is an id or the handle of the restaurant the batch inserts. */
function restaurantRead(ctx: ServiceContext, id: number | SQL, audience: Audience): ViewRead<Restaurant> {
  const reads = [
    ctx.db
      .select()
      .from(restaurants)
      .where(
        and(audience.activeOnly ? liveRestaurant(ctx.appId) : live(restaurants, ctx.appId), eq(restaurants.id, id)),
      ),
    ctx.db
      .select()
      .from(restaurantBranches)
      .where(
        and(
          live(restaurantBranches, ctx.appId),
          eq(restaurantBranches.restaurantId, id),
          eq(restaurantBranches.isMain, true),
        ),
      ),
  ];
  return {
    reads,
    view: (results) => {
      const [rows, mains] = results as [RestaurantRow[], (typeof restaurantBranches.$inferSelect)[]];
      if (!rows[0])
        throw ApiError.notFound("restaurant_not_found", `Restaurant ${typeof id === "number" ? id : ""}`.trim());
      return restaurantView(rows[0], mains[0]);
    },
  };
}

// ---- merchant writes ----

/**
 * A restaurant named in a body must be one of the store's (a 400 on `restaurant_id`, as for an id that does not
 * exist).
 */
export async function ownRestaurant(ctx: ServiceContext, id: number): Promise<void> {
  await runChecks(ctx, [restaurantNamed(ctx, id)]);
}

/** `ownRestaurant` as a check of a write's round of reads. */
export function restaurantNamed<Record>(ctx: ServiceContext, id: number): Check<Record> {
  return {
    read: ctx.db
      .select({ id: restaurants.id })
      .from(restaurants)
      .where(and(live(restaurants, ctx.appId), eq(restaurants.id, id))),
    refuse: (rows) => {
      if (!rows.length) throw bodyError("restaurant_id", "No such restaurant in this store.");
    },
  };
}

type CreateRestaurant = z.infer<typeof CreateRestaurantSchema>;
type RestaurantFields = z.infer<typeof UpdateRestaurantSchema>;

/** The body's fields → the restaurant's columns (drizzle leaves the undefined ones out). */
const restaurantColumns = (b: RestaurantFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  subtitleEn: b.subtitle_en,
  subtitleAr: b.subtitle_ar,
  descriptionEn: b.description_en,
  descriptionAr: b.description_ar,
  logo: b.logo,
  banner: b.banner,
  restType: b.rest_type,
  categoryId: b.category_id,
  startAfter: b.start_after,
  storeStartAfter: b.store_start_after,
  isActive: b.is_active,
  primaryColor: b.primary_color,
  secondaryColor: b.secondary_color,
  closedDates: b.closed_dates,
  offDays: b.off_days,
  supportsPickup: b.supports_pickup,
  supportsDelivery: b.supports_delivery,
  deliveryByPlatform: b.delivery_by_platform,
  timeZone: b.time_zone,
  cutoffHours: b.cutoff_hours,
  menuId: b.menu_id,
  customFields: b.custom_fields,
  ordering: b.ordering,
});

/** What a restaurant names must be the store's (its category) and its own (its menu): checks of the write's reads. */
function restaurantRefChecks<Record>(
  ctx: ServiceContext,
  id: number | null,
  body: { category_id?: number | null; menu_id?: number | null },
): (Check<Record> | undefined)[] {
  const { category_id: categoryId, menu_id: menuId } = body;
  return [
    categoryId == null
      ? undefined
      : {
          read: ctx.db
            .select({ id: restaurantCategories.id })
            .from(restaurantCategories)
            .where(and(live(restaurantCategories, ctx.appId), eq(restaurantCategories.id, categoryId))),
          refuse: (rows) => {
            if (!rows.length) throw bodyError("category_id", "No such restaurant category in this store.");
          },
        },
    menuId == null
      ? undefined
      : {
          read: ctx.db
            .select({ restaurantId: menus.restaurantId })
            .from(menus)
            .where(and(live(menus, ctx.appId), eq(menus.id, menuId))),
          refuse: ([m]: { restaurantId: number }[]) => {
            if (!m || m.restaurantId !== id) throw bodyError("menu_id", "Must be a menu of this restaurant.");
          },
        },
  ];
}

/** The delivery windows and zones given, replacing the restaurant's (`replace`), in the batch of its change. */
function areaStatements(
  ctx: ServiceContext,
  restaurantId: number | SQL,
  body: Pick<RestaurantFields, "delivery_windows" | "delivery_zones">,
  replace: boolean,
): Stmt[] {
  const out: Stmt[] = [];
  if (body.delivery_windows) {
    if (replace)
      out.push(
        ctx.db
          .update(deliveryWindows)
          .set(softDeleted())
          .where(and(live(deliveryWindows, ctx.appId), eq(deliveryWindows.restaurantId, restaurantId))),
      );
    for (const [i, w] of body.delivery_windows.entries()) {
      out.push(
        ctx.db.insert(deliveryWindows).values({
          appId: ctx.appId,
          restaurantId,
          fromTime: w.from_time,
          toTime: w.to_time,
          type: w.type,
          isDefault: w.is_default,
          tag: w.tag,
          isOnDemandOpened: w.is_on_demand_opened,
          ordering: i,
        }),
      );
    }
  }
  if (body.delivery_zones) {
    if (replace)
      out.push(
        ctx.db
          .update(deliveryZones)
          .set(softDeleted())
          .where(and(live(deliveryZones, ctx.appId), eq(deliveryZones.restaurantId, restaurantId))),
      );
    for (const [i, z] of body.delivery_zones.entries()) {
      out.push(
        ctx.db.insert(deliveryZones).values({
          appId: ctx.appId,
          restaurantId,
          cityId: z.city_id,
          nameEn: z.name_en ?? "",
          polygon: z.polygon,
          ordering: i,
        }),
      );
    }
  }
  return out;
}

export async function createRestaurant(ctx: ServiceContext, body: CreateRestaurant): Promise<Restaurant> {
  await runChecks(ctx, restaurantRefChecks(ctx, null, body));
  return createAndRead(
    ctx,
    restaurantRows.insert(ctx, {
      ...restaurantColumns(body),
      appId: ctx.appId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
      restType: body.rest_type,
    }),
    (id) => insertedRowEvent("restaurant.created", restaurants, { id }),
    (id) => restaurantRead(ctx, id, merchantView),
    (id) => areaStatements(ctx, id, body, false),
  );
}

export async function updateRestaurant(ctx: ServiceContext, id: number, body: RestaurantFields): Promise<Restaurant> {
  await findChecked(ctx, restaurantRows, id, restaurantRefChecks(ctx, id, body));
  return writeAndRead(
    ctx,
    changed(ctx, "restaurant.updated", id),
    [
      restaurantRows.update(ctx, id, { ...restaurantColumns(body), modifiedAt: nowIso() }),
      ...areaStatements(ctx, id, body, true),
    ],
    restaurantRead(ctx, id, merchantView),
  );
}

/**
 * Refused while live plans sell the restaurant's meals; otherwise its branches, areas, menus and products go with it.
 */
export async function deleteRestaurant(ctx: ServiceContext, id: number): Promise<void> {
  await findChecked(ctx, restaurantRows, id, [
    {
      read: ctx.db
        .select({ id: plans.id })
        .from(plans)
        .where(and(live(plans, ctx.appId), eq(plans.restaurantId, id))),
      refuse: (users: { id: number }[]) => {
        const planIds = users.map((p) => p.id);
        refuseWhileUsed(
          "restaurant_in_use",
          { plans: planIds },
          `Plans ${planIds.join(", ")} sell this restaurant's meals; delete them first.`,
        );
      },
    },
  ]);
  const gone = softDeleted();
  const ofRestaurant = (t: TenantTable & { restaurantId: Column }) => and(live(t, ctx.appId), eq(t.restaurantId, id));
  await write(ctx, changed(ctx, "restaurant.deleted", id), [
    restaurantRows.softDelete(ctx, id),
    ctx.db.update(restaurantBranches).set(gone).where(ofRestaurant(restaurantBranches)),
    ctx.db.update(deliveryZones).set(gone).where(ofRestaurant(deliveryZones)),
    ctx.db.update(deliveryWindows).set(gone).where(ofRestaurant(deliveryWindows)),
    ctx.db
      .update(menuCategories)
      .set(gone)
      .where(
        and(
          live(menuCategories, ctx.appId),
          sql`${menuCategories.menuId} IN (SELECT id FROM ${menus} WHERE ${menus.restaurantId} = ${id})`,
        ),
      ),
    ctx.db.update(menus).set(gone).where(ofRestaurant(menus)),
    ctx.db.update(combos).set(gone).where(ofRestaurant(combos)),
    ctx.db.update(products).set(gone).where(ofRestaurant(products)),
  ]);
}
