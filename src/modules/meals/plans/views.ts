import { toMajor } from "../../../core/money";
import { type Facts, mainFacts, type ProductRow } from "../menus/views";
import type { RestaurantRow } from "../restaurants/views";
import type { planCategories, planDays, planOptions, plans, planTags, planVersions } from "../tables";
import { auditView } from "../views";
import type { PlanSummary } from "./schemas";

/** Stored rows of plans and their levels → the spec's shapes. */

export type PlanRow = typeof plans.$inferSelect;

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
  modified_at: t.modifiedAt,
  is_deleted: t.isDeleted,
});

const planVersionView = (v: typeof planVersions.$inferSelect) => ({
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
