import { toMajor } from "../../core/money";
import type { ChannelProvider, Combo, MenuProduct, PlanSummary, ProductDetails, Restaurant } from "./schemas";
import type {
  allergens,
  combos,
  deliveryWindows,
  menuCategories,
  menus,
  nutritions,
  planCategories,
  planDays,
  planOptions,
  plans,
  planTags,
  planVersions,
  products,
  restaurantBranches,
  restaurantCategories,
  restaurants,
  restaurantVariants,
} from "./tables";

/** Stored rows → the spec's shapes. Pure: the services load, these only map. */

export type RestaurantRow = typeof restaurants.$inferSelect;
export type BranchRow = typeof restaurantBranches.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type NutritionRow = typeof nutritions.$inferSelect;
export type ComboRow = typeof combos.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;

type Audited = {
  appId: number;
  createdAt: string;
  modifiedAt: string;
  deletedAt: string | null;
  isDeleted: boolean;
  ordering: number;
};

export const auditView = (r: Audited) => ({
  app_id: r.appId,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
  deleted_at: r.deletedAt,
  is_deleted: r.isDeleted,
  ordering: r.ordering,
});

export const locationView = (b: BranchRow) => ({ address1: b.address1, lat: String(b.lat), lng: String(b.lng) });

export const restaurantView = (r: RestaurantRow, mainBranch: BranchRow | undefined): Restaurant => ({
  id: r.id,
  custom_fields: r.customFields ?? null,
  ...auditView(r),
  name_en: r.nameEn,
  name_ar: r.nameAr,
  subtitle_en: r.subtitleEn,
  subtitle_ar: r.subtitleAr,
  description_en: r.descriptionEn,
  description_ar: r.descriptionAr,
  logo: r.logo,
  rest_type: r.restType,
  start_after: r.startAfter,
  store_start_after: r.storeStartAfter,
  is_active: r.isActive,
  primary_color: r.primaryColor,
  secondary_color: r.secondaryColor,
  banner: r.banner,
  closed_dates: r.closedDates.join(","),
  supports_pickup: r.supportsPickup,
  supports_delivery: r.supportsDelivery,
  delivery_by_platform: r.deliveryByPlatform,
  off_days: r.offDays.join(","),
  menu: r.menuId,
  main_branch_location: mainBranch ? locationView(mainBranch) : null,
  category_id: r.categoryId,
  time_zone: r.timeZone,
});

export const branchView = (b: BranchRow) => ({
  id: b.id,
  ...auditView(b),
  restaurant_id: b.restaurantId,
  name_en: b.nameEn,
  name_ar: b.nameAr,
  city_id: b.cityId,
  location: locationView(b),
  is_main: b.isMain,
  supports_pickup: b.supportsPickup,
  delivery_radius_km: b.deliveryRadiusKm,
});

export const windowView = (w: Pick<typeof deliveryWindows.$inferSelect, "id" | "fromTime" | "toTime">) => ({
  id: w.id,
  from_time: w.fromTime,
  to_time: w.toTime,
});

/** The provider fields that do not depend on the user; `is_available_for_user` is computed per request. */
export const providerBase = (
  r: RestaurantRow,
): Omit<ChannelProvider, "is_available_for_user" | "delivery_windows" | "pickup_branches" | "debug"> => ({
  id: r.id,
  name_en: r.nameEn,
  name_ar: r.nameAr,
  subtitle_en: r.subtitleEn ?? "",
  subtitle_ar: r.subtitleAr ?? "",
  logo: r.logo,
  banner: r.banner ?? "",
  start_after: r.startAfter,
  store_start_after: r.storeStartAfter ?? r.startAfter,
  primary_color: r.primaryColor ?? "",
  secondary_color: r.secondaryColor ?? "",
  closed_dates: r.closedDates,
  supports_pickup: r.supportsPickup,
  supports_delivery: r.supportsDelivery,
  off_days: r.offDays,
});

export const nutritionView = (n: NutritionRow) => ({
  id: n.id,
  custom_fields: n.customFields ?? null,
  ...auditView(n),
  calories: n.calories,
  carbs: n.carbs,
  protein: n.protein,
  fat: n.fat,
  product: n.productId,
  size: n.size,
});

