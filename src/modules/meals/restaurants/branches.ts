import type { z } from "@hono/zod-openapi";
import { and, eq, ne, type SQL } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { literalEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, searchColumns } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { changed, updatedRow, write } from "../shared";
import { restaurantBranches } from "../tables";
import type { CreateBranchSchema, UpdateBranchSchema } from "./schemas";
import { activeRestaurantParent, ownRestaurant, restaurantRows } from "./service";
import { type BranchRow, branchView } from "./views";

/**
 * A restaurant's branches: where it is, picks up and delivers by radius. A change is the restaurant's
 * (`restaurant.updated`).
 */

const branchRows = tenantTable(restaurantBranches, { label: "Branch", notFound: "branch_not_found" });

export const BRANCH_LIST: ListSpec = {
  fields: {
    id: { column: restaurantBranches.id, kind: "integer" },
    name_en: { column: restaurantBranches.nameEn, kind: "string" },
    name_ar: { column: restaurantBranches.nameAr, kind: "string" },
    city_id: { column: restaurantBranches.cityId, kind: "integer" },
    is_main: { column: restaurantBranches.isMain, kind: "boolean" },
    supports_pickup: { column: restaurantBranches.supportsPickup, kind: "boolean" },
    ordering: { column: restaurantBranches.ordering, kind: "integer" },
  },
  search: searchColumns(restaurantBranches.nameEn, restaurantBranches.nameAr, restaurantBranches.address1),
  defaultOrder: "ordering",
  idColumn: restaurantBranches.id,
  sync: { modifiedAt: restaurantBranches.modifiedAt, softDeleted: false },
};

/** List Restaurant Branch: the branches of an active restaurant. */
export async function listBranches(ctx: ServiceContext, q: ListQuery, restaurantId: number) {
  const page = await listPage(ctx.db, q, {
    table: restaurantBranches,
    parent: activeRestaurantParent(ctx, restaurantId),
    scope: () => and(live(restaurantBranches, ctx.appId), eq(restaurantBranches.restaurantId, restaurantId))!,
  });
  return mapPage(page, branchView);
}

/** The store's branches, of every restaurant (logistics' Branch list): the restaurant is a filter. */
export const STORE_BRANCH_LIST: ListSpec = {
  ...BRANCH_LIST,
  fields: { ...BRANCH_LIST.fields, restaurant_id: { column: restaurantBranches.restaurantId, kind: "integer" } },
};

/** The live branches of the store, of any restaurant (inactive ones' too: the merchant's view). */
export async function listStoreBranches(ctx: ServiceContext, q: ListQuery) {
  const page = await listPage(ctx.db, q, {
    table: restaurantBranches,
    scope: () => live(restaurantBranches, ctx.appId),
  });
  return mapPage(page, branchView);
}

/** The live branch `id` of the store as the API shows it, or 404 `branch_not_found`. */
export async function getBranch(ctx: ServiceContext, id: number) {
  return branchView(await branchRows.find(ctx, id));
}

/** The live branch `id` of the store (its restaurant and city), or undefined. */
export async function findBranch(ctx: ServiceContext, id: number) {
  const row = await branchRows.get(ctx, id);
  return row && branchView(row);
}

type CreateBranch = z.infer<typeof CreateBranchSchema>;
type BranchFields = z.infer<typeof UpdateBranchSchema>;

/** The body's fields → the branch's columns (drizzle leaves the undefined ones out). */
const branchColumns = (b: BranchFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  cityId: b.city_id,
  address1: b.address1,
  lat: b.lat,
  lng: b.lng,
  isMain: b.is_main,
  supportsPickup: b.supports_pickup,
  deliveryRadiusKm: b.delivery_radius_km,
  ordering: b.ordering,
});

/** At most one main branch: making one main clears the others'. */
const clearMain = (ctx: ServiceContext, restaurantId: number, except: number | SQL) =>
  ctx.db
    .update(restaurantBranches)
    .set({ isMain: false, modifiedAt: nowIso() })
    .where(
      and(
        live(restaurantBranches, ctx.appId),
        eq(restaurantBranches.restaurantId, restaurantId),
        ne(restaurantBranches.id, except),
      ),
    );

export async function createBranch(ctx: ServiceContext, restaurantId: number, body: CreateBranch) {
  await restaurantRows.find(ctx, restaurantId);
  const plan = new BatchPlan(ctx.db);
  const branch = plan.insert(
    "branch",
    branchRows.insert(ctx, {
      ...branchColumns(body),
      appId: ctx.appId,
      restaurantId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
      cityId: body.city_id,
      lat: body.lat,
      lng: body.lng,
    }),
  );
  if (body.is_main) plan.add(clearMain(ctx, restaurantId, branch.id));
  plan.event(literalEvent(ctx.appId, "restaurant.updated", { id: restaurantId }));
  return branchView((await plan.run(ctx.events)).row<BranchRow>(branch));
}

/** Create Branch with the restaurant named in the body: one of the store's, or a 400 on `restaurant_id`. */
export async function createStoreBranch(ctx: ServiceContext, body: CreateBranch & { restaurant_id: number }) {
  const { restaurant_id, ...branch } = body;
  await ownRestaurant(ctx, restaurant_id);
  return createBranch(ctx, restaurant_id, branch);
}

export async function updateBranch(ctx: ServiceContext, id: number, body: BranchFields) {
  const branch = await branchRows.find(ctx, id);
  const [updated] = await write(ctx, changed(ctx, "restaurant.updated", branch.restaurantId), [
    branchRows.update(ctx, id, { ...branchColumns(body), modifiedAt: nowIso() }).returning(),
    // It clears the other branches only: the row returned above stays as it is.
    ...(body.is_main ? [clearMain(ctx, branch.restaurantId, id)] : []),
  ]);
  return branchView(await updatedRow(ctx, branchRows, id, updated));
}

export async function deleteBranch(ctx: ServiceContext, id: number): Promise<void> {
  const branch = await branchRows.find(ctx, id);
  await write(ctx, changed(ctx, "restaurant.updated", branch.restaurantId), [branchRows.softDelete(ctx, id)]);
}
