import { z } from "@hono/zod-openapi";
import {
  customFields,
  isoDate,
  money,
  nameText,
  nonEmpty,
  ordering,
  timeOfDay,
  WEEKDAYS,
  weekdays,
} from "../../core/fields";
import { envelopeSchema } from "../../core/listing";
import { ALLERGEN_KINDS, REST_TYPES, SUBSCRIPTION_TYPES } from "./tables";

const int = () => z.number().int();
const date = z.string().openapi({ format: "date", example: "2026-12-01" });
const text = z.string().nullable();
const json = z.record(z.string(), z.unknown()).nullable();

/** The spec's audit fields (Conventions). */
const audit = {
  app_id: int().nullable(),
  created_at: z.string().openapi({ format: "date-time" }),
  modified_at: z.string().openapi({ format: "date-time" }),
  deleted_at: z.string().nullable(),
  is_deleted: z.boolean(),
  ordering: int(),
};

// ---- responses: restaurants (2.5, 2.6) ----

export const RestaurantSchema = z
  .object({
    id: int(),
    custom_fields: json,
    ...audit,
    name_en: z.string(),
    name_ar: z.string(),
    subtitle_en: text,
    subtitle_ar: text,
    description_en: text,
    description_ar: text,
    logo: z.string(),
    rest_type: z.enum(REST_TYPES),
    start_after: int().openapi({ description: "Days from today before the first date that can be ordered." }),
    store_start_after: int().nullable(),
    is_active: z.boolean(),
    primary_color: text,
    secondary_color: text,
    banner: text,
    closed_dates: z.string().openapi({
      description: "Comma-separated dates (YYYY-MM-DD) on which the restaurant is closed.",
      example: "2026-12-24,2026-12-25",
    }),
    supports_pickup: z.boolean(),
    supports_delivery: z.boolean(),
    delivery_by_platform: z.boolean(),
    off_days: z
      .string()
      .openapi({ description: "Comma-separated weekdays on which the restaurant is closed.", example: "friday" }),
    menu: int()
      .nullable()
      .openapi({ description: "Id of the on-demand menu (Restaurant Menu); null until one is set." }),
    main_branch_location: z
      .object({ address1: z.string(), lat: z.string(), lng: z.string() })
      .nullable()
      .openapi({ description: "The main branch's location; null when the restaurant has no main branch." }),
    category_id: int().nullable(),
    time_zone: z.string().openapi({
      description: "IANA zone in which its dates (today, off days, closed dates) are counted.",
      example: "Asia/Riyadh",
    }),
  })
  .openapi("Restaurant");
export type Restaurant = z.infer<typeof RestaurantSchema>;

const LocationSchema = z.object({ address1: z.string(), lat: z.string(), lng: z.string() }).openapi("BranchLocation");

export const BranchSchema = z
  .object({
    id: int(),
    ...audit,
    restaurant_id: int(),
    name_en: z.string(),
    name_ar: z.string(),
    city_id: int(),
    location: LocationSchema,
    is_main: z.boolean(),
    supports_pickup: z.boolean(),
    delivery_radius_km: z.number().nullable(),
  })
  .openapi("RestaurantBranch");

export const DeliveryWindowSchema = z
  .object({ id: int(), from_time: z.string(), to_time: z.string() })
  .openapi("DeliveryWindow");

export const ChannelProviderSchema = z
  .object({
    id: int(),
    name_en: z.string(),
    name_ar: z.string(),
    subtitle_en: z.string(),
    subtitle_ar: z.string(),
    logo: z.string(),
    banner: z.string(),
    start_after: int(),
    store_start_after: int(),
    primary_color: z.string(),
    secondary_color: z.string(),
    closed_dates: z.array(z.string()),
    supports_pickup: z.boolean(),
    supports_delivery: z.boolean(),
    off_days: z.array(z.string()),
    is_available_for_user: z.boolean(),
    delivery_windows: z.array(DeliveryWindowSchema),
    pickup_branches: z.array(
      z.object({ id: int(), name_en: z.string(), name_ar: z.string(), location: LocationSchema }),
    ),
    debug: z
      .object({
        reason: z.string(),
        zone_id: int().nullable(),
        nearest_branch_id: int().nullable(),
        nearest_branch_km: z.number().nullable(),
      })
      .optional()
      .openapi({ description: "Only with `debug: true`: why `is_available_for_user` is what it is." }),
  })
  .openapi("ChannelProvider");