/** A product's facts, split as the spec shows them: the unsized row, and the sized ones. */
export type Facts = Map<number, NutritionRow[]>;
export function factsByProduct(rows: NutritionRow[]): Facts {
  const m: Facts = new Map();
  for (const n of rows) (m.get(n.productId) ?? m.set(n.productId, []).get(n.productId)!).push(n);
  return m;
}
const mainFacts = (facts: Facts, id: number) => {
  const n = facts.get(id)?.find((f) => f.size === null);
  return n ? nutritionView(n) : null;
};

export const menuProductView = (p: ProductRow, facts: Facts): MenuProduct => ({
  id: p.id,
  created_at: p.createdAt,
  modified_at: p.modifiedAt,
  deleted_at: p.deletedAt,
  is_deleted: p.isDeleted,
  name_ar: p.nameAr,
  name_en: p.nameEn,
  original_price: toMajor(p.priceMinor),
  discount_percentage: p.discountPercentage,
  image: p.image,
  nutritions: mainFacts(facts, p.id),
  nutrition_options: (facts.get(p.id) ?? []).filter((f) => f.size !== null).map(nutritionView),
  restaurant_id: p.restaurantId,
  is_sub: p.isSub,
  description_ar: p.descriptionAr,
  description_en: p.descriptionEn,
  is_active: p.isActive,
  in_stock: p.inStock,
  category_id: p.categoryId,
  allergies: p.allergies,
  variant: p.variant,
  allergens_dislikes: p.allergensDislikes,
});

export const productDetailsView = (p: ProductRow, facts: Facts): ProductDetails => ({
  ...menuProductView(p, facts),
  app_id: p.appId,
  ordering: p.ordering,
  original_image: p.originalImage,
  is_special: p.isSpecial,
  tags: p.tags,
  off_days: p.offDays,
  wallet_credit: p.walletCreditMinor === null ? null : toMajor(p.walletCreditMinor),
});

export const planProductView = (p: ProductRow, facts: Facts) => ({
  ...auditView(p),
  id: p.id,
  name_ar: p.nameAr,
  name_en: p.nameEn,
  original_price: toMajor(p.priceMinor),
  discount_percentage: p.discountPercentage,
  original_image: p.originalImage,
  image: p.image,
  nutritions: mainFacts(facts, p.id),
  restaurant_id: p.restaurantId,
  is_sub: p.isSub,
  description_ar: p.descriptionAr,
  description_en: p.descriptionEn,
  category_id: p.categoryId,
  is_active: p.isActive,
  is_special: p.isSpecial,
  in_stock: p.inStock,
  allergies: p.allergies,
  tags: p.tags,
  allergens_dislikes: p.allergensDislikes,
  variant: p.variant,
});

export const comboView = (c: ComboRow, productsById: Map<number, ProductRow>, facts: Facts): Combo => ({
  id: c.id,
  custom_fields: c.customFields ?? null,
  ...auditView(c),
  name_en: c.nameEn,
  name_ar: c.nameAr,
  description_en: c.descriptionEn,
  description_ar: c.descriptionAr,
  image: c.image,
  original_price: toMajor(c.priceMinor),
  discount_percentage: c.discountPercentage,
  is_active: c.isActive,
  restaurant_id: c.restaurantId,
  category_id: c.categoryId,
  products: c.productIds.flatMap((id) => {
    const p = productsById.get(id);
    return p ? [menuProductView(p, facts)] : [];
  }),
});

export const menuRecordView = (m: typeof menus.$inferSelect) => ({
  id: m.id,
  custom_fields: m.customFields ?? null,
  ...auditView(m),
  name_ar: m.nameAr,
  name_en: m.nameEn,
  image: m.image,
  restaurant_id: m.restaurantId,
});

export const menuCategoryRecordView = (c: typeof menuCategories.$inferSelect) => ({
  id: c.id,
  custom_fields: c.customFields ?? null,
  ...auditView(c),
  name_ar: c.nameAr,
  name_en: c.nameEn,
  image: c.image,
  is_sub: c.isSub,
  is_active: c.isActive,
  menu: c.menuId,
});

export const restaurantCategoryView = (c: typeof restaurantCategories.$inferSelect) => ({
  id: c.id,
  ...auditView(c),
  name_en: c.nameEn,
  name_ar: c.nameAr,
  image: c.image,
});
export const allergenView = (a: typeof allergens.$inferSelect) => ({
  id: a.id,
  ...auditView(a),
  kind: a.kind,
  name_en: a.nameEn,
  name_ar: a.nameAr,
  icon: a.icon,
});
export const restaurantVariantView = (v: typeof restaurantVariants.$inferSelect) => ({
  id: v.id,
  ...auditView(v),
  restaurant_id: v.restaurantId,
  name_en: v.nameEn,
  name_ar: v.nameAr,
});

