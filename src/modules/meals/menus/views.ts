import { toMajor } from "../../../core/money";
import type { combos, menuCategories, menus, nutritions, products } from "../tables";
import { auditView } from "../views";
import type { Combo, MenuProduct, ProductDetails } from "./schemas";

/** Stored rows of menus, products and combos → the spec's shapes. */

export type ProductRow = typeof products.$inferSelect;
type NutritionRow = typeof nutritions.$inferSelect;
type ComboRow = typeof combos.$inferSelect;

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

/** The product's unsized facts (`nutritions`), or null. */
export const mainFacts = (facts: Facts, id: number) => {
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
