import type { Context } from "hono";
import { invalidatesPublicCache } from "../../core/cache";
import { type ServiceContext, serviceContext } from "../../core/context";
import {
  createRouter,
  idParam,
  jsonBody,
  jsonContent,
  merchantRoute,
  problemResponses,
  type z,
} from "../../core/openapi";
import type { AppEnv } from "../../env";
import * as S from "./schemas";
import * as W from "./writes";

/**
 * The merchant writes of the meals side, under /merchant/meals/. Each resource has the same three
 * operations (create under its parent, update and delete by id), made by one factory; every
 * successful write makes the tenant's cached public reads a miss before it answers.
 */

const BASE = "/merchant/meals/";
const permission = "can_write_item" as const;
const beyondSpec = "The interface names the meals reads only; these writes manage the data they serve.";

type Resource = {
  /** The spec's name of the record, as in the operation names: "Restaurant", "Plan Version". */
  name: string;
  tag: string;
  /** Where records are created, with `{parent}` when they belong to one. */
  collection: string;
  parent?: string;
  /** The id parameter of one record. */
  param: string;
  member: string;
  createBody: z.ZodType;
  updateBody: z.ZodType;
  view: z.ZodType;
  create: (ctx: ServiceContext, parentId: number | undefined, body: never) => Promise<unknown>;
  update: (ctx: ServiceContext, id: number, body: never) => Promise<unknown>;
  remove: (ctx: ServiceContext, id: number) => Promise<void>;
  /** What makes a delete a 409, and what goes with the record. */
  deleteNote: string;
  /** What the body may name that must exist (a 400 on that field otherwise). */
  refs?: string;
};

const opName = (verb: string, name: string) => verb + name.replace(/ /g, "");

const router = createRouter();
router.use(`${BASE}*`, invalidatesPublicCache());

function resource(r: Resource) {
  const parentParams = r.parent ? idParam(r.parent) : undefined;
  const memberParams = idParam(r.param);
  const valid = (c: Context<AppEnv>, target: "json" | "param") =>
    (c.req.valid as (t: string) => Record<string, number> & object)(target);
  const note = `Needs \`${permission}\`. Makes the store's cached public reads fresh at once.${r.refs ? ` ${r.refs}` : ""}`;

  const create = merchantRoute({
    permission,
    beyondSpec,
    method: "post",
    path: r.collection,
    operationId: opName("create", r.name),
    summary: `Create ${r.name}`,
    tags: [r.tag],
    description: note,
    request: { ...(parentParams && { params: parentParams }), body: jsonBody(r.createBody) },
    responses: {
      201: jsonContent(r.view, `The new ${r.name.toLowerCase()}.`),
      ...problemResponses(404, 409, 413, 415),
    },
  });
  const update = merchantRoute({
    permission,
    beyondSpec,
    method: "patch",
    path: r.member,
    operationId: opName("update", r.name),
    summary: `Update ${r.name}`,
    tags: [r.tag],
    description: `Changes the fields given. ${note}`,
    request: { params: memberParams, body: jsonBody(r.updateBody) },
    responses: {
      200: jsonContent(r.view, `The ${r.name.toLowerCase()} as it is now.`),
      ...problemResponses(404, 409, 413, 415),
    },
  });
  const remove = merchantRoute({
    permission,
    beyondSpec,
    method: "delete",
    path: r.member,
    operationId: opName("delete", r.name),
    summary: `Delete ${r.name}`,
    tags: [r.tag],
    description: `Soft delete. ${r.deleteNote} Needs \`${permission}\`.`,
    request: { params: memberParams },
    responses: { 204: { description: "Deleted." }, ...problemResponses(404, 409) },
  });

  // The factory's routes differ only in their schemas, which the hook has validated: the handlers take the parsed values.
  router.openapi(create, (async (c: Context<AppEnv>) =>
    c.json(
      await r.create(serviceContext(c), r.parent ? valid(c, "param")[r.parent] : undefined, valid(c, "json") as never),
      201,
    )) as never);
  router.openapi(update, (async (c: Context<AppEnv>) =>
    c.json(await r.update(serviceContext(c), valid(c, "param")[r.param]!, valid(c, "json") as never), 200)) as never);
  router.openapi(remove, (async (c: Context<AppEnv>) => {
    await r.remove(serviceContext(c), valid(c, "param")[r.param]!);
    return c.body(null, 204);
  }) as never);
}

resource({
  name: "Restaurant",
  tag: "Meals: restaurants",
  collection: `${BASE}restaurants/`,
  param: "restaurant_id",
  member: `${BASE}restaurants/{restaurant_id}/`,
  createBody: S.CreateRestaurantSchema,
  updateBody: S.UpdateRestaurantSchema,
  view: S.RestaurantSchema,
  create: (ctx, _, body) => W.createRestaurant(ctx, body),
  update: W.updateRestaurant,
  remove: W.deleteRestaurant,
  refs: "`category_id` must be a restaurant category of the store, `menu_id` a menu of this restaurant. `delivery_windows` and `delivery_zones` replace the restaurant's.",
  deleteNote:
    "409 `restaurant_in_use` while live plans sell its meals; its branches, delivery areas, menus and products go with it.",
});

