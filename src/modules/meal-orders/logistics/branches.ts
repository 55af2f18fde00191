import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { refuseWhileUsed } from "../../../core/crud/tenant-table";
import { checkPlace } from "../../customers";
import { createStoreBranch, deleteBranch, getBranch, updateBranch } from "../../meals";
import { captainRows } from "./captains";
import type { CreateLogisticsBranch, UpdateLogisticsBranch } from "./schemas";
import { captains } from "./tables";

/**
 * ML3: the kitchen and pickup branches are the meals side's restaurant branches: the same rows and
 * the same writes as /merchant/meals/ (the meals index's functions), with the location nested as
 * the branch shows it, the city checked against the geography lists, and captains kept in mind.
 */

const locationColumns = (location: UpdateLogisticsBranch["location"]) =>
  location && { lat: location.lat, lng: location.lng, address1: location.address1 };

export async function createLogisticsBranch(ctx: ServiceContext, body: CreateLogisticsBranch) {
  const { location, ...rest } = body;
  await checkPlace(ctx, { cityId: body.city_id });
  return createStoreBranch(ctx, { ...rest, lat: location.lat, lng: location.lng, address1: location.address1 });
}

export async function updateLogisticsBranch(ctx: ServiceContext, id: number, body: UpdateLogisticsBranch) {
  const { location, ...rest } = body;
  // The branch and the city read at once; the 404 still comes before the city's 400.
  const [branch, place] = await Promise.allSettled([getBranch(ctx, id), checkPlace(ctx, { cityId: body.city_id })]);
  if (branch.status === "rejected") throw branch.reason;
  if (place.status === "rejected") throw place.reason;
  return updateBranch(ctx, id, { ...rest, ...locationColumns(location) });
}

/** Refused while live captains work from the branch: they would pick up at a branch that is gone. */
export async function deleteLogisticsBranch(ctx: ServiceContext, id: number): Promise<void> {
  // The branch and its captains read at once; the 404 still comes first.
  const [branch, users] = await Promise.all([
    getBranch(ctx, id).then(
      () => null,
      (error: unknown) => error,
    ),
    ctx.db
      .select({ id: captains.id })
      .from(captains)
      .where(and(captainRows.live(ctx), eq(captains.branchId, id))),
  ]);
  if (branch) throw branch;
  const ids = users.map((c) => c.id);
  refuseWhileUsed(
    "branch_in_use",
    { captains: ids },
    `Captains ${ids.join(", ")} work from branch ${id}; move them first.`,
  );
  await deleteBranch(ctx, id);
}