export const planTagView = (t: typeof planTags.$inferSelect) => ({
  id: t.id,
  ordering: t.ordering,
  type_en: t.typeEn,
  type_ar: t.typeAr,
  tag_en: t.tagEn,
  tag_ar: t.tagAr,
  description_en: t.descriptionEn,
  description_ar: t.descriptionAr,
  image: t.image,
  color: t.color,
});

export const planVersionView = (v: typeof planVersions.$inferSelect) => ({
  id: v.id,
  custom_fields: v.customFields ?? null,
  min_start_date: v.minStartDate,
  max_start_date: v.maxStartDate,
  off_days: v.offDays,
  ordering: v.ordering,
  num_of_days: v.numOfDays,
  total_num_of_items: v.totalNumOfItems,
  delivery_price: toMajor(v.deliveryPriceMinor),
  original_price: toMajor(v.originalPriceMinor),
  discount_percentage: v.discountPercentage,
  duration: v.duration,
  pause_credits: v.pauseCredits,
  num_of_pause_attempts: v.numOfPauseAttempts,
  min_of_pause_days: v.minOfPauseDays,
});

export const planVersionRecordView = (v: typeof planVersions.$inferSelect) => ({
  ...planVersionView(v),
  ...auditView(v),
  plan: v.planId,
});

export const planDayView = (d: typeof planDays.$inferSelect) => ({
  ...auditView(d),
  id: d.id,
  day: d.day,
  repetition_counter: d.repetitionCounter,
  master_id: d.masterId,
  plan: d.planId,
  restaurant: d.restaurantId,
});

export const planCategoryRecordView = (c: typeof planCategories.$inferSelect) => ({
  ...auditView(c),
  id: c.id,
  name_en: c.nameEn,
  name_ar: c.nameAr,
  is_multi_select: c.isMultiSelect,
  max_selected_options: c.maxSelectedOptions,
  category_master_id: c.categoryMasterId,
  plan_date: c.planDayId,
});

export const planOptionRecordView = (o: typeof planOptions.$inferSelect) => ({
  ...auditView(o),
  id: o.id,
  is_recommended: o.isRecommended,
  is_active: o.isActive,
  plan_category: o.planCategoryId,
  product: o.productId,
});

type PlanParts = {
  tags: (typeof planTags.$inferSelect)[];
  versions: (typeof planVersions.$inferSelect)[];
  restaurant: RestaurantRow;
};

export const planSummaryView = (p: PlanRow, parts: PlanParts): PlanSummary => ({
  id: p.id,
  name_en: p.nameEn,
  name_ar: p.nameAr,
  subtitle_en: p.subtitleEn,
  subtitle_ar: p.subtitleAr,
  description_en: p.descriptionEn,
  description_ar: p.descriptionAr,
  // In the order the plan lists them.
  plan_tags: p.tagIds.flatMap((id) => parts.tags.filter((t) => t.id === id).map(planTagView)),
  image: p.image,
  image_ar: p.imageAr,
  daily_num_of_items: p.dailyNumOfItems,
  avg_daily_meal_calories: p.avgDailyMealCalories,
  start_after: p.startAfter,
  special_product_selection_limit: p.specialProductSelectionLimit,
  featured_title_en: p.featuredTitleEn,
  featured_title_ar: p.featuredTitleAr,
  is_featured: p.isFeatured,
  is_marketplace_featured: p.isMarketplaceFeatured,
  is_marketplace_active: p.isMarketplaceActive,
  supported_service: p.supportedService,
  gender: p.gender,
  subscription_type: p.subscriptionType,
  menu_id: p.menuId,
  repetition: p.repetition,
  skip_option_selection: p.skipOptionSelection,
  size: {
    id: p.id,
    title: p.sizeTitle,
    protein_amount: p.sizeProteinAmount,
    carb_amount: p.sizeCarbAmount,
    unit: p.sizeUnit,
  },
  versions: parts.versions.map(planVersionView),
  restaurant: {
    id: parts.restaurant.id,
    name_en: parts.restaurant.nameEn,
    name_ar: parts.restaurant.nameAr,
    logo: parts.restaurant.logo,
  },
});