export type ChannelProvider = z.infer<typeof ChannelProviderSchema>;

export const RestaurantCategorySchema = z
  .object({ id: int(), ...audit, name_en: z.string(), name_ar: z.string(), image: z.string() })
  .openapi("RestaurantCategory");

export const AllergenSchema = z
  .object({
    id: int(),
    ...audit,
    kind: z.enum(ALLERGEN_KINDS),
    name_en: z.string(),
    name_ar: z.string(),
    icon: z.string(),
  })
  .openapi("AllergenDislike");

export const RestaurantVariantSchema = z
  .object({ id: int(), ...audit, restaurant_id: int(), name_en: z.string(), name_ar: z.string() })
  .openapi("RestaurantVariant");

// ---- responses: menus and products (2.4) ----

export const NutritionsSchema = z
  .object({
    id: int(),
    custom_fields: json,
    ...audit,
    calories: z.number().nullable(),
    carbs: z.number().nullable(),
    protein: z.number().nullable(),
    fat: z.number().nullable(),
    product: int(),
    size: text,
  })
  .openapi("Nutritions");

export const MenuProductSchema = z
  .object({
    id: int(),
    created_at: z.string(),
    modified_at: z.string(),
    deleted_at: z.string().nullable(),
    is_deleted: z.boolean(),
    name_ar: z.string(),
    name_en: z.string(),
    original_price: z.number(),
    discount_percentage: z.number(),
    image: z.string(),
    nutritions: NutritionsSchema.nullable(),
    nutrition_options: z.array(NutritionsSchema),
    restaurant_id: int(),
    is_sub: z.boolean(),
    description_ar: text,
    description_en: text,
    is_active: z.boolean(),
    in_stock: z.boolean(),
    category_id: int().nullable(),
    allergies: z.array(z.string()),
    variant: z.array(z.string()),
    allergens_dislikes: z.array(z.string()),
  })
  .openapi("MenuProduct");
export type MenuProduct = z.infer<typeof MenuProductSchema>;

export const ProductDetailsSchema = MenuProductSchema.extend({
  ordering: int(),
  app_id: int().nullable(),
  original_image: z.string(),
  is_special: z.boolean(),
  tags: z.array(z.string()),
  off_days: z.array(z.enum(WEEKDAYS)),
  wallet_credit: z
    .number()
    .nullable()
    .openapi({ description: "Store credit (major units) the product sells; null for food." }),
}).openapi("ProductDetails");
export type ProductDetails = z.infer<typeof ProductDetailsSchema>;

export const ComboSchema = z
  .object({
    id: int(),
    custom_fields: json,
    ...audit,
    name_en: z.string(),
    name_ar: z.string(),
    description_en: text,
    description_ar: text,
    image: z.string(),
    original_price: z.number(),
    discount_percentage: z.number(),
    is_active: z.boolean(),
    restaurant_id: int(),
    category_id: int(),
    products: z.array(MenuProductSchema),
  })
  .openapi("Combo");
export type Combo = z.infer<typeof ComboSchema>;

export const MenuCategorySchema = z
  .object({
    id: int(),
    custom_fields: json,
    products: z.array(MenuProductSchema),
    combos: z.array(ComboSchema),
    ...audit,
    name_ar: z.string(),
    name_en: z.string(),
    image: z.string(),
    is_sub: z.boolean(),
    is_active: z.boolean(),
    menu: int(),
  })
  .openapi("MenuCategory");

export const MenuSchema = z
  .object({
    id: int(),
    custom_fields: json,
    categories: z.array(MenuCategorySchema),
    ...audit,
    name_ar: z.string(),
    name_en: z.string(),
    image: z.string(),
    restaurant_id: int(),
    order_date: date.nullable().openapi({
      description:
        "The date the menu is for (Restaurant Menu); null for Menu Details, which lists every active product.",
    }),
  })
  .openapi("Menu");
