/**
 * Bilingual demo data of the meals side, as rows (table → snake_case columns): two restaurants
 * with branches, delivery areas and menus, products with nutrition facts, a combo, plan tags, and
 * two plans, one of them 30 days × 5 categories × 10 options. The seed inserts it for app 1;
 * tests insert it for their own tenants. Ids start at `base` so that tenants do not collide.
 */

export type Row = { table: string; row: Record<string, unknown> };

const NOW = "2026-11-01T09:00:00.000Z";

const COURSES = [
  {
    en: "Breakfast",
    ar: "الفطور",
    dishes: [
      ["Oat bowl", "وعاء الشوفان"],
      ["Shakshuka", "شكشوكة"],
      ["Labneh toast", "توست باللبنة"],
      ["Egg muffins", "مافن البيض"],
      ["Foul medames", "فول مدمس"],
      ["Greek yogurt", "زبادي يوناني"],
      ["Chia pudding", "بودينغ الشيا"],
      ["Halloumi wrap", "راب الحلوم"],
      ["Zaatar manakish", "مناقيش الزعتر"],
      ["Berry pancakes", "فطائر التوت"],
    ],
  },
  {
    en: "Lunch",
    ar: "الغداء",
    dishes: [
      ["Chicken kabsa", "كبسة دجاج"],
      ["Beef kofta", "كفتة لحم"],
      ["Salmon rice", "أرز بالسلمون"],
      ["Chicken shawarma bowl", "وعاء شاورما دجاج"],
      ["Lentil stew", "يخنة العدس"],
      ["Turkey pasta", "باستا الديك الرومي"],
      ["Grilled hammour", "هامور مشوي"],
      ["Mandi lamb", "مندي لحم"],
      ["Stuffed zucchini", "كوسا محشي"],
      ["Quinoa falafel", "فلافل الكينوا"],
    ],
  },
  {
    en: "Dinner",
    ar: "العشاء",
    dishes: [
      ["Grilled chicken", "دجاج مشوي"],
      ["Shrimp stir fry", "روبيان مقلي"],
      ["Beef steak", "ستيك لحم"],
      ["Vegetable curry", "كاري الخضار"],
      ["Chicken fajita", "فاهيتا دجاج"],
      ["Tuna steak", "ستيك تونة"],
      ["Lamb tagine", "طاجن لحم"],
      ["Mushroom risotto", "ريزوتو الفطر"],
      ["Chicken tikka", "دجاج تكا"],
      ["Moussaka", "مسقعة"],
    ],
  },
  {
    en: "Snacks",
    ar: "الوجبات الخفيفة",
    dishes: [
      ["Protein bar", "لوح بروتين"],
      ["Hummus cup", "كوب حمص"],
      ["Date bites", "لقيمات التمر"],
      ["Mixed nuts", "مكسرات مشكلة"],
      ["Fruit cup", "كوب فواكه"],
      ["Veggie sticks", "أصابع خضار"],
      ["Rice cakes", "كعك الأرز"],
      ["Energy balls", "كرات الطاقة"],
      ["Cheese cubes", "مكعبات الجبن"],
      ["Dark chocolate", "شوكولاتة داكنة"],
    ],
  },
  {
    en: "Salads",
    ar: "السلطات",
    dishes: [
      ["Fattoush", "فتوش"],
      ["Tabbouleh", "تبولة"],
      ["Caesar salad", "سلطة سيزر"],
      ["Greek salad", "سلطة يونانية"],
      ["Quinoa salad", "سلطة الكينوا"],
      ["Beetroot salad", "سلطة الشمندر"],
      ["Rocca salad", "سلطة الجرجير"],
      ["Lentil salad", "سلطة العدس"],
      ["Tuna salad", "سلطة التونة"],
      ["Avocado salad", "سلطة الأفوكادو"],
    ],
  },
] as const;

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

  add("menus", {
    id: id(1),
    restaurant_id: green,
    name_en: "Green Bowl menu",
    name_ar: "قائمة الوعاء الأخضر",
    image: "/media/menus/green-bowl.jpg",
  });
  add("menus", {
    id: id(2),
    restaurant_id: kabsa,
    name_en: "Kabsa House menu",
    name_ar: "قائمة بيت الكبسة",
    image: "/media/menus/kabsa-house.jpg",
  });

  // Green Bowl: 5 courses × 10 dishes, each with its facts; every third dish also in a large size.
  const productIds: number[][] = [];
  COURSES.forEach((course, c) => {
    const categoryId = id(c + 1);
    add("menu_categories", {
      id: categoryId,
      menu_id: id(1),
      name_en: course.en,
      name_ar: course.ar,
      image: `/media/menus/${course.en.toLowerCase()}.jpg`,
      is_sub: 0,
      is_active: 1,
    });
    productIds.push(
      course.dishes.map(([en, ar], d) => {
        const pid = id(c * 10 + d + 1);
        const calories = 180 + (((c * 10 + d) * 37) % 420);
        add("meal_products", {
          id: pid,
          restaurant_id: green,
          category_id: categoryId,
          name_en: en,
          name_ar: ar,
          description_en: `${en}, cooked fresh.`,
          description_ar: `${ar}، مطبوخ طازجاً.`,
          price_minor: 1800 + d * 250,
          discount_percentage: d % 4 === 0 ? 10 : 0,
          image: `/media/products/${pid}.jpg`,
          original_image: `/media/products/${pid}-original.jpg`,
          is_sub: 1,
          is_active: 1,
          is_special: d === 9 ? 1 : 0,
          in_stock: 1,
          allergies: JSON.stringify(d % 3 === 0 ? ["Gluten"] : d % 5 === 0 ? ["Nuts"] : []),
          tags: JSON.stringify(calories < 300 ? ["light"] : []),
          allergens_dislikes: JSON.stringify(d % 4 === 1 ? ["Onion"] : []),
          variant: JSON.stringify(d % 2 === 0 ? ["Low carb"] : ["Keto"]),
          // Breakfast is not served on Saturdays: Restaurant Menu leaves it out that day.
          off_days: JSON.stringify(c === 0 && d < 2 ? ["saturday"] : []),
        });
        add("nutritions", {
          id: id(c * 20 + d * 2 + 1),
          product_id: pid,
          calories,
          carbs: 20 + d * 3,
          protein: 15 + c * 4,
          fat: 8 + d,
        });
        if (d % 3 === 0)
          add("nutritions", {
            id: id(c * 20 + d * 2 + 2),
            product_id: pid,
            calories: calories * 1.5,
            carbs: (20 + d * 3) * 1.5,
            protein: (15 + c * 4) * 1.5,
            fat: (8 + d) * 1.5,
            size: "large",
          });
        return pid;
      }),
    );
  });
  add("meal_products", {
    id: id(61),
    restaurant_id: green,
    category_id: null,
    name_en: "Wallet credit 100 SAR",
    name_ar: "رصيد محفظة ١٠٠ ريال",
    price_minor: 9000,
    wallet_credit_minor: 10000,
    is_active: 1,
    in_stock: 1,
    allergies: "[]",
    tags: "[]",
    allergens_dislikes: "[]",
    variant: "[]",
    off_days: "[]",
  });

  // Kabsa House: mains and drinks, and a family combo.
  add("menu_categories", {
    id: id(6),
    menu_id: id(2),
    name_en: "Mains",
    name_ar: "الأطباق الرئيسية",
    is_sub: 0,
    is_active: 1,
  });
  add("menu_categories", {
    id: id(7),
    menu_id: id(2),
    name_en: "Drinks",
    name_ar: "المشروبات",
    is_sub: 0,
    is_active: 1,
  });
  const kabsaDishes = [
    [71, 6, "Chicken kabsa", "كبسة دجاج", 3200, 850],
    [72, 6, "Lamb kabsa", "كبسة لحم", 5500, 1100],
    [73, 6, "Jareesh", "جريش", 2200, 520],
    [74, 7, "Laban", "لبن", 500, 120],
    [75, 7, "Fresh lemon mint", "ليمون بالنعناع", 900, 140],
  ] as const;
  for (const [n, cat, en, ar, price, calories] of kabsaDishes) {
    add("meal_products", {
      id: id(n),
      restaurant_id: kabsa,
      category_id: id(cat),
      name_en: en,
      name_ar: ar,
      description_en: `${en} as the house makes it.`,
      description_ar: `${ar} على طريقة البيت.`,
      price_minor: price,
      image: `/media/products/${id(n)}.jpg`,
      original_image: "",
      is_active: 1,
      in_stock: 1,
      allergies: "[]",
      tags: "[]",
      allergens_dislikes: JSON.stringify(n === 71 ? ["Onion"] : []),
      variant: "[]",
      off_days: JSON.stringify(n === 73 ? ["friday"] : []),
    });
    add("nutritions", {
      id: id(200 + n),
      product_id: id(n),
      calories,
      carbs: calories / 10,
      protein: calories / 20,
      fat: calories / 30,
    });
  }
  add("combos", {
    id: id(1),
    restaurant_id: kabsa,
    category_id: id(6),
    name_en: "Family kabsa meal",
    name_ar: "وجبة الكبسة العائلية",
    description_en: "Lamb kabsa with two laban.",
    description_ar: "كبسة لحم مع لبنين.",
    image: "/media/combos/family.jpg",
    price_minor: 5900,
    discount_percentage: 5,
    is_active: 1,
    product_ids: JSON.stringify([id(72), id(74)]),
  });

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
  return rows;
}

/** One INSERT OR IGNORE per row, with the values inlined (for `wrangler d1 execute`). */
export function insertSql({ table, row }: Row, lit: (v: unknown) => string): string {
  return `INSERT OR IGNORE INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.values(row).map(lit).join(", ")});`;
}
