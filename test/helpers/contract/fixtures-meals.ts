import { env } from "cloudflare:workers";
import { salesChannelConnections } from "../../../src/db/channel-directory-schema";
/** The contract suite's meals records: a catalogue per store, and B's meal commerce (see fixtures.ts). */
import { createDb } from "../../../src/db/client";
import { directoryOf } from "../../../src/db/shards";
import { complaints } from "../../../src/modules/meal-orders/complaints/tables";
import { captains } from "../../../src/modules/meal-orders/logistics/tables";
import { mealOrders, mealSubscriptions, suborders } from "../../../src/modules/meal-orders/tables";
import { mealAppConfigs } from "../../../src/modules/meals/app-configs/tables";
import { corporateLocations } from "../../../src/modules/meals/corporate-locations/tables";
import {
  allergens,
  combos,
  deliveryWindows,
  deliveryZones,
  menuCategories,
  menus,
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
} from "../../../src/modules/meals/tables";
import { channelPlanListings, channelProfiles } from "../../../src/modules/sales-channels/tables";
import { db, shardFor } from "../factories";
import { A_OTHER_MARKER, type Fixtures, MARKER } from "./fixtures";

export type Meals = {
  restaurant: number;
  branch: number;
  menu: number;
  menuCategory: number;
  product: number;
  combo: number;
  plan: number;
  version: number;
  day: number;
  planCategory: number;
  option: number;
  category: number;
  allergen: number;
  variant: number;
  tag: number;
};

/** One record of each meals table for a store, named with `marker`. */
export async function mealsOf(appId: number, marker: string): Promise<Meals> {
  const named = { appId, nameEn: marker, nameAr: marker };
  const [r] = await db(appId)
    .insert(restaurants)
    .values({ ...named, restType: "both", subtitleEn: marker })
    .returning();
  const [branch] = await db(appId)
    .insert(restaurantBranches)
    .values({ ...named, restaurantId: r!.id, cityId: 1, lat: 24.7, lng: 46.7, address1: marker })
    .returning();
  const [menu] = await db(appId)
    .insert(menus)
    .values({ ...named, restaurantId: r!.id })
    .returning();
  const [menuCategory] = await db(appId)
    .insert(menuCategories)
    .values({ ...named, menuId: menu!.id })
    .returning();
  const [product] = await db(appId)
    .insert(products)
    .values({
      ...named,
      restaurantId: r!.id,
      categoryId: menuCategory!.id,
      priceMinor: 100,
      walletCreditMinor: 100,
      variant: [marker],
    })
    .returning();
  const [combo] = await db(appId)
    .insert(combos)
    .values({ ...named, restaurantId: r!.id, categoryId: menuCategory!.id, priceMinor: 100, productIds: [product!.id] })
    .returning();
  const [category] = await db(appId).insert(restaurantCategories).values(named).returning();
  const [allergen] = await db(appId)
    .insert(allergens)
    .values({ ...named, kind: "allergy" })
    .returning();
  const [variant] = await db(appId)
    .insert(restaurantVariants)
    .values({ ...named, restaurantId: r!.id })
    .returning();
  const [tag] = await db(appId)
    .insert(planTags)
    .values({ appId, typeEn: marker, typeAr: marker, tagEn: marker, tagAr: marker })
    .returning();
  const [plan] = await db(appId)
    .insert(plans)
    .values({
      ...named,
      restaurantId: r!.id,
      menuId: menu!.id,
      dailyNumOfItems: 1,
      subscriptionType: "daily",
      repetition: 1,
      sizeTitle: marker,
      sizeProteinAmount: 1,
    })
    .returning();
  const [version] = await db(appId)
    .insert(planVersions)
    .values({
      appId,
      planId: plan!.id,
      minStartDate: "2026-01-01",
      maxStartDate: "2030-01-01",
      numOfDays: 1,
      totalNumOfItems: 1,
      originalPriceMinor: 100,
      duration: marker,
    })
    .returning();
  const [day] = await db(appId)
    .insert(planDays)
    .values({ appId, planId: plan!.id, restaurantId: r!.id, day: marker, repetitionCounter: 1 })
    .returning();
  const [planCategory] = await db(appId)
    .insert(planCategories)
    .values({ ...named, planId: plan!.id, planDayId: day!.id })
    .returning();
  const [option] = await db(appId)
    .insert(planOptions)
    .values({ appId, planId: plan!.id, planCategoryId: planCategory!.id, productId: product!.id })
    .returning();
  return {
    restaurant: r!.id,
    branch: branch!.id,
    menu: menu!.id,
    menuCategory: menuCategory!.id,
    product: product!.id,
    combo: combo!.id,
    plan: plan!.id,
    version: version!.id,
    day: day!.id,
    planCategory: planCategory!.id,
    option: option!.id,
    category: category!.id,
    allergen: allergen!.id,
    variant: variant!.id,
    tag: tag!.id,
  };
}

export type MealCommerce = {
  /** B's corporate location, its delivery zone and window, and its captain (all named with the marker). */
  bCorporateLocation: number;
  bWindow: number;
  bCaptain: number;
  /** B's meal subscription (of its paid order), a suborder of it, its meal order and a complaint on it. */
  bSubscription: number;
  bSuborder: number;
  bMealOrder: number;
  bComplaint: number;
  /** B's active connection with X (B the channel), and B's listing of one of X's plans. */
  bConnection: number;
  bListing: number;
  /** A's meals catalogue (neutral names), for bodies that must name a plan, window or branch of A. */
  aMeals: Meals;
  aWindow: number;
  /** The same meal records of another customer of A. */
  aOther: { subscription: number; suborder: number; mealOrder: number; complaint: number };
};