export type Menu = z.infer<typeof MenuSchema>;

// ---- responses: plans (2.3) ----

export const PlanTagSchema = z
  .object({
    id: int(),
    ordering: int(),
    type_en: z.string(),
    type_ar: z.string(),
    tag_en: z.string(),
    tag_ar: z.string(),
    description_en: z.string(),
    description_ar: z.string(),
    image: z.string(),
    color: text,
  })
  .openapi("PlanTag");

export const PlanVersionSchema = z
  .object({
    id: int(),
    custom_fields: json,
    min_start_date: date,
    max_start_date: date,
    off_days: z.array(z.string()),
    ordering: int(),
    num_of_days: int(),
    total_num_of_items: int(),
    delivery_price: z.number(),
    original_price: z.number(),
    discount_percentage: z.number(),
    duration: text,
    pause_credits: int().nullable(),
    num_of_pause_attempts: int().nullable(),
    min_of_pause_days: int().nullable(),
  })
  .openapi("PlanVersion");

export const PlanProductSchema = z
  .object({
    ...audit,
    id: int(),
    name_ar: z.string(),
    name_en: z.string(),
    original_price: z.number(),
    discount_percentage: z.number(),
    original_image: z.string(),
    image: z.string(),
    nutritions: NutritionsSchema.nullable(),
    restaurant_id: int(),
    is_sub: z.boolean(),
    description_ar: text,
    description_en: text,
    category_id: int().nullable(),
    is_active: z.boolean(),
    is_special: z.boolean(),
    in_stock: z.boolean(),
    allergies: z.array(z.string()),
    tags: z.array(z.string()),
    allergens_dislikes: z.array(z.string()),
    variant: z.array(z.string()),
  })
  .openapi("PlanProduct");

export const PlanOptionSchema = z
  .object({
    ...audit,
    id: int(),
    is_recommended: z.boolean(),
    is_active: z.boolean(),
    plan_category: int(),
    product: PlanProductSchema,
  })
  .openapi("PlanOption");

export const PlanCategorySchema = z
  .object({
    ...audit,
    id: int(),
    name_en: z.string(),
    name_ar: z.string(),
    is_multi_select: z.boolean(),
    max_selected_options: int(),
    category_master_id: int().nullable(),
    plan_date: int().openapi({ description: "Id of the master (plan day) the category belongs to." }),
    options: z.array(PlanOptionSchema),
  })
  .openapi("PlanCategory");

export const PlanMasterSchema = z
  .object({
    ...audit,
    id: int(),
    restaurant_name: z.string(),
    day: z.string(),
    repetition_counter: int().openapi({ description: "Its place in the cycle, 1 to the plan's `repetition`." }),
    master_id: int().nullable(),
    plan: int(),
    restaurant: int(),
    plan_categories: z.array(PlanCategorySchema),
  })
  .openapi("PlanMaster");

const PlanSizeSchema = z
  .object({
    id: int().openapi({ description: "A size belongs to one plan: its id is the plan's." }),
    title: z.string(),
    protein_amount: z.number(),
    carb_amount: z.number().nullable(),
    unit: z.string(),
  })
  .openapi("PlanSize");

const planSummary = {
  id: int(),
  name_en: z.string(),
  name_ar: z.string(),
  subtitle_en: text,
  subtitle_ar: text,
  description_en: text,
  description_ar: text,
  plan_tags: z.array(PlanTagSchema),
  image: z.string(),
  image_ar: text,
  daily_num_of_items: int(),
  avg_daily_meal_calories: z.number(),
  start_after: int(),
  special_product_selection_limit: int().nullable(),
  featured_title_en: text,
  featured_title_ar: text,
  is_featured: z.boolean(),
  is_marketplace_featured: z.boolean(),
  is_marketplace_active: z.boolean(),
  supported_service: text,
  gender: text,
  subscription_type: z.string(),
  menu_id: int(),
  repetition: int(),
  skip_option_selection: z.boolean(),
  size: PlanSizeSchema,
  versions: z.array(PlanVersionSchema),
  restaurant: z.object({ id: int(), name_en: z.string(), name_ar: z.string(), logo: z.string() }),
};

