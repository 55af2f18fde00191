/** The demo's plan tags and Green Bowl's two plans (Balanced 30: 30 days × 5 categories × 10 options). */
import type { DemoRows } from "./meals-demo";
import { COURSES } from "./meals-demo-menus";

/** The plans of Green Bowl, offering its dishes (`productIds`, by course). */
export function plansDemo({ add, id }: DemoRows, green: number, productIds: number[][]): void {
  for (const [n, type_en, type_ar, tag_en, tag_ar, color] of [
    [1, "Goal", "الهدف", "Weight loss", "إنقاص الوزن", "#43A047"],
    [2, "Goal", "الهدف", "Muscle gain", "بناء العضلات", "#1E88E5"],
    [3, "Diet", "النظام", "Keto", "كيتو", null],
  ] as const) {
    add("plan_tags", {
      id: id(n),
      type_en,
      type_ar,
      tag_en,
      tag_ar,
      description_en: `Plans for ${tag_en.toLowerCase()}.`,
      description_ar: `خطط ${tag_ar}.`,
      image: `/media/tags/${n}.svg`,
      color,
    });
  }

  // Balanced 30: a 30-day cycle, 5 categories a day, 10 options each.
  const plan = (n: number, o: Record<string, unknown>) =>
    add("plans", {
      id: id(n),
      restaurant_id: green,
      menu_id: id(1),
      image: `/media/plans/${n}.jpg`,
      is_active: 1,
      is_marketplace_active: 1,
      skip_option_selection: 0,
      size_unit: "g",
      ...o,
    });
  plan(1, {
    name_en: "Balanced 30",
    name_ar: "المتوازن ٣٠",
    subtitle_en: "Five meals a day for a month",
    subtitle_ar: "خمس وجبات يومياً لمدة شهر",
    description_en: "Breakfast, lunch, dinner, a snack and a salad, chosen from ten each day.",
    description_ar: "فطور وغداء وعشاء ووجبة خفيفة وسلطة، تختارها من عشرة كل يوم.",
    tag_ids: JSON.stringify([id(1), id(2)]),
    daily_num_of_items: 5,
    avg_daily_meal_calories: 1850,
    start_after: 2,
    special_product_selection_limit: 3,
    featured_title_en: "Most popular",
    featured_title_ar: "الأكثر طلباً",
    is_featured: 1,
    is_marketplace_featured: 1,
    supported_service: "delivery",
    gender: null,
    subscription_type: "monthly",
    repetition: 30,
    size_title: "Regular",
    size_protein_amount: 150,
    size_carb_amount: 200,
  });
  plan(2, {
    name_en: "Keto week",
    name_ar: "أسبوع الكيتو",
    subtitle_en: "Low carb, high fat",
    subtitle_ar: "كربوهيدرات قليلة ودهون عالية",
    tag_ids: JSON.stringify([id(3)]),
    daily_num_of_items: 3,
    avg_daily_meal_calories: 1500,
    start_after: 1,
    is_featured: 0,
    subscription_type: "weekly",
    repetition: 7,
    size_title: "Keto",
    size_protein_amount: 120,
    size_carb_amount: 30,
  });
  const version = (n: number, planN: number, o: Record<string, unknown>) =>
    add("plan_versions", {
      id: id(n),
      plan_id: id(planN),
      min_start_date: "2026-01-01",
      max_start_date: "2030-12-31",
      off_days: JSON.stringify(["friday"]),
      discount_percentage: 0,
      delivery_price_minor: 0,
      ...o,
    });
  version(1, 1, {
    num_of_days: 30,
    total_num_of_items: 150,
    original_price_minor: 249_900,
    discount_percentage: 10,
    duration: "1 month",
    pause_credits: 5,
    num_of_pause_attempts: 2,
    min_of_pause_days: 1,
  });
  version(2, 1, {
    num_of_days: 20,
    total_num_of_items: 100,
    original_price_minor: 179_900,
    duration: "20 days",
    off_days: JSON.stringify(["friday", "saturday"]),
    delivery_price_minor: 1500,
  });
  version(3, 2, { num_of_days: 7, total_num_of_items: 21, original_price_minor: 59_900, duration: "1 week" });

  let category = 0;
  let option = 0;
  const day = (n: number, planN: number, counter: number, courses: number, options: number) => {
    add("plan_days", {
      id: id(n),
      plan_id: id(planN),
      restaurant_id: green,
      day: `Day ${counter}`,
      repetition_counter: counter,
    });
    for (let c = 0; c < courses; c++) {
      const cid = id(++category);
      add("plan_categories", {
        id: cid,
        plan_id: id(planN),
        plan_day_id: id(n),
        name_en: COURSES[c]!.en,
        name_ar: COURSES[c]!.ar,
        is_multi_select: c === 3 ? 1 : 0,
        max_selected_options: c === 3 ? 2 : 1,
      });
      for (let o = 0; o < options; o++) {
        // Each day offers the course's dishes in a rotated order, the first recommended.
        add("plan_options", {
          id: id(++option),
          plan_id: id(planN),
          plan_category_id: cid,
          product_id: productIds[c]![(o + counter) % 10]!,
          is_recommended: o === 0 ? 1 : 0,
          is_active: 1,
        });
      }
    }
  };
  for (let d = 1; d <= 30; d++) day(d, 1, d, 5, 10);
  for (let d = 1; d <= 7; d++) day(30 + d, 2, d, 3, 3);
}