resource({
  name: "Restaurant Branch",
  tag: "Meals: restaurants",
  collection: `${BASE}restaurants/{restaurant_id}/branches/`,
  parent: "restaurant_id",
  param: "branch_id",
  member: `${BASE}branches/{branch_id}/`,
  createBody: S.CreateBranchSchema,
  updateBody: S.UpdateBranchSchema,
  view: S.BranchSchema,
  create: (ctx, restaurantId, body) => W.createBranch(ctx, restaurantId!, body),
  update: W.updateBranch,
  remove: W.deleteBranch,
  refs: "Making a branch main (`is_main`) clears the restaurant's other main branch.",
  deleteNote: "Never refused.",
});

resource({
  name: "Menu",
  tag: "Meals: menus",
  collection: `${BASE}menus/`,
  param: "menu_id",
  member: `${BASE}menus/{menu_id}/`,
  createBody: S.CreateMenuSchema,
  updateBody: S.UpdateMenuSchema,
  view: S.MenuRecordSchema,
  create: (ctx, _, body) => W.createMenu(ctx, body),
  update: W.updateMenu,
  remove: W.deleteMenu,
  refs: "`restaurant_id` must be a restaurant of the store.",
  deleteNote:
    "409 `menu_in_use` while a restaurant serves it on demand or a plan uses it; its categories and combos go with it, and its products stay, out of any category.",
});

resource({
  name: "Menu Category",
  tag: "Meals: menus",
  collection: `${BASE}menus/{menu_id}/categories/`,
  parent: "menu_id",
  param: "category_id",
  member: `${BASE}menu-categories/{category_id}/`,
  createBody: S.CreateMenuCategorySchema,
  updateBody: S.UpdateMenuCategorySchema,
  view: S.MenuCategoryRecordSchema,
  create: (ctx, menuId, body) => W.createMenuCategory(ctx, menuId!, body),
  update: W.updateMenuCategory,
  remove: W.deleteMenuCategory,
  deleteNote: "409 `menu_category_in_use` while live products or combos are in it, naming them.",
});

resource({
  name: "Meal Product",
  tag: "Meals: menus",
  collection: `${BASE}products/`,
  param: "product_id",
  member: `${BASE}products/{product_id}/`,
  createBody: S.CreateProductSchema,
  updateBody: S.UpdateProductSchema,
  view: S.ProductDetailsSchema,
  create: (ctx, _, body) => W.createProduct(ctx, body),
  update: W.updateProduct,
  remove: W.deleteProduct,
  refs: "`restaurant_id` must be a restaurant of the store, `category_id` a category of one of its menus. `nutritions` and `nutrition_options` replace the product's.",
  deleteNote: "409 `product_in_use` while plan options offer it or combos contain it, naming the plans and combos.",
});

resource({
  name: "Plan",
  tag: "Meals: plans",
  collection: `${BASE}plans/`,
  param: "plan_id",
  member: `${BASE}plans/{plan_id}/`,
  createBody: S.CreatePlanSchema,
  updateBody: S.UpdatePlanSchema,
  view: S.PlanSummarySchema,
  create: (ctx, _, body) => W.createPlan(ctx, body),
  update: W.updatePlan,
  remove: W.deletePlan,
  refs: "`restaurant_id` must be a restaurant of the store, `menu_id` one of its menus, `tag_ids` plan tags of the store. Lowering `repetition` below a day's place in the cycle is a 409.",
  deleteNote: "Never refused; its versions, days, categories and options go with it.",
});

resource({
  name: "Plan Version",
  tag: "Meals: plans",
  collection: `${BASE}plans/{plan_id}/versions/`,
  parent: "plan_id",
  param: "version_id",
  member: `${BASE}plan-versions/{version_id}/`,
  createBody: S.CreatePlanVersionSchema,
  updateBody: S.UpdatePlanVersionSchema,
  view: S.PlanVersionRecordSchema,
  create: (ctx, planId, body) => W.createPlanVersion(ctx, planId!, body),
  update: W.updatePlanVersion,
  remove: W.deletePlanVersion,
  deleteNote: "Never refused.",
});

resource({
  name: "Plan Day",
  tag: "Meals: plans",
  collection: `${BASE}plans/{plan_id}/days/`,
  parent: "plan_id",
  param: "day_id",
  member: `${BASE}plan-days/{day_id}/`,
  createBody: S.CreatePlanDaySchema,
  updateBody: S.UpdatePlanDaySchema,
  view: S.PlanDayWrittenSchema,
  create: (ctx, planId, body) => W.createPlanDay(ctx, planId!, body),
  update: W.updatePlanDay,
  remove: W.deletePlanDay,
  refs: "A day (master) is one place of the plan's menu cycle: `repetition_counter` from 1 to the plan's `repetition`, one day per place (409 `plan_day_taken`).",
  deleteNote: "Never refused; its categories and options go with it.",
});