/** List Plans: a plan without its dates and masters (Plan Details has them). */
export const PlanSummarySchema = z.object(planSummary).openapi("PlanSummary");
export type PlanSummary = z.infer<typeof PlanSummarySchema>;

export const PlanSchema = z
  .object({
    ...planSummary,
    start_date: date.openapi({
      description: "The first delivery date: the one asked for, or the earliest the version allows.",
    }),
    plan_version_id: int().openapi({ description: "The version `dates` follow." }),
    dates: z.array(date).openapi({
      description:
        "The delivery dates: `num_of_days` dates from `start_date`, skipping the version's off days and the restaurant's closed dates.",
    }),
    masters: z.array(PlanMasterSchema),
  })
  .openapi("MealPlan");
export type Plan = z.infer<typeof PlanSchema>;

export const RestaurantListSchema = envelopeSchema(RestaurantSchema, "RestaurantList");
export const BranchListSchema = envelopeSchema(BranchSchema, "RestaurantBranchList");
export const RestaurantCategoryListSchema = envelopeSchema(RestaurantCategorySchema, "RestaurantCategoryList");
export const AllergenListSchema = envelopeSchema(AllergenSchema, "AllergenDislikeList");
export const RestaurantVariantListSchema = envelopeSchema(RestaurantVariantSchema, "RestaurantVariantList");
export const ProductListSchema = envelopeSchema(ProductDetailsSchema, "ProductList");
export const PlanTagListSchema = envelopeSchema(PlanTagSchema, "PlanTagList");
export const PlanListSchema = envelopeSchema(PlanSummarySchema, "PlanList");

// ---- public request inputs ----

const queryDate = (description: string) =>
  isoDate.optional().openapi({ param: { in: "query" }, type: "string", format: "date", description });

export const MenuQuerySchema = z.object({
  order_date: queryDate(
    "The day to order for; by default the first day the restaurant takes orders for (today plus `start_after`, skipping off days and closed dates).",
  ),
});

export const PlanQuerySchema = z.object({
  plan_version_id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "Must be a positive integer.")
    .transform(Number)
    .optional()
    .openapi({
      param: { in: "query" },
      type: "integer",
      description: "A version of this plan; by default its first (lowest `ordering`, then id).",
    }),
  start_date: queryDate("The first delivery date; by default the earliest the version allows."),
});

/** Latitude and longitude come as strings (as the spec types them) or numbers. */
const coordinate = (name: "lat" | "lng", max: number) =>
  z
    .union([
      z
        .string()
        .trim()
        .regex(/^-?\d{1,3}(\.\d{1,12})?$/, "Must be a decimal number."),
      z.number(),
    ])
    .transform(Number)
    .refine((n) => Number.isFinite(n) && Math.abs(n) <= max, `Must be between -${max} and ${max}.`)
    .openapi({
      type: "string",
      description: name === "lat" ? "Latitude, -90 to 90." : "Longitude, -180 to 180.",
      example: name === "lat" ? "24.7136" : "46.6753",
    });

export const ProvidersQuerySchema = z
  .object({
    lat: coordinate("lat", 90).optional(),
    lng: coordinate("lng", 180).optional(),
    city_id: int()
      .positive()
      .optional()
      .openapi({ description: "The user's city: narrows zones and pickup branches to it." }),
    debug: z
      .boolean()
      .optional()
      .openapi({ description: "Adds `debug` to each provider: why it is, or is not, available." }),
  })
  .strict()
  .refine((b) => (b.lat === undefined) === (b.lng === undefined), {
    message: "Give lat and lng together.",
    path: ["lat"],
  })
  .refine((b) => b.lat !== undefined || b.city_id !== undefined, {
    message: "Give the user's location (lat and lng), or city_id, or both.",
    path: ["body"],
  })
  .openapi("ListChannelProviders");

