import { crudRoutes } from "../../../../core/crud/routes";
import { createRouter } from "../../../../core/openapi";
import { MERCHANT_BASE as BASE, writeOperations } from "../../operations";
import { CreatePlanVersionSchema, PlanVersionRecordSchema, UpdatePlanVersionSchema } from "./schemas";
import { createPlanVersion, deletePlanVersion, updatePlanVersion } from "./service";

/** The merchant writes of plan versions. */

export const planVersionsMerchantRouter = createRouter();

const version = writeOperations("Plan Version", { deleteNote: "Never refused." });
crudRoutes(planVersionsMerchantRouter, {
  names: version.names,
  tag: "Meals admin: plans",
  collection: `${BASE}plans/{plan_id}/versions/`,
  parent: { param: "plan_id", notFound: "plan_not_found" },
  member: `${BASE}plan-versions/{version_id}/`,
  param: "version_id",
  notFound: "plan_version_not_found",
  view: PlanVersionRecordSchema,
  create: {
    ...version.create,
    body: CreatePlanVersionSchema,
    run: (ctx, body, planId) => createPlanVersion(ctx, planId!, body),
  },
  update: { ...version.update, body: UpdatePlanVersionSchema, run: updatePlanVersion },
  remove: { ...version.remove, run: deletePlanVersion },
});