/** A meal subscription (active, delivered), one suborder on 2026-12-02, its meal order and a complaint. */
async function mealSubscriptionOf(
  appId: number,
  customerId: number,
  orderId: number,
  m: Meals,
  windowId: number,
  marker: string,
) {
  const location = { city_id: 1, address1: marker, latitude: "24.7", longitude: "46.7" };
  const [sub] = await db(appId)
    .insert(mealSubscriptions)
    .values({
      appId,
      customerId,
      orderId,
      restaurantId: m.restaurant,
      planId: m.plan,
      planVersionId: m.version,
      status: "active",
      startDate: "2026-12-02",
      endDate: "2026-12-02",
      numOfDays: 1,
      deliveryWindowId: windowId,
      location,
    })
    .returning();
  const [suborder] = await db(appId)
    .insert(suborders)
    .values({
      appId,
      subscriptionId: sub!.id,
      customerId,
      restaurantId: m.restaurant,
      date: "2026-12-02",
      originalDate: "2026-12-02",
      planDayId: m.day,
      deliveryWindowId: windowId,
      location,
      meals: [{ plan_category_id: m.planCategory, option_ids: [m.option] }],
    })
    .returning();
  const [order] = await db(appId)
    .insert(mealOrders)
    .values({
      appId,
      orderId,
      type: "subscription",
      customerId,
      restaurantId: m.restaurant,
      planId: m.plan,
      planVersionId: m.version,
      subscriptionId: sub!.id,
      startDate: "2026-12-02",
      endDate: "2026-12-02",
    })
    .returning();
  const [complaint] = await db(appId)
    .insert(complaints)
    .values({
      appId,
      suborderId: suborder!.id,
      subscriptionId: sub!.id,
      customerId,
      reason: "late_delivery",
      description: marker,
    })
    .returning();
  return { subscription: sub!.id, suborder: suborder!.id, mealOrder: order!.id, complaint: complaint!.id };
}

/** A delivery zone over central Riyadh and a window of the restaurant, in the store. */
async function zoneAndWindow(appId: number, restaurantId: number, marker: string) {
  await db(appId)
    .insert(deliveryZones)
    .values({
      appId,
      restaurantId,
      cityId: 1,
      nameEn: marker,
      polygon: [
        [24.6, 46.6],
        [24.6, 46.8],
        [24.8, 46.8],
        [24.8, 46.6],
      ],
    });
  const [w] = await db(appId)
    .insert(deliveryWindows)
    .values({ appId, restaurantId, fromTime: "06:00:00", toTime: "09:00:00", type: "both", tag: marker })
    .returning();
  return w!.id;
}

/**
 * Tenant B's meal-commerce, logistics and sales-channel records, each naming the marker where it has
 * text; the meal records of another customer of A (on a catalogue of A's with neutral names).
 */
export async function mealCommerceOf(f: Omit<Fixtures, "mealCommerce">): Promise<MealCommerce> {
  const { a: A, b: B, x: X } = f.stores;
  // B's plan is featured: a featured read of A must still not show it.
  await shardFor(B).prepare("UPDATE plans SET is_featured = 1 WHERE id = ?").bind(f.meals.plan).run();
  const [corporate] = await db(B)
    .insert(corporateLocations)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER, companyName: MARKER, cityId: 1, lat: 24.7, lng: 46.7 })
    .returning();
  await db(B)
    .insert(mealAppConfigs)
    .values({
      appId: B,
      contactEmail: "b@x.example",
      customFields: { m: MARKER },
      modifiedAt: "2026-01-01T00:00:00Z",
    });
  const bWindow = await zoneAndWindow(B, f.meals.restaurant, MARKER);
  const [captain] = await db(B)
    .insert(captains)
    .values({
      appId: B,
      name: MARKER,
      countryCode: "966",
      mobileNumber: "966551000032",
      cityId: 1,
      branchId: f.meals.branch,
    })
    .returning();
  const b = await mealSubscriptionOf(B, f.customers.b, f.commerce.bOrder, f.meals, bWindow, MARKER);
  // B's sales channel: its profile, an active connection with X (B the channel), and a listing of X's plan.
  await db(B)
    .insert(channelProfiles)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER, descriptionEn: MARKER, contactName: MARKER });
  const xMeals = await mealsOf(X, "STORE-X");
  const at = new Date().toISOString();
  // Connections live in the directory (docs/shards.md).
  const [connection] = await createDb(directoryOf(env))
    .insert(salesChannelConnections)
    .values({ appId: B, channelAppId: B, providerAppId: X, status: "active", message: MARKER, requestedAt: at })
    .returning();
  const [listing] = await db(B)
    .insert(channelPlanListings)
    .values({ appId: B, providerAppId: X, planId: xMeals.plan })
    .returning();
  // A's own catalogue, and the meal records of A's other customer on it.
  const aMeals = await mealsOf(A, "STORE-A-MEALS");
  const aWindow = await zoneAndWindow(A, aMeals.restaurant, "STORE-A-MEALS");
  const aOther = await mealSubscriptionOf(A, f.app.aOther, f.commerce.aOther.order, aMeals, aWindow, A_OTHER_MARKER);
  return {
    bCorporateLocation: corporate!.id,
    bWindow,
    bCaptain: captain!.id,
    bSubscription: b.subscription,
    bSuborder: b.suborder,
    bMealOrder: b.mealOrder,
    bComplaint: b.complaint,
    bConnection: connection!.id,
    bListing: listing!.id,
    aMeals,
    aWindow,
    aOther,
  };
}