export const ListPlansSchema = z
  .object({
    restaurant_id: int().positive(),
    tag_ids: z.array(int().positive()).max(20).openapi({ description: "Plans carrying any of these tags." }),
    subscription_type: z.enum(SUBSCRIPTION_TYPES),
    gender: z.string().max(20),
    supported_service: z.string().max(50),
    is_featured: z.boolean(),
    is_marketplace_featured: z.boolean(),
    min_calories: z.number().min(0).max(100_000).openapi({ description: "`avg_daily_meal_calories` at least this." }),
    max_calories: z.number().min(0).max(100_000),
    search: z.string().trim().min(1).max(100).openapi({ description: "In the names and subtitles, both languages." }),
  })
  .partial()
  .strict()
  .refine((b) => b.min_calories === undefined || b.max_calories === undefined || b.min_calories <= b.max_calories, {
    message: "Must not be above max_calories.",
    path: ["min_calories"],
  })
  .openapi("ListPlansFilters");

// ---- merchant writes ----

const hexColor = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, "Must be a colour, #RRGGBB.")
  .nullable();
const image = z.string().max(2000);
const optionalText = z.string().max(5000).nullable();
const labels = z
  .array(z.string().trim().min(1).max(100))
  .max(50)
  .refine((xs) => new Set(xs).size === xs.length, "Must not repeat.");
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const daysAhead = int().min(0).max(365);

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const DeliveryZoneInput = z
  .object({
    city_id: int().positive(),
    name_en: z.string().max(200).optional(),
    polygon: z
      .array(z.tuple([latitude, longitude]))
      .min(3)
      .max(500)
      .openapi({ description: "The zone's vertices, [lat, lng] each, at least 3." }),
  })
  .strict();

const restaurantFields = {
  name_en: nameText,
  name_ar: nameText,
  subtitle_en: optionalText,
  subtitle_ar: optionalText,
  description_en: optionalText,
  description_ar: optionalText,
  logo: image,
  banner: image.nullable(),
  rest_type: z.enum(REST_TYPES),
  category_id: int().positive().nullable().openapi({ description: "A restaurant category of the store." }),
  start_after: daysAhead,
  store_start_after: daysAhead.nullable(),
  is_active: z.boolean(),
  primary_color: hexColor,
  secondary_color: hexColor,
  closed_dates: z
    .array(isoDate)
    .max(366)
    .refine((d) => new Set(d).size === d.length, "Dates must not repeat."),
  off_days: weekdays.refine((d) => d.length < 7, "At least one day must be open."),
  supports_pickup: z.boolean(),
  supports_delivery: z.boolean(),
  delivery_by_platform: z.boolean(),
  time_zone: z.string().max(64).refine(isTimeZone, "Must be an IANA time zone, such as Asia/Riyadh."),
  menu_id: int().positive().nullable().openapi({ description: "The on-demand menu: one of this restaurant's menus." }),
  custom_fields: customFields,
  ordering,
  delivery_windows: z
    .array(
      z
        .object({ from_time: timeOfDay, to_time: timeOfDay })
        .strict()
        .refine((w) => w.from_time < w.to_time, { message: "Must end after from_time.", path: ["to_time"] }),
    )
    .max(48)
    .openapi({ description: "Replaces the restaurant's delivery windows." }),
  delivery_zones: z
    .array(DeliveryZoneInput)
    .max(100)
    .openapi({ description: "Replaces the restaurant's delivery zones." }),
};

export const CreateRestaurantSchema = z
  .object(restaurantFields)
  .partial()
  .required({ name_en: true, name_ar: true, rest_type: true })
  .omit({ menu_id: true })
  .strict()
  .openapi("CreateRestaurant");
export const UpdateRestaurantSchema = nonEmpty(z.object(restaurantFields).partial().strict()).openapi(
  "UpdateRestaurant",
);

const branchFields = {
  name_en: nameText,
  name_ar: nameText,
  city_id: int().positive(),
  address1: z.string().max(500),
  lat: latitude,
  lng: longitude,
  is_main: z.boolean().openapi({ description: "At most one main branch: setting it clears the others'." }),
  supports_pickup: z.boolean(),
  delivery_radius_km: z
    .number()
    .gt(0)
    .max(200)
    .nullable()
    .openapi({ description: "Delivers within this distance of the branch; null for none." }),
  ordering,
};
export const CreateBranchSchema = z
  .object(branchFields)
  .partial()
  .required({ name_en: true, name_ar: true, city_id: true, lat: true, lng: true })
  .strict()
  .openapi("CreateRestaurantBranch");
