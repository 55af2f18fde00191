import type {
  deliveryWindows,
  restaurantBranches,
  restaurantCategories,
  restaurants,
  restaurantVariants,
} from "../tables";
import { auditView } from "../views";
import type { ChannelProvider, Restaurant } from "./schemas";

/** Stored rows of the restaurant side → the spec's shapes. */

export type RestaurantRow = typeof restaurants.$inferSelect;
export type BranchRow = typeof restaurantBranches.$inferSelect;

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
  cutoff_hours: r.cutoffHours,
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

export const restaurantCategoryView = (c: typeof restaurantCategories.$inferSelect) => ({
  id: c.id,
  ...auditView(c),
  name_en: c.nameEn,
  name_ar: c.nameAr,
  image: c.image,
});

export const restaurantVariantView = (v: typeof restaurantVariants.$inferSelect) => ({
  id: v.id,
  ...auditView(v),
  restaurant_id: v.restaurantId,
  name_en: v.nameEn,
  name_ar: v.nameAr,
});
