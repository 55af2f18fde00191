/** The demo's menus: Green Bowl's 5 courses × 10 dishes with their facts, Kabsa House's mains, drinks and combo. */
import type { DemoRows } from "./meals-demo";

/** Green Bowl's courses and their dishes (English, Arabic): its menu categories, and its plans' categories. */
export const COURSES = [
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

/** The two restaurants' menus; returns the ids of Green Bowl's dishes, by course, for its plans. */
export function menusDemo({ add, id }: DemoRows, { green, kabsa }: { green: number; kabsa: number }): number[][] {
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

  return productIds;
}
