import { crudRoutes } from "../../../../core/crud/routes";
import { createRouter } from "../../../../core/openapi";
import { MERCHANT_BASE as BASE, writeOperations } from "../../operations";
import {
  CreatePlanCategorySchema,
  CreatePlanDaySchema,
  CreatePlanOptionSchema,
  PlanCategoryWrittenSchema,
  PlanDayWrittenSchema,
  PlanOptionWrittenSchema,
  UpdatePlanCategorySchema,
  UpdatePlanDaySchema,
  UpdatePlanOptionSchema,
} from "./schemas";
import {
  createPlanCategory,
  createPlanDay,
  createPlanOption,
  deletePlanCategory,
  deletePlanDay,
  deletePlanOption,
  updatePlanCategory,
  updatePlanDay,
  updatePlanOption,
} from "./service";

/** The merchant writes of a plan's menu cycle: its days, their plan categories, and their options. */

const tag = "Meals admin: plans";
export const planDaysMerchantRouter = createRouter();

const day = writeOperations("Plan Day", {
  refs:
    "A day (master) is one place of the plan's menu cycle: `repetition_counter` from 1 to the " +
    "plan's `repetition`, one day per place (409 `plan_day_taken`).",
  deleteNote: "Never refused; its categories and options go with it.",
});
crudRoutes(planDaysMerchantRouter, {
  names: day.names,
  tag,
  collection: `${BASE}plans/{plan_id}/days/`,
  parent: { param: "plan_id", notFound: "plan_not_found" },
  member: `${BASE}plan-days/{day_id}/`,
  param: "day_id",
  notFound: "plan_day_not_found",
  view: PlanDayWrittenSchema,
  create: {
    ...day.create,
    errors: { 409: ["plan_day_taken"] },
    body: CreatePlanDaySchema,
    run: (ctx, body, planId) => createPlanDay(ctx, planId!, body),
  },
  // The day's plan is looked up for its cycle.
  update: {
    ...day.update,
    errors: { 404: ["plan_not_found"], 409: ["plan_day_taken"] },
    body: UpdatePlanDaySchema,
    run: updatePlanDay,
  },
  remove: { ...day.remove, run: deletePlanDay },
});

const category = writeOperations("Plan Category", { deleteNote: "Never refused; its options go with it." });
crudRoutes(planDaysMerchantRouter, {
  names: category.names,
  tag,
  collection: `${BASE}plan-days/{day_id}/categories/`,
  parent: { param: "day_id", notFound: "plan_day_not_found" },
  member: `${BASE}plan-categories/{category_id}/`,
  param: "category_id",
  notFound: "plan_category_not_found",
  view: PlanCategoryWrittenSchema,
  create: {
    ...category.create,
    body: CreatePlanCategorySchema,
    run: (ctx, body, dayId) => createPlanCategory(ctx, dayId!, body),
  },
  update: { ...category.update, body: UpdatePlanCategorySchema, run: updatePlanCategory },
  remove: { ...category.remove, run: deletePlanCategory },
});

const option = writeOperations("Plan Option", {
  refs: "`product_id` must be a product of the plan's restaurant, offered once per category (409 `plan_option_taken`).",
  deleteNote: "Never refused.",
});
crudRoutes(planDaysMerchantRouter, {
  names: option.names,
  tag,
  collection: `${BASE}plan-categories/{category_id}/options/`,
  parent: { param: "category_id", notFound: "plan_category_not_found" },
  member: `${BASE}plan-options/{option_id}/`,
  param: "option_id",
  notFound: "plan_option_not_found",
  view: PlanOptionWrittenSchema,
  create: {
    ...option.create,
    errors: { 409: ["plan_option_taken"] },
    body: CreatePlanOptionSchema,
    run: (ctx, body, categoryId) => createPlanOption(ctx, categoryId!, body),
  },
  update: {
    ...option.update,
    errors: { 409: ["plan_option_taken"] },
    body: UpdatePlanOptionSchema,
    run: updatePlanOption,
  },
  remove: { ...option.remove, run: deletePlanOption },
});
