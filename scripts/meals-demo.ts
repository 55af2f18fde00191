import { menusDemo } from "./meals-demo-menus";
import { plansDemo } from "./meals-demo-plans";

/**
 * Bilingual demo data of the meals side, as rows (table → snake_case columns): two restaurants
 * with branches, delivery areas and menus, products with nutrition facts, a combo, plan tags, and
 * two plans, one of them 30 days × 5 categories × 10 options. The seed inserts it for app 1;
 * tests insert it for their own tenants. Ids start at `base` so that tenants do not collide.
 */

export type Row = { table: string; row: Record<string, unknown> };

const NOW = "2026-11-01T09:00:00.000Z";

/** Where a part of the demo writes its rows: `add` a row, `id(n)` the tenant's n-th id of a table. */
export type DemoRows = { add: (table: string, row: Record<string, unknown>) => void; id: (n: number) => number };

/** Central Riyadh, as [lat, lng] corners: the delivery zone of the demo's and the bench's restaurants. */
export const CENTRAL_RIYADH_POLYGON = JSON.stringify([
  [24.6, 46.6],
  [24.6, 46.8],
  [24.8, 46.8],
  [24.8, 46.6],
]);

/** The demo rows of one tenant. */
export function mealsDemo(appId: number, base: number): Row[] {
  const rows: Row[] = [];
  let order = 0;
  const add = (table: string, row: Record<string, unknown>) =>
    rows.push({ table, row: { app_id: appId, created_at: NOW, modified_at: NOW, ordering: order++, ...row } });
  const id = (n: number) => base + n;

  add("restaurant_categories", {
    id: id(1),
    name_en: "Healthy",
    name_ar: "صحي",
    image: "/media/categories/healthy.png",
  });
  add("restaurant_categories", {
    id: id(2),
    name_en: "Saudi cuisine",
    name_ar: "مطبخ سعودي",
    image: "/media/categories/saudi.png",
  });
  for (const [n, kind, en, ar] of [
    [1, "allergy", "Nuts", "مكسرات"],
    [2, "allergy", "Gluten", "جلوتين"],
    [3, "allergy", "Dairy", "ألبان"],
    [4, "dislike", "Mushroom", "فطر"],
    [5, "dislike", "Onion", "بصل"],
  ] as const) {
    add("allergens", { id: id(n), kind, name_en: en, name_ar: ar, icon: `/media/allergens/${en.toLowerCase()}.svg` });
  }

  // Green Bowl: subscription plans and on-demand; delivers within 12 km of its Riyadh branch.
  const green = id(1);
  const kabsa = id(2);
  add("restaurants", {
    id: green,
    category_id: id(1),
    name_en: "Green Bowl",
    name_ar: "الوعاء الأخضر",
    subtitle_en: "Meal plans for every goal",
    subtitle_ar: "خطط وجبات لكل هدف",
    description_en: "Fresh, weighed meals cooked every morning.",
    description_ar: "وجبات طازجة موزونة تطبخ كل صباح.",
    logo: "/media/restaurants/green-bowl.png",
    banner: "/media/restaurants/green-bowl-banner.jpg",
    rest_type: "both",
    start_after: 1,
    store_start_after: 2,
    is_active: 1,
    primary_color: "#2E7D32",
    secondary_color: "#A5D6A7",
    closed_dates: JSON.stringify(["2026-12-31"]),
    off_days: JSON.stringify(["friday"]),
    supports_pickup: 1,
    supports_delivery: 1,
    delivery_by_platform: 0,
    menu_id: id(1),
    time_zone: "Asia/Riyadh",
  });
  // Kabsa House: on-demand only, delivers inside a zone of central Riyadh.
  add("restaurants", {
    id: kabsa,
    category_id: id(2),
    name_en: "Kabsa House",
    name_ar: "بيت الكبسة",
    subtitle_en: "Family kabsa since 1998",
    subtitle_ar: "كبسة عائلية منذ ١٩٩٨",
    logo: "/media/restaurants/kabsa-house.png",
    rest_type: "on_demand",
    start_after: 0,
    is_active: 1,
    primary_color: "#BF360C",
    secondary_color: "#FFCCBC",
    closed_dates: "[]",
    off_days: "[]",
    supports_pickup: 1,
    supports_delivery: 1,
    delivery_by_platform: 1,
    menu_id: id(2),
    time_zone: "Asia/Riyadh",
  });
  add("restaurant_branches", {
    id: id(1),
    restaurant_id: green,
    name_en: "Olaya",
    name_ar: "العليا",
    city_id: 1,
    address1: "Olaya St, Riyadh",
    lat: 24.6907,
    lng: 46.6853,
    is_main: 1,
    supports_pickup: 1,
    delivery_radius_km: 12,
  });
  add("restaurant_branches", {
    id: id(2),
    restaurant_id: green,
    name_en: "Tahlia",
    name_ar: "التحلية",
    city_id: 2,
    address1: "Tahlia St, Jeddah",
    lat: 21.5497,
    lng: 39.1502,
    is_main: 0,
    supports_pickup: 1,
    delivery_radius_km: null,
  });
  add("restaurant_branches", {
    id: id(3),
    restaurant_id: kabsa,
    name_en: "Malaz",
    name_ar: "الملز",
    city_id: 1,
    address1: "Salah Al Din St, Riyadh",
    lat: 24.6636,
    lng: 46.7353,
    is_main: 1,
    supports_pickup: 1,
    delivery_radius_km: null,
  });
  add("delivery_zones", {
    id: id(1),
    restaurant_id: kabsa,
    city_id: 1,
    name_en: "Central Riyadh",
    polygon: JSON.stringify([
      [24.6, 46.6],
      [24.6, 46.8],
      [24.78, 46.8],
      [24.78, 46.6],
    ]),
  });
  add("delivery_windows", { id: id(1), restaurant_id: green, from_time: "06:00:00", to_time: "09:00:00" });
  add("delivery_windows", { id: id(2), restaurant_id: green, from_time: "12:00:00", to_time: "15:00:00" });
  add("delivery_windows", { id: id(3), restaurant_id: kabsa, from_time: "18:00:00", to_time: "23:00:00" });
  for (const [n, en, ar] of [
    [1, "Keto", "كيتو"],
    [2, "Low carb", "قليل الكربوهيدرات"],
    [3, "Vegetarian", "نباتي"],
  ] as const) {
    add("restaurant_variants", { id: id(n), restaurant_id: green, name_en: en, name_ar: ar });
  }

  const productIds = menusDemo({ add, id }, { green, kabsa });
  plansDemo({ add, id }, green, productIds);
  return rows;
}

/** One INSERT OR IGNORE per row, with the values inlined (for `wrangler d1 execute`). */
export function insertSql({ table, row }: Row, lit: (v: unknown) => string): string {
  return `INSERT OR IGNORE INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.values(row).map(lit).join(", ")});`;
}