resource({
  name: "Plan Category",
  tag: "Meals: plans",
  collection: `${BASE}plan-days/{day_id}/categories/`,
  parent: "day_id",
  param: "category_id",
  member: `${BASE}plan-categories/{category_id}/`,
  createBody: S.CreatePlanCategorySchema,
  updateBody: S.UpdatePlanCategorySchema,
  view: S.PlanCategoryWrittenSchema,
  create: (ctx, dayId, body) => W.createPlanCategory(ctx, dayId!, body),
  update: W.updatePlanCategory,
  remove: W.deletePlanCategory,
  deleteNote: "Never refused; its options go with it.",
});

resource({
  name: "Plan Option",
  tag: "Meals: plans",
  collection: `${BASE}plan-categories/{category_id}/options/`,
  parent: "category_id",
  param: "option_id",
  member: `${BASE}plan-options/{option_id}/`,
  createBody: S.CreatePlanOptionSchema,
  updateBody: S.UpdatePlanOptionSchema,
  view: S.PlanOptionWrittenSchema,
  create: (ctx, categoryId, body) => W.createPlanOption(ctx, categoryId!, body),
  update: W.updatePlanOption,
  remove: W.deletePlanOption,
  refs: "`product_id` must be a product of the plan's restaurant, offered once per category (409 `plan_option_taken`).",
  deleteNote: "Never refused.",
});

resource({
  name: "Combo",
  tag: "Meals: menus",
  collection: `${BASE}menu-categories/{category_id}/combos/`,
  parent: "category_id",
  param: "combo_id",
  member: `${BASE}combos/{combo_id}/`,
  createBody: S.CreateComboSchema,
  updateBody: S.UpdateComboSchema,
  view: S.ComboSchema,
  create: (ctx, categoryId, body) => W.createCombo(ctx, categoryId!, body),
  update: W.updateCombo,
  remove: W.deleteCombo,
  refs: "`product_ids` must be products of the category's restaurant. Restaurant Menu offers a combo on a date only when all its products are served that day.",
  deleteNote: "Never refused.",
});

resource({
  name: "Restaurant Category",
  tag: "Meals: restaurants",
  collection: `${BASE}restaurant-categories/`,
  param: "category_id",
  member: `${BASE}restaurant-categories/{category_id}/`,
  createBody: S.CreateRestaurantCategorySchema,
  updateBody: S.UpdateRestaurantCategorySchema,
  view: S.RestaurantCategorySchema,
  create: (ctx, _, body) => W.createRestaurantCategory(ctx, body),
  update: W.updateRestaurantCategory,
  remove: W.deleteRestaurantCategory,
  deleteNote: "409 `restaurant_category_in_use` while live restaurants are filed under it, naming them.",
});

resource({
  name: "Restaurant Variant",
  tag: "Meals: restaurants",
  collection: `${BASE}restaurants/{restaurant_id}/variants/`,
  parent: "restaurant_id",
  param: "variant_id",
  member: `${BASE}restaurant-variants/{variant_id}/`,
  createBody: S.CreateRestaurantVariantSchema,
  updateBody: S.UpdateRestaurantVariantSchema,
  view: S.RestaurantVariantSchema,
  create: (ctx, restaurantId, body) => W.createRestaurantVariant(ctx, restaurantId!, body),
  update: W.updateRestaurantVariant,
  remove: W.deleteRestaurantVariant,
  refs: "Products name the variants they belong to by `name_en`, in `variant`.",
  deleteNote: "Never refused: products keep the names they have.",
});

resource({
  name: "Allergen Dislike",
  tag: "Meals: menus",
  collection: `${BASE}allergens-dislikes/`,
  param: "allergen_id",
  member: `${BASE}allergens-dislikes/{allergen_id}/`,
  createBody: S.CreateAllergenSchema,
  updateBody: S.UpdateAllergenSchema,
  view: S.AllergenSchema,
  create: (ctx, _, body) => W.createAllergen(ctx, body),
  update: W.updateAllergen,
  remove: W.deleteAllergen,
  refs: "Products name allergens and dislikes by `name_en`, in `allergies` and `allergens_dislikes`.",
  deleteNote: "Never refused: products keep the names they have.",
});

resource({
  name: "Plan Tag",
  tag: "Meals: plans",
  collection: `${BASE}plan-tags/`,
  param: "tag_id",
  member: `${BASE}plan-tags/{tag_id}/`,
  createBody: S.CreatePlanTagSchema,
  updateBody: S.UpdatePlanTagSchema,
  view: S.PlanTagSchema,
  create: (ctx, _, body) => W.createPlanTag(ctx, body),
  update: W.updatePlanTag,
  remove: W.deletePlanTag,
  deleteNote: "409 `plan_tag_in_use` while live plans carry it, naming them.",
});

export const mealsMerchantRouter = router;
