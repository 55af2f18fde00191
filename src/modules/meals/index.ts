/** What other modules and the app may use of the meals module. */

export {
  branchFromJson,
  branchKitchenSql,
  type KitchenNames,
  kitchenNamesFromJson,
  kitchenNamesJson,
} from "./commerce/kitchen";
export {
  type BranchRow,
  type MealProductRow,
  mealProductsByIds,
  orderNames,
  type PlanForOrder,
  planVersionForOrder,
  type RestaurantRow,
  restaurantById,
} from "./commerce/ordering";
export { addDays, type Closures, isOpen, nextOpenDate, openDates, todayIn, weekdayOf } from "./dates";
export { mealErrorCodes } from "./errors";
export { mealEvents } from "./events";
export {
  type DayCategory,
  dayCategoriesOf,
  deliversTo,
  type RestaurantLogistics,
  restaurantLogisticsOf,
  type SubscriptionTerms,
  subscriptionTermsFromJson,
  subscriptionTermsJson,
  subscriptionTermsOf,
  windowsAndBranchesByIds,
  windowsAndBranchesFromJson,
  windowsAndBranchesJson,
} from "./management";
export { priceAfterDiscountMinor } from "./menus-app/service";
export {
  listOfferedPlans,
  OFFERED_PLAN_LIST,
  type OfferedPlanRef,
  type OfferedPlansBeside,
  offeredPlansByIds,
  offeredPlansFromJson,
  offeredPlansJson,
} from "./plans/marketplace";
export { type PlanSummary, PlanSummarySchema } from "./plans/schemas";
export { deliveryClosures, earliestStartDate, type StartTerms } from "./plans/start";
export { findStorePlan } from "./plans-v3/service";
export {
  type DeliveryWindowDetail,
  type DeliveryZoneView,
  deliveryCityIds,
  findDeliveryWindow,
  restaurantTimeZoneSql,
  SUPPORTED_WINDOW_LIST,
  storeZones,
  WINDOW_TYPES,
  type WindowType,
  windowsAtPoint,
  type ZoneAtPoint,
  zonesAround,
} from "./restaurants/areas";
export {
  createStoreBranch,
  deleteBranch,
  findBranch,
  getBranch,
  listStoreBranches,
  STORE_BRANCH_LIST,
  updateBranch,
} from "./restaurants/branches";
export { BranchSchema } from "./restaurants/schemas";
