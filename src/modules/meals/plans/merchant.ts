import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { MERCHANT_BASE as BASE, writeOperations } from "../operations";
import {
  CreatePlanSchema,
  CreatePlanTagSchema,
  PlanSummarySchema,
  PlanTagSchema,
  UpdatePlanSchema,
  UpdatePlanTagSchema,
} from "./schemas";
import { createPlan, deletePlan, updatePlan } from "./service";
import { createPlanTag, deletePlanTag, updatePlanTag } from "./tags";

/** The merchant writes of plans and plan tags (their versions and menu cycle have their own folders). */

const tag = "Meals admin: plans";
export const plansMerchantRouter = createRouter();

const plan = writeOperations("Plan", {
  refs:
    "`restaurant_id` must be a restaurant of the store, `menu_id` one of its menus, `tag_ids` " +
    "plan tags of the store. Lowering `repetition` below a day's place in the cycle is a 409.",
  deleteNote: "Never refused; its versions, days, categories and options go with it.",
});
crudRoutes(plansMerchantRouter, {
  names: plan.names,
  tag,
  collection: `${BASE}plans/`,
  member: `${BASE}plans/{plan_id}/`,
  param: "plan_id",
  notFound: "plan_not_found",
  view: PlanSummarySchema,
  create: { ...plan.create, body: CreatePlanSchema, run: createPlan },
  update: { ...plan.update, errors: { 409: ["plan_days_beyond_repetition"] }, body: UpdatePlanSchema, run: updatePlan },
  remove: { ...plan.remove, run: deletePlan },
});

const planTag = writeOperations("Plan Tag", {
  deleteNote: "409 `plan_tag_in_use` while live plans carry it, naming them.",
});
crudRoutes(plansMerchantRouter, {
  names: planTag.names,
  tag,
  collection: `${BASE}plan-tags/`,
  member: `${BASE}plan-tags/{tag_id}/`,
  param: "tag_id",
  notFound: "plan_tag_not_found",
  view: PlanTagSchema,
  create: { ...planTag.create, body: CreatePlanTagSchema, run: createPlanTag },
  update: { ...planTag.update, body: UpdatePlanTagSchema, run: updatePlanTag },
  remove: { ...planTag.remove, errors: { 409: ["plan_tag_in_use"] }, run: deletePlanTag },
});