export const UpdateBranchSchema = nonEmpty(z.object(branchFields).partial().strict()).openapi("UpdateRestaurantBranch");

const menuFields = { name_en: nameText, name_ar: nameText, image, custom_fields: customFields, ordering };
export const CreateMenuSchema = z
  .object({ ...menuFields, restaurant_id: int().positive() })
  .partial({ image: true, custom_fields: true, ordering: true })
  .strict()
  .openapi("CreateMenu");
export const UpdateMenuSchema = nonEmpty(z.object(menuFields).partial().strict()).openapi("UpdateMenu");

const menuCategoryFields = {
  name_en: nameText,
  name_ar: nameText,
  image,
  is_sub: z.boolean(),
  is_active: z.boolean(),
  custom_fields: customFields,
  ordering,
};
export const CreateMenuCategorySchema = z
  .object(menuCategoryFields)
  .partial()
  .required({ name_en: true, name_ar: true })
  .strict()
  .openapi("CreateMenuCategory");
export const UpdateMenuCategorySchema = nonEmpty(z.object(menuCategoryFields).partial().strict()).openapi(
  "UpdateMenuCategory",
);

const nutritionFacts = {
  calories: z.number().min(0).max(100_000).nullable(),
  carbs: z.number().min(0).max(10_000).nullable(),
  protein: z.number().min(0).max(10_000).nullable(),
  fat: z.number().min(0).max(10_000).nullable(),
};
const productFields = {
  name_en: nameText,
  name_ar: nameText,
  description_en: optionalText,
  description_ar: optionalText,
  category_id: int()
    .positive()
    .nullable()
    .openapi({ description: "A category of one of the restaurant's menus; null for plan-only products." }),
  price: money,
  discount_percentage: z.number().min(0).max(100),
  image,
  original_image: image,
  is_sub: z.boolean(),
  is_active: z.boolean(),
  is_special: z.boolean(),
  in_stock: z.boolean(),
  allergies: labels,
  tags: labels,
  allergens_dislikes: labels,
  variant: labels.openapi({ description: "Names (`name_en`) of the restaurant's variants the product belongs to." }),
  off_days: weekdays,
  wallet_credit: money
    .nullable()
    .openapi({ description: "Makes it a wallet credit product selling this much store credit." }),
  ordering,
  nutritions: z
    .object(nutritionFacts)
    .partial()
    .strict()
    .nullable()
    .openapi({ description: "Replaces the product's nutrition facts." }),
  nutrition_options: z
    .array(
      z
        .object({ ...nutritionFacts, size: z.string().trim().min(1).max(50) })
        .partial()
        .required({ size: true })
        .strict(),
    )
    .max(10)
    .refine((xs) => new Set(xs.map((x) => x.size)).size === xs.length, "Sizes must not repeat.")
    .openapi({ description: "Replaces the facts per size." }),
};
export const CreateProductSchema = z
  .object({ ...productFields, restaurant_id: int().positive() })
  .partial()
  .required({ name_en: true, name_ar: true, price: true, restaurant_id: true })
  .strict()
  .openapi("CreateProduct");
export const UpdateProductSchema = nonEmpty(z.object(productFields).partial().strict()).openapi("UpdateProduct");

const planFields = {
  menu_id: int().positive().openapi({ description: "A menu of the plan's restaurant." }),
  name_en: nameText,
  name_ar: nameText,
  subtitle_en: optionalText,
  subtitle_ar: optionalText,
  description_en: optionalText,
  description_ar: optionalText,
  image,
  image_ar: image.nullable(),
  tag_ids: z
    .array(int().positive())
    .max(20)
    .refine((xs) => new Set(xs).size === xs.length, "Ids must not repeat."),
  daily_num_of_items: int().min(1).max(20),
  avg_daily_meal_calories: z.number().min(0).max(100_000),
  start_after: daysAhead,
  special_product_selection_limit: int().min(0).max(100).nullable(),
  featured_title_en: z.string().max(200).nullable(),
  featured_title_ar: z.string().max(200).nullable(),
  is_featured: z.boolean(),
  is_marketplace_featured: z.boolean(),
  is_marketplace_active: z.boolean(),
  is_active: z.boolean(),
  supported_service: z.string().max(50).nullable(),
  gender: z.string().max(20).nullable(),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  repetition: int().min(1).max(366).openapi({
    description:
      "Days in the menu cycle: the n-th delivery date (from 0) is served by the day whose repetition_counter is n % repetition + 1.",
  }),
  skip_option_selection: z.boolean(),
  size: z
    .object({
      title: nameText,
      protein_amount: z.number().min(0).max(10_000),
      carb_amount: z.number().min(0).max(10_000).nullable().optional(),
      unit: z.string().trim().min(1).max(10).optional(),
    })
    .strict(),
  ordering,
};
export const CreatePlanSchema = z
  .object({ ...planFields, restaurant_id: int().positive() })
  .partial()
  .required({
    restaurant_id: true,
    menu_id: true,
    name_en: true,
    name_ar: true,
    daily_num_of_items: true,
    subscription_type: true,
    repetition: true,
    size: true,
  })
  .strict()
  .openapi("CreatePlan");
export const UpdatePlanSchema = nonEmpty(z.object(planFields).partial().strict()).openapi("UpdatePlan");

const versionFields = {
  min_start_date: isoDate,
  max_start_date: isoDate,
  off_days: weekdays.refine((d) => d.length < 7, "At least one day must be a delivery day."),
  num_of_days: int().min(1).max(366),
  total_num_of_items: int().min(1).max(10_000),
  delivery_price: money,
  original_price: money,
  discount_percentage: z.number().min(0).max(100),
  duration: z.string().max(50).nullable(),
  pause_credits: int().min(0).max(366).nullable(),
  num_of_pause_attempts: int().min(0).max(366).nullable(),
  min_of_pause_days: int().min(0).max(366).nullable(),
  custom_fields: customFields,
  ordering,
};
const startRange = (b: { min_start_date?: string; max_start_date?: string }) =>
  !b.min_start_date || !b.max_start_date || b.min_start_date <= b.max_start_date;
export const CreatePlanVersionSchema = z
  .object(versionFields)
  .partial()
  .required({
    min_start_date: true,
    max_start_date: true,
    num_of_days: true,
    total_num_of_items: true,
    original_price: true,
  })
  .strict()
  .refine(startRange, { message: "Must not be after max_start_date.", path: ["min_start_date"] })
  .openapi("CreatePlanVersion");
export const UpdatePlanVersionSchema = nonEmpty(z.object(versionFields).partial().strict())
  .refine(startRange, { message: "Must not be after max_start_date.", path: ["min_start_date"] })
  .openapi("UpdatePlanVersion");

const dayFields = {
  day: z.string().trim().min(1).max(50).openapi({ description: "The day's label, such as `Day 1` or `sunday`." }),
  repetition_counter: int()
    .min(1)
    .max(366)
    .openapi({ description: "Its place in the cycle, 1 to the plan's `repetition`; one day per place." }),
  master_id: int().positive().nullable(),
  ordering,
};
export const CreatePlanDaySchema = z
  .object(dayFields)
  .partial()
  .required({ day: true, repetition_counter: true })
  .strict()
  .openapi("CreatePlanDay");
export const UpdatePlanDaySchema = nonEmpty(z.object(dayFields).partial().strict()).openapi("UpdatePlanDay");

const planCategoryFields = {
  name_en: nameText,
  name_ar: nameText,
  is_multi_select: z.boolean(),
  max_selected_options: int().min(1).max(50),
  category_master_id: int().positive().nullable(),
  ordering,
};
export const CreatePlanCategorySchema = z
  .object(planCategoryFields)
  .partial()
  .required({ name_en: true, name_ar: true })
  .strict()
  .openapi("CreatePlanCategory");
export const UpdatePlanCategorySchema = nonEmpty(z.object(planCategoryFields).partial().strict()).openapi(
  "UpdatePlanCategory",
);

const optionFields = {
  product_id: int().positive().openapi({ description: "A product of the plan's restaurant." }),
  is_recommended: z.boolean(),
  is_active: z.boolean(),
  ordering,
};
export const CreatePlanOptionSchema = z
  .object(optionFields)
  .partial()
  .required({ product_id: true })
  .strict()
  .openapi("CreatePlanOption");
export const UpdatePlanOptionSchema = nonEmpty(z.object(optionFields).partial().strict()).openapi("UpdatePlanOption");

/** What the plan writes return: the record as stored, in the shape its read shows it. */
export const PlanDayWrittenSchema = PlanMasterSchema.omit({ plan_categories: true, restaurant_name: true }).openapi(
  "PlanDay",
);
export const PlanCategoryWrittenSchema = PlanCategorySchema.omit({ options: true }).openapi("PlanCategoryRecord");
export const PlanOptionWrittenSchema = PlanOptionSchema.omit({ product: true })
  .extend({ product: int() })
  .openapi("PlanOptionRecord");
export const MenuRecordSchema = MenuSchema.omit({ categories: true, order_date: true }).openapi("MenuRecord");
export const MenuCategoryRecordSchema = MenuCategorySchema.omit({ products: true, combos: true }).openapi(
  "MenuCategoryRecord",
);
export const PlanVersionRecordSchema = PlanVersionSchema.extend({ plan: int(), ...audit }).openapi("PlanVersionRecord");

const restaurantCategoryFields = { name_en: nameText, name_ar: nameText, image, ordering };
export const CreateRestaurantCategorySchema = z
  .object(restaurantCategoryFields)
  .partial({ image: true, ordering: true })
  .strict()
  .openapi("CreateRestaurantCategory");
export const UpdateRestaurantCategorySchema = nonEmpty(z.object(restaurantCategoryFields).partial().strict()).openapi(
  "UpdateRestaurantCategory",
);

const allergenFields = {
  kind: z.enum(ALLERGEN_KINDS),
  name_en: nameText.openapi({
    description: "Products name the allergen by this in `allergies` or `allergens_dislikes`.",
  }),
  name_ar: nameText,
  icon: image,
  ordering,
};
export const CreateAllergenSchema = z
  .object(allergenFields)
  .partial({ icon: true, ordering: true })
  .strict()
  .openapi("CreateAllergenDislike");
export const UpdateAllergenSchema = nonEmpty(z.object(allergenFields).partial().strict()).openapi(
  "UpdateAllergenDislike",
);

const restaurantVariantFields = {
  name_en: nameText.openapi({ description: "Products name the variant by this in `variant`." }),
  name_ar: nameText,
  ordering,
};
export const CreateRestaurantVariantSchema = z
  .object(restaurantVariantFields)
  .partial({ ordering: true })
  .strict()
  .openapi("CreateRestaurantVariant");
export const UpdateRestaurantVariantSchema = nonEmpty(z.object(restaurantVariantFields).partial().strict()).openapi(
  "UpdateRestaurantVariant",
);

const planTagFields = {
  type_en: nameText,
  type_ar: nameText,
  tag_en: nameText,
  tag_ar: nameText,
  description_en: z.string().max(5000),
  description_ar: z.string().max(5000),
  image,
  color: hexColor,
  ordering,
};
export const CreatePlanTagSchema = z
  .object(planTagFields)
  .partial({ description_en: true, description_ar: true, image: true, color: true, ordering: true })
  .strict()
  .openapi("CreatePlanTag");
export const UpdatePlanTagSchema = nonEmpty(z.object(planTagFields).partial().strict()).openapi("UpdatePlanTag");

const comboFields = {
  name_en: nameText,
  name_ar: nameText,
  description_en: optionalText,
  description_ar: optionalText,
  image,
  price: money,
  discount_percentage: z.number().min(0).max(100),
  is_active: z.boolean(),
  product_ids: z.array(int().positive()).min(1).max(20).openapi({
    description:
      "The products in the combo, each a product of the category's restaurant; a product may repeat (two of it).",
  }),
  custom_fields: customFields,
  ordering,
};
export const CreateComboSchema = z
  .object(comboFields)
  .partial()
  .required({ name_en: true, name_ar: true, price: true, product_ids: true })
  .strict()
  .openapi("CreateCombo");
export const UpdateComboSchema = nonEmpty(z.object(comboFields).partial().strict()).openapi("UpdateCombo");
