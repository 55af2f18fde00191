/**
 * The contract and abuse suite: walks the OpenAPI document and tries every protected operation
 * the way a careless or hostile client would. It grows by itself as routes land; a route without
 * its permission, its declared responses or a tenant probe fails here.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/core/crypto";
import { PERMISSIONS } from "../../src/core/permissions";
import { bankAccounts, storeSettings } from "../../src/modules/account/tables";
import {
  customerLocations,
  customerMemberships,
  customerNotifications,
  customers,
  fcmTokens,
  notifications,
  walletEntries,
} from "../../src/modules/customers/tables";
import {
  bundleCategories,
  itemCategories,
  itemCategoryLinks,
  itemConfig,
  itemTags,
  modifierCategories,
  modifierValues,
} from "../../src/modules/items/tables";
import { complaints } from "../../src/modules/meal-orders/complaints/tables";
import { captains } from "../../src/modules/meal-orders/logistics/tables";
import { mealOrders, mealSubscriptions, suborders } from "../../src/modules/meal-orders/tables";
import {
  allergens,
  combos,
  corporateLocations,
  deliveryWindows,
  deliveryZones,
  mealAppConfigs,
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
} from "../../src/modules/meals/tables";
import { fulfillments } from "../../src/modules/orders/fulfillments/tables";
import { recurringPurchases } from "../../src/modules/orders/recurring/tables";
import { subscriptions, subscriptionUpdates } from "../../src/modules/orders/subscriptions/tables";
import {
  cartItems,
  carts,
  checkoutConfig,
  invoiceConfig,
  invoiceItems,
  invoices,
  orderItems,
  orders,
  savedPaymentMethods,
  storeWalletEntries,
  transactions,
} from "../../src/modules/orders/tables";
import { channelConnections, channelPlanListings, channelProfiles } from "../../src/modules/sales-channels/tables";
import { shippingLabels } from "../../src/modules/shipping/labels/tables";
import { couriers, pickupLocations, shipmentFulfillments, shipments } from "../../src/modules/shipping/tables";
import { vouchers } from "../../src/modules/vouchers/tables";
import { sharedAuthCases, sharedCustomerAuthCases } from "../helpers/auth-cases";
import {
  createCustomerFor,
  createPlainItem,
  createTicketsFor,
  createWebhookFor,
  customerTokenFor,
  db,
  ensureTenant,
  tokenFor,
} from "../helpers/factories";
import {
  deref,
  type JsonSchema,
  minimalValue,
  type Operation,
  openApiDocument,
  operations,
  validate,
} from "../helpers/openapi";
import { call } from "../helpers/request";

const doc = openApiDocument();
const all = operations(doc);
const guarded = all.filter((o) => o.op.security?.length);
/** The public operations of the interface: no token, only `app-id` (or a signed link); checked alike but for auth. */
const open = all.filter((o) => !o.op.security?.length && o.op["x-spec-id"]);
const checked = [...guarded.map((o) => ({ ...o, isPublic: false })), ...open.map((o) => ({ ...o, isPublic: true }))];

// This suite's own tenants, so that its "nothing was written" checks see no other file's writes.
const A = 31;
const B = 32;
const MARKER = "TENANT-B-PRIVATE";

let cases = 0;
afterAll(() => {
  console.info(
    `contract suite: ${all.length} operations in the document, ${guarded.length} protected, ${open.length} public; ${cases} abuse cases sent`,
  );
});

type Meals = {
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
type Fixtures = {
  bTicket: { id: number; token: string };
  bWebhook: { id: number; url: string };
  /** A delivery of B's webhook on the ledger (`<event id>.<webhook id>`). */
  bDelivery: string;
  bModifier: number;
  bBundle: number;
  bItem: number;
  bCategory: number;
  bTag: number;
  meals: Meals;
  /** A customer of A (for customer-token operations), and B's customer with a location and a membership. */
  customers: { a: number; b: number; bLocation: number };
  /** The customer app's records (CA6–CA9, MN1): B's, and those of another customer of A. */
  app: AppRecords;
  /** Commerce records (orders, vouchers, account): B's, and those of another customer of A. */
  commerce: Commerce;
  /** Meal subscriptions, logistics and sales channels: B's, and those of another customer of A. */
  mealCommerce: MealCommerce;
};

/** One record of each meals table for tenant B, named with the marker. */
const mealsOfB = () => mealsOf(B, MARKER);

/** One record of each meals table for a store, named with `marker`. */
async function mealsOf(appId: number, marker: string): Promise<Meals> {
  const named = { appId, nameEn: marker, nameAr: marker };
  const [r] = await db()
    .insert(restaurants)
    .values({ ...named, restType: "both", subtitleEn: marker })
    .returning();
  const [branch] = await db()
    .insert(restaurantBranches)
    .values({ ...named, restaurantId: r!.id, cityId: 1, lat: 24.7, lng: 46.7, address1: marker })
    .returning();
  const [menu] = await db()
    .insert(menus)
    .values({ ...named, restaurantId: r!.id })
    .returning();
  const [menuCategory] = await db()
    .insert(menuCategories)
    .values({ ...named, menuId: menu!.id })
    .returning();
  const [product] = await db()
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
  const [combo] = await db()
    .insert(combos)
    .values({ ...named, restaurantId: r!.id, categoryId: menuCategory!.id, priceMinor: 100, productIds: [product!.id] })
    .returning();
  const [category] = await db().insert(restaurantCategories).values(named).returning();
  const [allergen] = await db()
    .insert(allergens)
    .values({ ...named, kind: "allergy" })
    .returning();
  const [variant] = await db()
    .insert(restaurantVariants)
    .values({ ...named, restaurantId: r!.id })
    .returning();
  const [tag] = await db()
    .insert(planTags)
    .values({ appId, typeEn: marker, typeAr: marker, tagEn: marker, tagAr: marker })
    .returning();
  const [plan] = await db()
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
  const [version] = await db()
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
  const [day] = await db()
    .insert(planDays)
    .values({ appId, planId: plan!.id, restaurantId: r!.id, day: marker, repetitionCounter: 1 })
    .returning();
  const [planCategory] = await db()
    .insert(planCategories)
    .values({ ...named, planId: plan!.id, planDayId: day!.id })
    .returning();
  const [option] = await db()
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
/** Tenant A's customer, and tenant B's with a location and a membership, named with the marker. */
async function customersOfAB(): Promise<Fixtures["customers"]> {
  const [a] = await db()
    .insert(customers)
    .values({ appId: A, countryCode: "966", mobileNumber: "966500000031", username: "0500000031" })
    .returning();
  const [b] = await db()
    .insert(customers)
    .values({
      appId: B,
      countryCode: "966",
      mobileNumber: "966500000032",
      username: "0500000032",
      name: MARKER,
      email: "private@tenant-b.example",
    })
    .returning();
  const [bLocation] = await db()
    .insert(customerLocations)
    .values({ appId: B, customerId: b!.id, nameEn: MARKER, nameAr: MARKER, latitude: 24.7, longitude: 46.7, cityId: 1 })
    .returning();
  await db()
    .insert(customerMemberships)
    .values({ appId: B, customerId: b!.id, nameEn: MARKER, nameAr: MARKER, startDate: "2026-11-01" });
  return { a: a!.id, b: b!.id, bLocation: bLocation!.id };
}
/** What the customer-app probes name: a device, a location and a received notification of each. */
type AppRecords = {
  bToken: string;
  bNotification: number;
  bReceived: number;
  aOther: number;
  aOtherToken: string;
  aOtherLocation: number;
  aOtherReceived: number;
};
/** Marks the records of another customer of tenant A, which A's customers must never see. */
const A_OTHER_MARKER = "CUSTOMER-A2-PRIVATE";

/** A device, a notification and its received copy for a customer of B; the same, and a location, for A's other. */
async function appRecordsOf(): Promise<AppRecords> {
  const bCustomer = (await createCustomerFor(B, { name: MARKER })).id;
  const aOther = await createCustomerFor(A, { name: A_OTHER_MARKER, email: "a2-private@tenant-a.example" });
  const device = (appId: number, customerId: number, token: string) =>
    db().insert(fcmTokens).values({ appId, customerId, token, platform: "ios" });
  const bToken = "tenant-b-device-token-0123456789";
  const aOtherToken = "tenant-a-other-device-token-0123456789";
  await device(B, bCustomer, bToken);
  await device(A, aOther.id, aOtherToken);
  const notify = async (appId: number, customerId: number, marker: string) => {
    const texts = { titleEn: marker, titleAr: marker, bodyEn: marker, bodyAr: marker };
    const [n] = await db()
      .insert(notifications)
      .values({ appId, ...texts, audience: { customer_ids: [customerId] }, status: "sent", recipientsCount: 1 })
      .returning();
    const [r] = await db()
      .insert(customerNotifications)
      .values({ appId, notificationId: n!.id, customerId, ...texts })
      .returning();
    return { notification: n!.id, received: r!.id };
  };
  const b = await notify(B, bCustomer, MARKER);
  const a = await notify(A, aOther.id, A_OTHER_MARKER);
  const [location] = await db()
    .insert(customerLocations)
    .values({
      appId: A,
      customerId: aOther.id,
      nameEn: A_OTHER_MARKER,
      nameAr: A_OTHER_MARKER,
      latitude: 24.7,
      longitude: 46.7,
    })
    .returning();
  return {
    bToken,
    bNotification: b.notification,
    bReceived: b.received,
    aOther: aOther.id,
    aOtherToken,
    aOtherLocation: location!.id,
    aOtherReceived: a.received,
  };
}
/** A customer's cart with a line of `itemId`, and an order with a line; text fields carry `marker`. */
async function cartAndOrder(
  appId: number,
  customerId: number,
  itemId: number,
  marker: string,
  order: Partial<typeof orders.$inferInsert>,
) {
  const at = new Date().toISOString();
  const note = { customFields: { note: marker }, notes: marker };
  const [cart] = await db()
    .insert(carts)
    .values({ appId, customerId, ...note, quotedTotalMinor: 2_500 })
    .returning();
  await db()
    .insert(cartItems)
    .values({ appId, cartId: cart!.id, itemId, qty: 1, unitPriceMinor: 2_500, createdAt: at });
  const [o] = await db()
    .insert(orders)
    .values({
      appId,
      customerId,
      cartId: cart!.id,
      currency: "SAR",
      subTotalMinor: 2_500,
      totalMinor: 2_500,
      ...note,
      ...order,
    })
    .returning();
  const line = { appId, nameEn: marker, nameAr: marker, qty: 1, amountMinor: 2_500, totalMinor: 2_500, createdAt: at };
  const tax = { taxPercentageBp: 1_500, taxMinor: 326, totalExcludingTaxMinor: 2_174 };
  const [orderLine] = await db()
    .insert(orderItems)
    .values({ ...line, ...tax, orderId: o!.id, itemId, unitPriceMinor: 2_500 })
    .returning();
  return { cart: cart!.id, order: o!.id, orderLine: orderLine!.id, line, tax };
}

/** A recurring purchase of a customer's cart, and a card the customer saved, both carrying `marker`. */
async function recurringAndCard(appId: number, customerId: number, cartId: number, marker: string) {
  const [recurring] = await db()
    .insert(recurringPurchases)
    .values({
      appId,
      customerId,
      cartId,
      status: "active",
      duration: 1,
      durationUnit: "month",
      nextOrderDate: "2030-01-01",
      customFields: { note: marker },
    })
    .returning();
  const [card] = await db()
    .insert(savedPaymentMethods)
    .values({
      appId,
      customerId,
      gateway: "fake",
      brand: marker,
      last4: "4242",
      expiryMonth: 12,
      expiryYear: 2040,
      token: `tok-${marker}`,
    })
    .returning();
  return { recurring: recurring!.id, card: card!.id };
}

type Commerce = {
  /** B's voucher: featured, its titles the marker, its code not (answers echo the code A sends). */
  bVoucher: { id: number; code: string };
  bBankAccount: number;
  /** B's IBAN (valid), which A may register as its own. */
  bIban: string;
  bWalletEntry: number;
  bCart: number;
  /** B's completed, paid order, and its paid invoice (with a serial): refundable. */
  bOrder: number;
  bInvoice: number;
  /** A bank transfer waiting for review, of another (pending) order of B's: capturable. */
  bTransaction: number;
  bRecurring: number;
  bCard: number;
  /** An item of A's, for bodies that must name one. */
  aItem: number;
  /** A fulfillment of B's paid order. */
  bFulfillment: number;
  /** B's custom courier, pickup location, and a shipment of its paid order. */
  bShipping: { courier: number; pickupLocation: number; shipment: number; label: number };
  /** B's active subscription (of its paid order) with a pending update. */
  bSubscription: { id: number; update: number };
  /** The same records of another customer of A (marked A_OTHER_MARKER). */
  aOther: { cart: number; order: number; recurring: number; card: number; fulfillment: number; subscription: number };
};

/**
 * Tenant B's commerce records, each naming the marker: a voucher, a bank account, settings and
 * configs, a store wallet entry, a cart, orders, an invoice, a transaction, a recurring purchase
 * and a saved card of B's customer. And the same of another customer of A's.
 */
async function commerceOf(f: Omit<Fixtures, "commerce" | "mealCommerce">): Promise<Commerce> {
  const bCustomer = f.customers.b;
  // B's item in B's category: a catalogue read of A filtering on that category must find nothing.
  await db().insert(itemCategoryLinks).values({ appId: B, itemId: f.bItem, categoryId: f.bCategory });
  const code = "TENANTBPRIVATE";
  const [voucher] = await db()
    .insert(vouchers)
    .values({
      appId: B,
      code,
      titleEn: MARKER,
      titleAr: MARKER,
      kind: "percentage",
      value: 1_000,
      isFeatured: true,
      customFields: { note: MARKER },
    })
    .returning();
  // B's organization, which A's token names in `org-id` (Organization Config).
  await env.DB.prepare("UPDATE organizations SET name = ? WHERE id = ?").bind(MARKER, B).run();
  const bIban = "SA0380000000608010167519";
  const [bank] = await db()
    .insert(bankAccounts)
    .values({ appId: B, bankNameEn: MARKER, bankNameAr: MARKER, iban: bIban, accountHolder: MARKER, isDefault: true })
    .returning();
  await db()
    .insert(storeSettings)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER, sellerName: MARKER, address: MARKER, timezone: "Asia/Dubai" });
  await db()
    .insert(checkoutConfig)
    .values({ appId: B, bankTransferInstructionsEn: MARKER, bankTransferInstructionsAr: MARKER });
  await db().insert(invoiceConfig).values({ appId: B, serialPrefix: "BPRIV-", footerEn: MARKER, footerAr: MARKER });
  const [entry] = await db()
    .insert(storeWalletEntries)
    .values({
      appId: B,
      type: "credit",
      source: "adjustment",
      amountMinor: 99_900,
      balanceAfterMinor: 99_900,
      reference: MARKER,
      createdAt: new Date().toISOString(),
    })
    .returning();
  const paid = await cartAndOrder(B, bCustomer, f.bItem, MARKER, {
    status: "completed",
    paymentStatus: "paid",
    paymentProvider: "bank_transfer",
    capturedMinor: 2_500,
    paidAt: new Date().toISOString(),
  });
  const issued = new Date().toISOString();
  const [invoice] = await db()
    .insert(invoices)
    .values({
      appId: B,
      orderId: paid.order,
      customerId: bCustomer,
      status: "paid",
      serial: "BPRIV-1",
      issuedAt: issued,
      currency: "SAR",
      subTotalMinor: 2_500,
      totalMinor: 2_500,
      totalExcludingTaxMinor: 2_174,
      taxMinor: 326,
      taxPercentageBp: 1_500,
      paymentProvider: "bank_transfer",
      sellerName: MARKER,
      customFields: { note: MARKER },
    })
    .returning();
  await db()
    .insert(invoiceItems)
    .values({ ...paid.line, ...paid.tax, invoiceId: invoice!.id, orderItemId: paid.orderLine, itemId: f.bItem });
  const pending = await cartAndOrder(B, bCustomer, f.bItem, MARKER, {
    paymentStatus: "pending_review",
    paymentProvider: "bank_transfer",
  });
  const [transaction] = await db()
    .insert(transactions)
    .values({
      appId: B,
      orderId: pending.order,
      type: "payment",
      status: "pending_review",
      amountMinor: 2_500,
      currency: "SAR",
      paymentProvider: "bank_transfer",
      receiptUrl: `https://cdn.example.com/${MARKER}.jpg`,
      customFields: { note: MARKER },
    })
    .returning();
  const bRecurring = await recurringAndCard(B, bCustomer, paid.cart, MARKER);
  // Another customer of A: a cart, an order, a recurring purchase and a card that A's customers must not reach.
  const aItem = (await createPlainItem(A)).id;
  const other = await cartAndOrder(A, f.app.aOther, aItem, A_OTHER_MARKER, {});
  const otherRecurring = await recurringAndCard(A, f.app.aOther, other.cart, A_OTHER_MARKER);
  // The fixture orders are inserted directly, so their fulfillments are too (payment would create them).
  const fulfillmentOf = async (
    appId: number,
    order: { order: number; orderLine: number },
    customerId: number,
    marker: string,
    itemId: number,
  ) => {
    const [row] = await db()
      .insert(fulfillments)
      .values({
        appId,
        orderId: order.order,
        orderItemId: order.orderLine,
        itemId,
        customerId,
        nameEn: marker,
        nameAr: marker,
        type: "delivery",
        qty: 1,
        totalAmountMinor: 100,
        customerName: marker,
        notes: marker,
      })
      .returning();
    return row!.id;
  };
  const bFulfillment = await fulfillmentOf(B, paid, bCustomer, MARKER, f.bItem);
  const otherFulfillment = await fulfillmentOf(A, other, f.app.aOther, A_OTHER_MARKER, aItem);
  const subscriptionOf = async (appId: number, orderId: number, customerId: number, itemId: number, marker: string) => {
    const [row] = await db()
      .insert(subscriptions)
      .values({
        appId,
        customerId,
        itemId,
        orderId,
        nameEn: marker,
        nameAr: marker,
        status: "active",
        unitPriceMinor: 2_500,
        currency: "SAR",
        duration: 1,
        durationUnit: "month",
        startDate: "2026-11-01",
        currentPeriodStartDate: "2026-11-01",
        currentPeriodEndDate: "2026-12-01",
        nextBillingDate: "2026-12-01",
        usageCounter: 1,
        usageLimit: 10,
        cancellationReason: marker,
      })
      .returning();
    return row!.id;
  };
  const bSubscription = await subscriptionOf(B, paid.order, bCustomer, f.bItem, MARKER);
  const otherSubscription = await subscriptionOf(A, other.order, f.app.aOther, aItem, A_OTHER_MARKER);
  const [bUpdate] = await db()
    .insert(subscriptionUpdates)
    .values({ appId: B, subscriptionId: bSubscription, effective: "next_period", changes: { price_minor: 3_000 } })
    .returning();
  const [courier] = await db()
    .insert(couriers)
    .values({ appId: B, type: "custom", nameEn: MARKER, nameAr: MARKER, coverageCities: [1] })
    .returning();
  const [pickup] = await db()
    .insert(pickupLocations)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER, address1: MARKER, lat: 24.7, lng: 46.7, cityId: 1 })
    .returning();
  const place = { name: MARKER, address1: MARKER, city_id: 1, district_id: null, lat: 24.7, lng: 46.7, phone: null };
  const [shipment] = await db()
    .insert(shipments)
    .values({
      appId: B,
      orderId: paid.order,
      courierId: courier!.id,
      service: "standard",
      origin: { ...place, pickup_location_id: pickup!.id },
      destination: place,
      packages: [{ weight_g: 1_000, length_cm: 10, width_cm: 10, height_cm: 10 }],
      weightG: 1_000,
      currency: "SAR",
      status: "delivered",
      notes: MARKER,
    })
    .returning();
  await db()
    .insert(shipmentFulfillments)
    .values({ appId: B, shipmentId: shipment!.id, fulfillmentId: bFulfillment, orderItemId: paid.orderLine });
  const [label] = await db()
    .insert(shippingLabels)
    .values({
      appId: B,
      shipmentId: shipment!.id,
      orderId: paid.order,
      courierId: courier!.id,
      trackingNumber: "TRBPRIVATE0001",
      costMinor: 2_000,
      currency: "SAR",
    })
    .returning();
  return {
    bVoucher: { id: voucher!.id, code },
    bBankAccount: bank!.id,
    bIban,
    bWalletEntry: entry!.id,
    bCart: pending.cart,
    bOrder: paid.order,
    bInvoice: invoice!.id,
    bTransaction: transaction!.id,
    bRecurring: bRecurring.recurring,
    bCard: bRecurring.card,
    aItem,
    bFulfillment,
    bSubscription: { id: bSubscription, update: bUpdate!.id },
    bShipping: { courier: courier!.id, pickupLocation: pickup!.id, shipment: shipment!.id, label: label!.id },
    aOther: {
      cart: other.cart,
      order: other.order,
      recurring: otherRecurring.recurring,
      card: otherRecurring.card,
      fulfillment: otherFulfillment,
      subscription: otherSubscription,
    },
  };
}

/** A third store, the other side of B's sales-channel connection (never A: both sides see one). */
const X = 33;

type MealCommerce = {
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
  const [sub] = await db()
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
  const [suborder] = await db()
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
  const [order] = await db()
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
  const [complaint] = await db()
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
  await db()
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
  const [w] = await db()
    .insert(deliveryWindows)
    .values({ appId, restaurantId, fromTime: "06:00:00", toTime: "09:00:00", type: "both", tag: marker })
    .returning();
  return w!.id;
}

/**
 * Tenant B's meal-commerce, logistics and sales-channel records, each naming the marker where it has
 * text; the meal records of another customer of A (on a catalogue of A's with neutral names).
 */
async function mealCommerceOf(f: Omit<Fixtures, "mealCommerce">): Promise<MealCommerce> {
  await ensureTenant(X);
  // B's plan is featured: a featured read of A must still not show it.
  await env.DB.prepare("UPDATE plans SET is_featured = 1 WHERE id = ?").bind(f.meals.plan).run();
  const [corporate] = await db()
    .insert(corporateLocations)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER, companyName: MARKER, cityId: 1, lat: 24.7, lng: 46.7 })
    .returning();
  await db()
    .insert(mealAppConfigs)
    .values({
      appId: B,
      contactEmail: "b@x.example",
      customFields: { m: MARKER },
      modifiedAt: "2026-01-01T00:00:00Z",
    });
  const bWindow = await zoneAndWindow(B, f.meals.restaurant, MARKER);
  const [captain] = await db()
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
  await db()
    .insert(channelProfiles)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER, descriptionEn: MARKER, contactName: MARKER });
  const xMeals = await mealsOf(X, "STORE-X");
  const at = new Date().toISOString();
  const [connection] = await db()
    .insert(channelConnections)
    .values({ appId: B, channelAppId: B, providerAppId: X, status: "active", message: MARKER, requestedAt: at })
    .returning();
  const [listing] = await db()
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

/** Everything of one customer that the customer app can change: what a probe of another customer must leave. */
async function otherCustomerRows(customerId: number): Promise<string> {
  const parts = await env.DB.batch(
    [
      "customers WHERE id = ?",
      "fcm_tokens WHERE customer_id = ?",
      "customer_locations WHERE customer_id = ?",
      "customer_notifications WHERE customer_id = ?",
      "wallet_entries WHERE customer_id = ?",
      "carts WHERE customer_id = ?",
      "cart_items WHERE cart_id IN (SELECT id FROM carts WHERE customer_id = ?)",
      "orders WHERE customer_id = ?",
      "recurring_purchases WHERE customer_id = ?",
      "saved_payment_methods WHERE customer_id = ?",
      "fulfillments WHERE customer_id = ?",
      "subscriptions WHERE customer_id = ?",
      "voucher_usages WHERE customer_id = ?",
      "meal_subscriptions WHERE customer_id = ?",
      "suborders WHERE customer_id = ?",
      "meal_orders WHERE customer_id = ?",
      "meal_complaints WHERE customer_id = ?",
    ].map((from) => env.DB.prepare(`SELECT * FROM ${from} ORDER BY rowid`).bind(customerId)),
  );
  return JSON.stringify(parts.map((p) => p.results));
}
let fx: Fixtures;

/** A failed delivery of B's webhook on the ledger, which A may neither list nor resend. */
async function deliveryOfB(webhookId: number): Promise<string> {
  const eventId = `evt_${"b".repeat(32)}`;
  const now = new Date().toISOString();
  await env.DB.prepare(
    "INSERT INTO webhook_deliveries (app_id, webhook_id, event_id, event, status, attempts, created_at, updated_at) " +
      "VALUES (?, ?, ?, 'ticket.updated', 'failed', 10, ?, ?)",
  )
    .bind(B, webhookId, eventId, now, now)
    .run();
  return `${eventId}.${webhookId}`;
}
const B_REFRESH_TOKEN = `crt_${"b".repeat(43)}`;

beforeAll(async () => {
  await ensureTenant(A);
  await ensureTenant(B);
  const bItem = await createPlainItem(B, { nameEn: MARKER, nameAr: MARKER });
  const [bTicket] = await createTicketsFor(B, bItem.id, 1, {
    nameEn: MARKER,
    customerEmail: "private@tenant-b.example",
  });
  const bWebhook = await createWebhookFor(B, {
    url: `https://hooks.${MARKER.toLowerCase()}.example.org/in`,
    headers: { "X-Marker": MARKER },
  });
  const [bModifier] = await db()
    .insert(modifierCategories)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER })
    .returning();
  await db().insert(modifierValues).values({ appId: B, categoryId: bModifier!.id, nameEn: MARKER, nameAr: MARKER });
  const [bBundle] = await db()
    .insert(bundleCategories)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER })
    .returning();
  const [bCategory] = await db()
    .insert(itemCategories)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER })
    .returning();
  const [bTag] = await db().insert(itemTags).values({ appId: B, nameEn: MARKER, nameAr: MARKER }).returning();
  await db()
    .insert(itemConfig)
    .values({ appId: B, reservationMinutes: 59, maxReservationQty: 999, modifiedAt: new Date().toISOString() });
  const records = {
    bTicket: bTicket!,
    bWebhook,
    bDelivery: await deliveryOfB(bWebhook.id),
    bModifier: bModifier!.id,
    bBundle: bBundle!.id,
    bItem: bItem.id,
    bCategory: bCategory!.id,
    bTag: bTag!.id,
    meals: await mealsOfB(),
    customers: await customersOfAB(),
    app: await appRecordsOf(),
  };
  const withCommerce = { ...records, commerce: await commerceOf(records) };
  fx = { ...withCommerce, mealCommerce: await mealCommerceOf(withCommerce) };
  // Tenant B's wallet: a deposit whose reason is the marker.
  const bWallet = { appId: B, customerId: fx.customers.b, amount: 5, balanceAfter: 5, reason: MARKER };
  await db()
    .insert(walletEntries)
    .values({ ...bWallet, kind: "points", type: "deposit" });
  // Tenant B's customer's refresh token, which tenant A presents to Refresh Access Token.
  await env.DB.prepare(
    "INSERT INTO refresh_tokens (app_id, customer_id, family_id, token_hash, expires_at) " +
      "VALUES (?, ?, 'b-family', ?, '2100-01-01T00:00:00.000Z')",
  )
    .bind(B, fx.customers.b, await sha256Hex(B_REFRESH_TOKEN))
    .run();
});

/** A request's parts that name records: `orgId` replaces A's own `org-id` where the operation takes one. */
type Probe = (f: Fixtures) => { query?: string; body?: unknown; path?: Record<string, string>; orgId?: number };

/**
 * For each operation, a request of tenant A that names tenant B's records. Every protected
 * operation needs one: this is how the suite checks object-level authorisation.
 */
/** Meal checkout by pickup at B's branch: the bodies that name B's plan version reach no further than it. */
const bPickup = (f: Fixtures) => ({ is_pickup: true, pickup_branch_id: f.meals.branch });
/** Meal checkout delivered to A's other customer's location in A's window, by A's own customer. */
const aOtherDelivery = (f: Fixtures) => ({
  delivery_window_id: f.mealCommerce.aWindow,
  primary_location_id: f.app.aOtherLocation,
});

const TENANT_PROBES: Record<string, Probe> = {
  listTickets: (f) => ({ query: `?id=${f.bTicket.id}` }),
  bulkUpdateTickets: (f) => ({ body: { ids: [f.bTicket.id], status: "cancelled" } }),
  checkInTicket: (f) => ({ body: { token: f.bTicket.token } }),
  listWebhooks: (f) => ({ query: `?id=${f.bWebhook.id}` }),
  createWebhook: () => ({ body: { url: "https://hooks.tenant-a.example.org/in", events: ["ticket.created"] } }),
  deleteWebhooksByUrl: (f) => ({ query: `?url=${encodeURIComponent(f.bWebhook.url)}` }),
  listWebhookLogs: (f) => ({ query: `?webhook=${f.bWebhook.id}` }),
  updateWebhook: (f) => ({ path: { webhook_id: String(f.bWebhook.id) }, body: { is_active: false } }),
  deleteWebhook: (f) => ({ path: { webhook_id: String(f.bWebhook.id) } }),
  testWebhook: (f) => ({ path: { webhook_id: String(f.bWebhook.id) } }),
  rotateWebhookSecret: (f) => ({ path: { webhook_id: String(f.bWebhook.id) } }),
  listWebhookDeliveries: (f) => ({ query: `?webhook=${f.bWebhook.id}` }),
  resendWebhookDelivery: (f) => ({ path: { delivery_id: f.bDelivery } }),
  recoverWebhook: (f) => ({
    path: { webhook_id: String(f.bWebhook.id) },
    body: { since: "2020-01-01T00:00:00Z" },
  }),
  listModifierCategories: (f) => ({ query: `?id=${f.bModifier}` }),
  getModifierCategory: (f) => ({ path: { category_id: String(f.bModifier) } }),
  createModifierCategory: () => ({
    body: { name_en: "Size", name_ar: "الحجم", values: [{ name_en: "S", name_ar: "ص" }] },
  }),
  updateModifierCategory: (f) => ({ path: { category_id: String(f.bModifier) }, body: { name_en: "Taken" } }),
  deleteModifierCategory: (f) => ({ path: { category_id: String(f.bModifier) } }),
  listBundleCategories: (f) => ({ query: `?id=${f.bBundle}` }),
  getBundleCategory: (f) => ({ path: { category_id: String(f.bBundle) } }),
  createBundleCategory: () => ({ body: { name_en: "Sides", name_ar: "أطباق جانبية" } }),
  updateBundleCategory: (f) => ({ path: { category_id: String(f.bBundle) }, body: { name_en: "Taken" } }),
  deleteBundleCategory: (f) => ({ path: { category_id: String(f.bBundle) } }),
  listItems: (f) => ({ query: `?id=${f.bItem}` }),
  getItem: (f) => ({ path: { item_id: String(f.bItem) } }),
  createItem: () => ({
    body: { type: "product", service_type: "pickup", sku: `A-${Date.now()}`, price: 1, name_en: "Tea", name_ar: "شاي" },
  }),
  updateItem: (f) => ({ path: { item_id: String(f.bItem) }, body: { price: 0 } }),
  deleteItem: (f) => ({ path: { item_id: String(f.bItem) } }),
  reserveItem: (f) => ({ path: { item_id: String(f.bItem) }, body: { qty: 1 } }),
  purchaseItem: (f) => ({ path: { item_id: String(f.bItem) }, body: { qty: 1 } }),
  listItemCategories: (f) => ({ query: `?id=${f.bCategory}` }),
  getItemCategory: (f) => ({ path: { category_id: String(f.bCategory) } }),
  createItemCategory: () => ({ body: { name_en: "Drinks", name_ar: "مشروبات" } }),
  updateItemCategory: (f) => ({ path: { category_id: String(f.bCategory) }, body: { name_en: "Taken" } }),
  deleteItemCategory: (f) => ({ path: { category_id: String(f.bCategory) } }),
  getItemDiscount: (f) => ({ path: { item_id: String(f.bItem) } }),
  createItemDiscount: (f) => ({ path: { item_id: String(f.bItem) }, body: { kind: "percentage", value: 10 } }),
  updateItemDiscount: (f) => ({ path: { item_id: String(f.bItem) }, body: { value: 5 } }),
  deleteItemDiscount: (f) => ({ path: { item_id: String(f.bItem) } }),
  createItemImage: (f) => ({ path: { item_id: String(f.bItem) }, body: { url: "https://cdn.example.com/a.jpg" } }),
  updateItemImage: (f) => ({ path: { item_id: String(f.bItem), image_id: "1" }, body: { alt_en: "x" } }),
  deleteItemImage: (f) => ({ path: { item_id: String(f.bItem), image_id: "1" } }),
  listItemTags: (f) => ({ query: `?id=${f.bTag}` }),
  createItemTag: () => ({ body: { name_en: "New", name_ar: "جديد" } }),
  updateItemTag: (f) => ({ path: { tag_id: String(f.bTag) }, body: { name_en: "Taken" } }),
  deleteItemTag: (f) => ({ path: { tag_id: String(f.bTag) } }),
  // Tenant B's settings (59 minutes, 999 units) must not show to A.
  getItemConfig: () => ({}),
  updateItemConfig: () => ({ body: { reservation_minutes: 20 } }),
  bulkUpdateItems: (f) => ({ body: { items: [{ id: f.bItem, name_en: "Taken" }] } }),
  bulkUpdateItemPrices: (f) => ({ body: { items: [{ id: f.bItem, price: 0 }] } }),
  // Meals: every write names one of B's records, in the path or in the body.
  createRestaurant: () => ({ body: { name_en: "Mine", name_ar: "لي", rest_type: "both" } }),
  updateRestaurant: (f) => ({ path: { restaurant_id: String(f.meals.restaurant) }, body: { name_en: "Taken" } }),
  deleteRestaurant: (f) => ({ path: { restaurant_id: String(f.meals.restaurant) } }),
  createRestaurantBranch: (f) => ({
    path: { restaurant_id: String(f.meals.restaurant) },
    body: { name_en: "Mine", name_ar: "لي", city_id: 1, lat: 1, lng: 1 },
  }),
  updateRestaurantBranch: (f) => ({ path: { branch_id: String(f.meals.branch) }, body: { name_en: "Taken" } }),
  deleteRestaurantBranch: (f) => ({ path: { branch_id: String(f.meals.branch) } }),
  createMenu: (f) => ({ body: { restaurant_id: f.meals.restaurant, name_en: "Mine", name_ar: "لي" } }),
  updateMenu: (f) => ({ path: { menu_id: String(f.meals.menu) }, body: { name_en: "Taken" } }),
  deleteMenu: (f) => ({ path: { menu_id: String(f.meals.menu) } }),
  createMenuCategory: (f) => ({ path: { menu_id: String(f.meals.menu) }, body: { name_en: "Mine", name_ar: "لي" } }),
  updateMenuCategory: (f) => ({ path: { category_id: String(f.meals.menuCategory) }, body: { name_en: "Taken" } }),
  deleteMenuCategory: (f) => ({ path: { category_id: String(f.meals.menuCategory) } }),
  createMealProduct: (f) => ({ body: { restaurant_id: f.meals.restaurant, name_en: "Mine", name_ar: "لي", price: 1 } }),
  updateMealProduct: (f) => ({ path: { product_id: String(f.meals.product) }, body: { price: 0 } }),
  deleteMealProduct: (f) => ({ path: { product_id: String(f.meals.product) } }),
  createPlan: (f) => ({
    body: {
      restaurant_id: f.meals.restaurant,
      menu_id: f.meals.menu,
      name_en: "Mine",
      name_ar: "لي",
      daily_num_of_items: 1,
      subscription_type: "daily",
      repetition: 1,
      size: { title: "S", protein_amount: 1 },
    },
  }),
  updatePlan: (f) => ({ path: { plan_id: String(f.meals.plan) }, body: { name_en: "Taken" } }),
  deletePlan: (f) => ({ path: { plan_id: String(f.meals.plan) } }),
  createPlanVersion: (f) => ({
    path: { plan_id: String(f.meals.plan) },
    body: {
      min_start_date: "2027-01-01",
      max_start_date: "2027-02-01",
      num_of_days: 1,
      total_num_of_items: 1,
      original_price: 1,
    },
  }),
  updatePlanVersion: (f) => ({ path: { version_id: String(f.meals.version) }, body: { num_of_days: 2 } }),
  deletePlanVersion: (f) => ({ path: { version_id: String(f.meals.version) } }),
  createPlanDay: (f) => ({ path: { plan_id: String(f.meals.plan) }, body: { day: "Mine", repetition_counter: 1 } }),
  updatePlanDay: (f) => ({ path: { day_id: String(f.meals.day) }, body: { day: "Taken" } }),
  deletePlanDay: (f) => ({ path: { day_id: String(f.meals.day) } }),
  createPlanCategory: (f) => ({ path: { day_id: String(f.meals.day) }, body: { name_en: "Mine", name_ar: "لي" } }),
  updatePlanCategory: (f) => ({ path: { category_id: String(f.meals.planCategory) }, body: { name_en: "Taken" } }),
  deletePlanCategory: (f) => ({ path: { category_id: String(f.meals.planCategory) } }),
  createPlanOption: (f) => ({
    path: { category_id: String(f.meals.planCategory) },
    body: { product_id: f.meals.product },
  }),
  updatePlanOption: (f) => ({ path: { option_id: String(f.meals.option) }, body: { is_active: false } }),
  deletePlanOption: (f) => ({ path: { option_id: String(f.meals.option) } }),
  createCombo: (f) => ({
    path: { category_id: String(f.meals.menuCategory) },
    body: { name_en: "Mine", name_ar: "لي", price: 1, product_ids: [f.meals.product] },
  }),
  updateCombo: (f) => ({ path: { combo_id: String(f.meals.combo) }, body: { name_en: "Taken" } }),
  deleteCombo: (f) => ({ path: { combo_id: String(f.meals.combo) } }),
  createRestaurantCategory: () => ({ body: { name_en: "Mine", name_ar: "لي" } }),
  updateRestaurantCategory: (f) => ({ path: { category_id: String(f.meals.category) }, body: { name_en: "Taken" } }),
  deleteRestaurantCategory: (f) => ({ path: { category_id: String(f.meals.category) } }),
  createRestaurantVariant: (f) => ({
    path: { restaurant_id: String(f.meals.restaurant) },
    body: { name_en: "Mine", name_ar: "لي" },
  }),
  updateRestaurantVariant: (f) => ({ path: { variant_id: String(f.meals.variant) }, body: { name_en: "Taken" } }),
  deleteRestaurantVariant: (f) => ({ path: { variant_id: String(f.meals.variant) } }),
  createAllergenDislike: () => ({ body: { kind: "dislike", name_en: "Mine", name_ar: "لي" } }),
  updateAllergenDislike: (f) => ({ path: { allergen_id: String(f.meals.allergen) }, body: { name_en: "Taken" } }),
  deleteAllergenDislike: (f) => ({ path: { allergen_id: String(f.meals.allergen) } }),
  createPlanTag: () => ({ body: { type_en: "Goal", type_ar: "الهدف", tag_en: "Mine", tag_ar: "لي" } }),
  updatePlanTag: (f) => ({ path: { tag_id: String(f.meals.tag) }, body: { tag_en: "Taken" } }),
  deletePlanTag: (f) => ({ path: { tag_id: String(f.meals.tag) } }),
  // Public reads: tenant A's app-id naming B's records.
  listRestaurants: (f) => ({ query: `?id=${f.meals.restaurant}` }),
  listOnDemandRestaurants: (f) => ({ query: `?id=${f.meals.restaurant}` }),
  listRestaurantCategories: (f) => ({ query: `?id=${f.meals.category}` }),
  listAllergensDislikes: (f) => ({ query: `?id=${f.meals.allergen}` }),
  listWalletCreditProducts: (f) => ({ query: `?id=${f.meals.product}` }),
  getProduct: (f) => ({ path: { product_id: String(f.meals.product) } }),
  listProductVariants: (f) => ({ path: { product_id: String(f.meals.product) } }),
  getCombo: (f) => ({ path: { combo_id: String(f.meals.combo) } }),
  getRestaurantMenu: (f) => ({ path: { restaurant_id: String(f.meals.restaurant) } }),
  getRestaurant: (f) => ({ path: { restaurant_id: String(f.meals.restaurant) } }),
  listRestaurantBranches: (f) => ({ path: { restaurant_id: String(f.meals.restaurant) } }),
  listRestaurantVariants: (f) => ({ path: { restaurant_id: String(f.meals.restaurant) } }),
  listChannelProviders: () => ({ body: { city_id: 1, debug: true } }),
  listPlanTags: (f) => ({ query: `?id=${f.meals.tag}` }),
  listPlans: (f) => ({ body: { restaurant_id: f.meals.restaurant } }),
  getPlan: (f) => ({ path: { plan_id: String(f.meals.plan) } }),
  getMenu: (f) => ({ path: { menu_id: String(f.meals.menu) } }),
  // Customer records (MC1, MC2, MC4–MC7): A names B's customer, its location, or B's number.
  listCustomers: (f) => ({ query: `?id=${f.customers.b}` }),
  getCustomer: (f) => ({ path: { customer_id: String(f.customers.b) } }),
  createCustomer: () => ({ body: { country_code: "966", mobile_number: "0500000032" } }),
  updateCustomer: (f) => ({ path: { customer_id: String(f.customers.b) }, body: { name: "Taken" } }),
  listCustomerLocations: (f) => ({ path: { customer_id: String(f.customers.b) } }),
  getCustomerLocation: (f) => ({
    path: { customer_id: String(f.customers.b), location_id: String(f.customers.bLocation) },
  }),
  createCustomerLocation: (f) => ({
    path: { customer_id: String(f.customers.b) },
    body: { latitude: 24.7, longitude: 46.7, city_id: 1 },
  }),
  listCustomerMemberships: (f) => ({ path: { customer_id: String(f.customers.b) } }),
  // Customer wallets (MW1–MW4): A names B's customer, whose wallet holds the marker.
  getCustomerWallet: (f) => ({ path: { customer_id: String(f.customers.b) } }),
  depositPoints: (f) => ({ path: { customer_id: String(f.customers.b) }, body: { amount: 1, reason: "Taken" } }),
  depositCashback: (f) => ({ path: { customer_id: String(f.customers.b) }, body: { amount: 1, reason: "Taken" } }),
  redeemFromWallet: (f) => ({ path: { customer_id: String(f.customers.b) }, body: { kind: "points", amount: 1 } }),
  // Geography is shared reference data; what is per store (the cities it serves) is probed per
  // store in test/customers/geography.test.ts.
  listCountries: () => ({ query: "?code=SA" }),
  listRegions: () => ({ query: "?country_id=1" }),
  listCities: () => ({ query: "?is_supported=true" }),
  listDistricts: () => ({ query: "?city_id=1" }),
  supportCity: () => ({ path: { city_id: "1" } }),
  unsupportCity: () => ({ path: { city_id: "1" } }),
  listSupportedCities: () => ({}),
  // Customer login (CA1–CA5): A names B's customer's number (Register with a number of its own,
  // since a number gets one code a minute), or presents B's refresh token.
  registerCustomer: () => ({ body: { country_code: "966", mobile_number: "0500000033", name: "Taken" } }),
  confirmCustomerRegistration: () => ({ body: { country_code: "966", mobile_number: "0500000032", otp: "123456" } }),
  requestCustomerOtp: () => ({ body: { country_code: "966", mobile_number: "0500000032" } }),
  getCustomerAccessToken: () => ({ body: { country_code: "966", mobile_number: "0500000032", otp: "123456" } }),
  refreshCustomerAccessToken: () => ({ body: { refresh_token: B_REFRESH_TOKEN } }),
  // Customer app account (CA6–CA9): A's customer names B's records (its own profile has none of B's).
  getProfile: () => ({}),
  updateProfile: () => ({ body: { name: "Taken" } }),
  updateLanguage: () => ({ body: { lang: "en" } }),
  updateAvatar: () => ({ body: { avatar: null } }),
  updatePlatformVersion: () => ({ body: { platform_version: "1.0.0" } }),
  deleteAccount: () => ({}),
  registerFcmToken: () => ({ body: { token: "tenant-a-new-device-token-0123456789", platform: "ios" } }),
  removeFcmToken: (f) => ({ path: { token: f.app.bToken } }),
  listMyLocations: (f) => ({ query: `?id=${f.customers.bLocation}` }),
  getMyLocation: (f) => ({ path: { location_id: String(f.customers.bLocation) } }),
  createMyLocation: () => ({ body: { latitude: 24.7, longitude: 46.7, city_id: 1 } }),
  updateMyLocation: (f) => ({ path: { location_id: String(f.customers.bLocation) }, body: { name_en: "Taken" } }),
  updateMyLocationImage: (f) => ({ path: { location_id: String(f.customers.bLocation) }, body: { image: null } }),
  deleteMyLocation: (f) => ({ path: { location_id: String(f.customers.bLocation) } }),
  listReceivedNotifications: (f) => ({ query: `?notification_id=${f.app.bNotification}` }),
  readNotification: (f) => ({ path: { notification_id: String(f.app.bReceived) } }),
  readAllNotifications: () => ({}),
  // Send Notification (MN1) to B's customer; B's notification by id.
  sendNotification: (f) => ({
    body: { customer_ids: [f.customers.b], title_en: "x", title_ar: "x", body_en: "x", body_ar: "x" },
  }),
  listNotifications: (f) => ({ query: `?id=${f.app.bNotification}` }),
  getNotification: (f) => ({ path: { notification_id: String(f.app.bNotification) } }),
  // Merchant account (MA1–MA6): B's settings, bank account, wallet and organization.
  getMerchantSettings: () => ({}),
  updateMerchantSettings: () => ({ body: { address: "A" } }),
  patchMerchantSettings: () => ({ body: { address: "A" } }),
  listBankAccounts: (f) => ({ query: `?id=${f.commerce.bBankAccount}` }),
  getBankAccount: (f) => ({ path: { bank_account_id: String(f.commerce.bBankAccount) } }),
  // B's IBAN is A's to register too: a 409 would tell A that another store holds it.
  createBankAccount: (f) => ({
    body: { bank_name_en: "Mine", bank_name_ar: "لي", iban: f.commerce.bIban, account_holder: "A" },
  }),
  updateBankAccount: (f) => ({
    path: { bank_account_id: String(f.commerce.bBankAccount) },
    body: { account_holder: "Taken" },
  }),
  deleteBankAccount: (f) => ({ path: { bank_account_id: String(f.commerce.bBankAccount) } }),
  getOrganizationConfig: () => ({ orgId: B }),
  getStoreWallet: () => ({}),
  listStoreWalletTransactions: (f) => ({ query: `?id=${f.commerce.bWalletEntry}` }),
  // A's own top-up (a pending order of A's); B's wallet must not move.
  chargeWallet: () => ({ body: { amount: 10 } }),
  // Vouchers (MV1, MV2, CA14): B's voucher by id, by code, or B's item in a scope.
  listVouchers: (f) => ({ query: `?id=${f.commerce.bVoucher.id}` }),
  getVoucher: (f) => ({ path: { voucher_id: String(f.commerce.bVoucher.id) } }),
  createVoucher: (f) => ({
    body: { code: "AOWN", title_en: "Mine", title_ar: "لي", kind: "fixed", value: 1, item_ids: [f.bItem] },
  }),
  updateVoucher: (f) => ({ path: { voucher_id: String(f.commerce.bVoucher.id) }, body: { title_en: "Taken" } }),
  deleteVoucher: (f) => ({ path: { voucher_id: String(f.commerce.bVoucher.id) } }),
  getVoucherDiscount: (f) => ({ body: { code: f.commerce.bVoucher.code, cart_amount: 10 } }),
  updateVoucherUsage: (f) => ({
    path: { code: f.commerce.bVoucher.code },
    body: { order_id: f.commerce.aOther.order, action: "use" },
  }),
  listFeaturedVouchers: () => ({}),
  // The customer app's catalogue (CA10): public reads of A naming B's item and category.
  listCatalogueItems: (f) => ({ query: `?category_id=${f.bCategory}` }),
  getCatalogueItem: (f) => ({ path: { item_id: String(f.bItem) } }),
  listCatalogueCategories: (f) => ({ query: `?id=${f.bCategory}` }),
  getCatalogueCategory: (f) => ({ path: { category_id: String(f.bCategory) } }),
  // Carts, checkout, orders (MO1–MO4, CA11, CA14): B's cart, order, customer or item.
  listCarts: (f) => ({ query: `?id=${f.commerce.bCart}` }),
  getCart: (f) => ({ path: { cart_id: String(f.commerce.bCart) } }),
  createCart: (f) => ({ body: { items: [{ item_id: f.bItem, qty: 1 }] } }),
  getMyCart: (f) => ({ path: { cart_id: String(f.commerce.bCart) } }),
  updateMyCart: (f) => ({ path: { cart_id: String(f.commerce.bCart) }, body: { notes: "Taken" } }),
  checkoutCart: (f) => ({ path: { cart_id: String(f.commerce.bCart) }, body: { payment_provider: "bank_transfer" } }),
  getCheckoutConfig: () => ({}),
  updateCheckoutConfig: () => ({ body: { payment_ttl_minutes: 30 } }),
  getMyCheckoutConfig: () => ({}),
  listOrders: (f) => ({ query: `?id=${f.commerce.bOrder}` }),
  // Fulfillments: the overview carries counts only (no marker); the rest name B's fulfillment.
  getFulfillmentsOverview: () => ({}),
  listFulfillments: (f) => ({ query: `?id=${f.commerce.bFulfillment}` }),
  getFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.bFulfillment) } }),
  updateFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.bFulfillment) }, body: { notes: "x" } }),
  listMyFulfillments: (f) => ({ query: `?id=${f.commerce.bFulfillment}` }),
  getMyFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.bFulfillment) } }),
  updateMyFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.bFulfillment) }, body: { notes: "x" } }),
  // Shipping (C1–C7, MH1, MH4–MH7): B's courier, pickup location and shipment, by id or in a body.
  listCouriers: (f) => ({ query: `?id=${f.commerce.bShipping.courier}` }),
  courierDetails: (f) => ({ path: { courier_id: String(f.commerce.bShipping.courier) } }),
  updateCustomCourier: (f) => ({ path: { courier_id: String(f.commerce.bShipping.courier) }, body: { name_en: "x" } }),
  deleteCustomCourier: (f) => ({ path: { courier_id: String(f.commerce.bShipping.courier) } }),
  getActiveCouriers: () => ({ body: { city_id: 1 } }),
  getCouriersPrices: (f) => ({
    body: {
      origin: { pickup_location_id: f.commerce.bShipping.pickupLocation },
      destination: { city_id: 1 },
      packages: [{ weight: 1, length: 10, width: 10, height: 10 }],
      courier_ids: [f.commerce.bShipping.courier],
    },
  }),
  createCustomCourier: () => ({ body: { name_en: "V", name_ar: "ف", coverage: { cities: [1] } } }),
  shippingConfig: () => ({}),
  updateShippingConfig: (f) => ({ body: { default_pickup_location_id: f.commerce.bShipping.pickupLocation } }),
  listPickupLocations: (f) => ({ query: `?id=${f.commerce.bShipping.pickupLocation}` }),
  pickupLocationDetails: (f) => ({ path: { pickup_location_id: String(f.commerce.bShipping.pickupLocation) } }),
  createPickupLocation: () => ({
    body: { name_en: "W", name_ar: "م", location: { address1: "x", lat: 24.7, lng: 46.7 }, city_id: 1 },
  }),
  updatePickupLocation: (f) => ({
    path: { pickup_location_id: String(f.commerce.bShipping.pickupLocation) },
    body: { name_en: "x" },
  }),
  deletePickupLocation: (f) => ({ path: { pickup_location_id: String(f.commerce.bShipping.pickupLocation) } }),
  listShipments: (f) => ({ query: `?id=${f.commerce.bShipping.shipment}` }),
  shipmentDetails: (f) => ({ path: { shipment_id: String(f.commerce.bShipping.shipment) } }),
  createShipment: (f) => ({
    body: { fulfillment_ids: [f.commerce.bFulfillment], courier_id: f.commerce.bShipping.courier },
  }),
  cancelShipment: (f) => ({ path: { shipment_id: String(f.commerce.bShipping.shipment) } }),
  createReturnShipment: (f) => ({ path: { shipment_id: String(f.commerce.bShipping.shipment) }, body: {} }),
  updateShipmentStatus: (f) => ({
    path: { shipment_id: String(f.commerce.bShipping.shipment) },
    body: { status: "picked_up" },
  }),
  listMyPickupLocations: (f) => ({ query: `?id=${f.commerce.bShipping.pickupLocation}` }),
  listShippingLabels: (f) => ({ query: `?id=${f.commerce.bShipping.label}` }),
  purchaseShippingLabels: (f) => ({ body: { shipment_ids: [f.commerce.bShipping.shipment] } }),
  getShippingLabelPdf: (f) => ({ path: { label_id: String(f.commerce.bShipping.label) } }),
  // Subscriptions (MS1–MS11, U1–U3): B's subscription and its pending update. The bulk operations
  // answer 200 with one refused result per id, never B's data.
  listSubscriptions: (f) => ({ query: `?id=${f.commerce.bSubscription.id}` }),
  getSubscriptionStatistics: () => ({}),
  getSubscription: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) } }),
  cancelSubscription: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) }, body: {} }),
  cancelSubscriptionAutoRenewal: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) } }),
  incrementSubscriptionUsage: (f) => ({
    path: { subscription_id: String(f.commerce.bSubscription.id) },
    body: { quantity: 1 },
  }),
  decrementSubscriptionUsage: (f) => ({
    path: { subscription_id: String(f.commerce.bSubscription.id) },
    body: { quantity: 1 },
  }),
  bulkPauseSubscriptions: (f) => ({ body: { subscription_ids: [f.commerce.bSubscription.id] } }),
  bulkResumeSubscriptions: (f) => ({ body: { subscription_ids: [f.commerce.bSubscription.id] } }),
  createSubscriptionUpdate: (f) => ({
    path: { subscription_id: String(f.commerce.bSubscription.id) },
    body: { price: 10, effective: "next_period" },
  }),
  cancelSubscriptionUpdate: (f) => ({
    path: {
      subscription_id: String(f.commerce.bSubscription.id),
      update_id: String(f.commerce.bSubscription.update),
    },
  }),
  listMySubscriptions: (f) => ({ query: `?id=${f.commerce.bSubscription.id}` }),
  getMySubscription: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) } }),
  cancelMySubscriptionAutoRenewal: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) } }),
  // A carrier's status update naming B's shipment, unsigned: refused, nothing changes.
  carrierWebhook: () => ({ path: { carrier: "fake" }, body: { events: [{ reference: MARKER, status: "DELIVERED" }] } }),
  getOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) } }),
  createOrder: (f) => ({ body: { customer_id: f.customers.b, items: [{ item_id: f.commerce.aItem, qty: 1 }] } }),
  updateOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) }, body: { notes: "Taken" } }),
  listMyOrders: (f) => ({ query: `?id=${f.commerce.bOrder}` }),
  getMyOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) } }),
  getCustomerOrderStatistics: (f) => ({ path: { customer_id: String(f.customers.b) } }),
  // A pay link to B's order, with B's app_id and a forged signature.
  openPayLink: (f) => ({
    path: { order_id: String(f.commerce.bOrder) },
    query: `?entity=order&app_id=${B}&signature=${"x".repeat(43)}`,
  }),
  // Recurring purchases (MO5, CA11).
  listRecurringPurchases: (f) => ({ query: `?id=${f.commerce.bRecurring}` }),
  getRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.bRecurring) } }),
  updateRecurringPurchase: (f) => ({
    path: { recurring_purchase_id: String(f.commerce.bRecurring) },
    body: { status: "inactive" },
  }),
  listMyRecurringPurchases: (f) => ({ query: `?id=${f.commerce.bRecurring}` }),
  getMyRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.bRecurring) } }),
  deactivateMyRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.bRecurring) } }),
  // Invoices and refunds (MO6–MO8), transactions (MO9–MO11).
  getInvoiceConfig: () => ({}),
  updateInvoiceConfig: () => ({ body: { footer_en: "Mine" } }),
  listInvoices: (f) => ({ query: `?id=${f.commerce.bInvoice}` }),
  getInvoice: (f) => ({ path: { invoice_id: String(f.commerce.bInvoice) } }),
  refundInvoice: (f) => ({ path: { invoice_id: String(f.commerce.bInvoice) }, body: { refund_reason: "x" } }),
  listTransactions: (f) => ({ query: `?id=${f.commerce.bTransaction}` }),
  getTransaction: (f) => ({ path: { transaction_id: String(f.commerce.bTransaction) } }),
  captureBankTransfer: (f) => ({ path: { transaction_id: String(f.commerce.bTransaction) } }),
  declineBankTransfer: (f) => ({ path: { transaction_id: String(f.commerce.bTransaction) }, body: { reason: "x" } }),
  // Payment methods (CA13): B's customer's saved card.
  listPaymentProviders: () => ({}),
  listPaymentMethods: (f) => ({ query: `?id=${f.commerce.bCard}` }),
  deletePaymentMethod: (f) => ({ path: { payment_method_id: String(f.commerce.bCard) } }),
  // Customer meals reads (MM4, MM6–MM9): B's featured plan, tag, menu, corporate location and app config.
  listPlanTagsV3: (f) => ({ query: `?id=${f.meals.tag}` }),
  listFeaturedPlanTags: (f) => ({ query: `?id=${f.meals.tag}` }),
  listFeaturedPlans: (f) => ({ query: `?id=${f.meals.plan}` }),
  listSuperPlans: (f) => ({ query: `?id=${f.meals.plan}` }),
  getSuperPlan: (f) => ({ path: { plan_id: String(f.meals.plan) } }),
  getPlanDate: (f) => ({ path: { plan_id: String(f.meals.plan), date: "2026-12-01" } }),
  listPlanMenuCategories: (f) => ({ path: { plan_id: String(f.meals.plan) } }),
  hasPurchasedPlan: (f) => ({ body: { plan_id: f.meals.plan } }),
  listMealMenus: (f) => ({ query: `?id=${f.meals.menu}` }),
  getMealMenu: (f) => ({ path: { menu_id: String(f.meals.menu) } }),
  listMealMenuAddOns: (f) => ({ path: { menu_id: String(f.meals.menu) } }),
  listMealMenuOptions: (f) => ({ path: { menu_id: String(f.meals.menu) } }),
  getMealAppConfig: () => ({}),
  updateMealAppConfig: () => ({ body: { force_update: false } }),
  listMealFeaturedVouchers: () => ({}),
  listCorporateLocations: (f) => ({ query: `?id=${f.mealCommerce.bCorporateLocation}` }),
  listMerchantCorporateLocations: (f) => ({ query: `?id=${f.mealCommerce.bCorporateLocation}` }),
  getCorporateLocation: (f) => ({ path: { location_id: String(f.mealCommerce.bCorporateLocation) } }),
  getMerchantCorporateLocation: (f) => ({ path: { location_id: String(f.mealCommerce.bCorporateLocation) } }),
  createCorporateLocation: () => ({
    body: { name_en: "Tower", name_ar: "برج", city_id: 1, lat: 24.7, lng: 46.7 },
  }),
  updateCorporateLocation: (f) => ({
    path: { location_id: String(f.mealCommerce.bCorporateLocation) },
    body: { name_en: "Tower B" },
  }),
  deleteCorporateLocation: (f) => ({ path: { location_id: String(f.mealCommerce.bCorporateLocation) } }),
  // Logistics (ML1–ML6, the kitchen day): B's captain, branch, zone and suborder.
  listCaptains: (f) => ({ query: `?id=${f.mealCommerce.bCaptain}` }),
  captainDetails: (f) => ({ path: { captain_id: String(f.mealCommerce.bCaptain) } }),
  updateCaptain: (f) => ({ path: { captain_id: String(f.mealCommerce.bCaptain) }, body: { name: "x" } }),
  deleteCaptain: (f) => ({ path: { captain_id: String(f.mealCommerce.bCaptain) } }),
  createCaptain: (f) => ({
    body: { name: "V", mobile_number: "0551000001", city_id: 1, branch_id: f.meals.branch },
  }),
  listLogisticsBranches: (f) => ({ query: `?id=${f.meals.branch}` }),
  logisticsBranchDetails: (f) => ({ path: { branch_id: String(f.meals.branch) } }),
  updateLogisticsBranch: (f) => ({ path: { branch_id: String(f.meals.branch) }, body: { name_en: "x" } }),
  deleteLogisticsBranch: (f) => ({ path: { branch_id: String(f.meals.branch) } }),
  createLogisticsBranch: (f) => ({
    body: {
      restaurant_id: f.meals.restaurant,
      name_en: "W",
      name_ar: "م",
      city_id: 1,
      location: { lat: 24.7, lng: 46.7 },
    },
  }),
  listLogisticsCities: () => ({}),
  // A point inside B's zone: only A's own windows may answer.
  listSupportedWindows: () => ({ query: "?lat=24.7&lng=46.7" }),
  bulkUpdateSuborders: (f) => ({ body: { suborder_ids: [f.mealCommerce.bSuborder], status: "confirmed" } }),
  kitchenDay: (f) => ({ query: `?date=2026-12-02&branch_id=${f.meals.branch}` }),
  // Meal checkout and orders (CA15–CA19, MM5, renew): B's plan version, subscription, suborder and order.
  getMealVoucheredCart: (f) => ({
    body: {
      ...bPickup(f),
      plan_version_id: f.meals.version,
      start_date: "2026-12-01",
      voucher: f.commerce.bVoucher.code,
    },
  }),
  getMealRedeemedCart: (f) => ({ body: { ...bPickup(f), plan_version_id: f.meals.version, start_date: "2026-12-01" } }),
  getMealDiscountedCart: (f) => ({
    body: { ...bPickup(f), plan_version_id: f.meals.version, start_date: "2026-12-01" },
  }),
  placeMealOrder: (f) => ({
    body: { ...bPickup(f), plan_version_id: f.meals.version, start_date: "2026-12-01", payment_provider: "card" },
  }),
  getMealAddOnRedeemedCart: (f) => ({
    body: {
      subscription_id: f.mealCommerce.bSubscription,
      add_ons: [{ suborder_id: f.mealCommerce.bSuborder, product_id: f.meals.product, qty: 1 }],
    },
  }),
  placeMealAddOnOrder: (f) => ({
    body: {
      subscription_id: f.mealCommerce.bSubscription,
      add_ons: [{ suborder_id: f.mealCommerce.bSuborder, product_id: f.meals.product, qty: 1 }],
      payment_provider: "card",
    },
  }),
  listMyMealOrders: (f) => ({ query: `?id=${f.mealCommerce.bMealOrder}` }),
  getMyMealOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) } }),
  renewMealSubscription: (f) => ({
    path: { subscription_id: String(f.mealCommerce.bSubscription) },
    body: { payment_provider: "card" },
  }),
  // Meal subscriptions, suborders and complaints (MM1–MM3).
  listMealSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.bSubscription}` }),
  getMealSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) } }),
  changeMealSubscriptionLocation: (f) => ({
    path: { subscription_id: String(f.mealCommerce.bSubscription) },
    body: { location_id: f.customers.bLocation },
  }),
  mealSuborderActions: (f) => ({
    path: { subscription_id: String(f.mealCommerce.bSubscription) },
    body: { action: "postpone", dates: ["2026-12-02"] },
  }),
  cancelMealSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) }, body: {} }),
  listMealSubscriptionOrders: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) } }),
  listMealSubscriptionInvoices: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) } }),
  listMySuborders: (f) => ({ query: `?id=${f.mealCommerce.bSuborder}` }),
  getMySuborder: (f) => ({ path: { suborder_id: String(f.mealCommerce.bSuborder) } }),
  changeSuborderLocation: (f) => ({
    path: { suborder_id: String(f.mealCommerce.bSuborder) },
    body: { location_id: f.customers.bLocation },
  }),
  changeSuborderMeals: (f) => ({
    path: { suborder_id: String(f.mealCommerce.bSuborder) },
    body: { meals: [{ plan_category_id: f.meals.planCategory, option_ids: [f.meals.option] }] },
  }),
  changeSuborderDeliveryWindow: (f) => ({
    path: { suborder_id: String(f.mealCommerce.bSuborder) },
    body: { delivery_window_id: f.mealCommerce.bWindow },
  }),
  bulkChangeSuborderLocation: (f) => ({
    body: { suborder_ids: [f.mealCommerce.bSuborder], location_id: f.customers.bLocation },
  }),
  bulkChangeSuborderDeliveryWindow: (f) => ({
    body: { suborder_ids: [f.mealCommerce.bSuborder], delivery_window_id: f.mealCommerce.bWindow },
  }),
  bulkChangeSuborderPickupBranch: (f) => ({
    body: { suborder_ids: [f.mealCommerce.bSuborder], pickup_branch_id: f.meals.branch },
  }),
  preOrderSuborderMeals: (f) => ({
    body: {
      items: [
        {
          suborder_id: f.mealCommerce.bSuborder,
          meals: [{ plan_category_id: f.meals.planCategory, option_ids: [f.meals.option] }],
        },
      ],
    },
  }),
  listComplaintReasons: () => ({}),
  complainSuborder: (f) => ({
    path: { suborder_id: String(f.mealCommerce.bSuborder) },
    body: { reason: "late_delivery" },
  }),
  getComplaint: (f) => ({ path: { complaint_id: String(f.mealCommerce.bComplaint) } }),
  listMealComplaints: (f) => ({ query: `?id=${f.mealCommerce.bComplaint}` }),
  getMealComplaint: (f) => ({ path: { complaint_id: String(f.mealCommerce.bComplaint) } }),
  updateMealComplaint: (f) => ({
    path: { complaint_id: String(f.mealCommerce.bComplaint) },
    body: { status: "in_review" },
  }),
  // Sales channels (MX1–MX6): B's connection and listing are with X, never A; A's requests go to X.
  listConnectionRequests: (f) => ({ query: `?id=${f.mealCommerce.bConnection}` }),
  getConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
  deleteConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
  acceptConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
  rejectConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
  activateConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
  deactivateConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
  sendConnectionRequest: () => ({ body: { provider_app_id: X, message: "x" } }),
  getChannelProfile: () => ({}),
  updateChannelProfile: () => ({ body: { is_listed: true } }),
  listProviderPlans: () => ({ query: `?provider_app_id=${B}` }),
  listPlanListings: (f) => ({ query: `?id=${f.mealCommerce.bListing}` }),
  createPlanListing: (f) => ({ body: { provider_app_id: B, plan_id: f.meals.plan } }),
  updatePlanListing: (f) => ({ path: { plan_listing_id: String(f.mealCommerce.bListing) }, body: { ordering: 1 } }),
  deletePlanListing: (f) => ({ path: { plan_listing_id: String(f.mealCommerce.bListing) } }),
  listSalesChannelMealOrders: (f) => ({ query: `?id=${f.mealCommerce.bMealOrder}` }),
  getSalesChannelMealOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) } }),
  listSalesChannelMealSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.bSubscription}` }),
  getSalesChannelMealSubscription: (f) => ({
    path: { subscription_id: String(f.mealCommerce.bSubscription) },
  }),
  listMyChannelMealOrders: (f) => ({ query: `?id=${f.mealCommerce.bMealOrder}` }),
  listMyChannelSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.bSubscription}` }),
  getMyChannelSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) } }),
  cancelMyChannelSubscription: (f) => ({
    path: { subscription_id: String(f.mealCommerce.bSubscription) },
    body: {},
  }),
};

/**
 * For each customer-app operation, a request of one customer of tenant A naming another customer
 * of A (the "another customer of the same store": a 404 or nothing of theirs, never data).
 */
const OTHER_CUSTOMER_PROBES: Record<string, Probe> = {
  getProfile: () => ({}),
  updateProfile: () => ({ body: { name: "Mine" } }),
  updateLanguage: () => ({ body: { lang: "ar" } }),
  updateAvatar: () => ({ body: { avatar: null } }),
  updatePlatformVersion: () => ({ body: { platform_version: "1.0.1" } }),
  deleteAccount: () => ({}),
  registerFcmToken: () => ({ body: { token: "tenant-a-second-device-token-0123456789", platform: "android" } }),
  removeFcmToken: (f) => ({ path: { token: f.app.aOtherToken } }),
  listMyLocations: (f) => ({ query: `?id=${f.app.aOtherLocation}` }),
  getMyLocation: (f) => ({ path: { location_id: String(f.app.aOtherLocation) } }),
  createMyLocation: () => ({ body: { latitude: 24.7, longitude: 46.7, city_id: 1 } }),
  updateMyLocation: (f) => ({ path: { location_id: String(f.app.aOtherLocation) }, body: { name_en: "Taken" } }),
  updateMyLocationImage: (f) => ({ path: { location_id: String(f.app.aOtherLocation) }, body: { image: null } }),
  deleteMyLocation: (f) => ({ path: { location_id: String(f.app.aOtherLocation) } }),
  listReceivedNotifications: (f) => ({ query: `?id=${f.app.aOtherReceived}` }),
  readNotification: (f) => ({ path: { notification_id: String(f.app.aOtherReceived) } }),
  readAllNotifications: () => ({}),
  // Commerce: the other customer's cart, order, recurring purchase and card, or their location in a body.
  listFeaturedVouchers: () => ({}),
  createCart: (f) => ({
    body: { items: [{ item_id: f.commerce.aItem, qty: 1 }], location_id: f.app.aOtherLocation },
  }),
  getMyCart: (f) => ({ path: { cart_id: String(f.commerce.aOther.cart) } }),
  updateMyCart: (f) => ({ path: { cart_id: String(f.commerce.aOther.cart) }, body: { notes: "Taken" } }),
  checkoutCart: (f) => ({
    path: { cart_id: String(f.commerce.aOther.cart) },
    body: { payment_provider: "bank_transfer" },
  }),
  getMyCheckoutConfig: () => ({}),
  listMyOrders: (f) => ({ query: `?id=${f.commerce.aOther.order}` }),
  getMyOrder: (f) => ({ path: { order_id: String(f.commerce.aOther.order) } }),
  listMyRecurringPurchases: (f) => ({ query: `?id=${f.commerce.aOther.recurring}` }),
  getMyRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.aOther.recurring) } }),
  deactivateMyRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.aOther.recurring) } }),
  listPaymentProviders: () => ({}),
  listPaymentMethods: (f) => ({ query: `?id=${f.commerce.aOther.card}` }),
  deletePaymentMethod: (f) => ({ path: { payment_method_id: String(f.commerce.aOther.card) } }),
  listMyPickupLocations: () => ({}),
  listMySubscriptions: (f) => ({ query: `?id=${f.commerce.aOther.subscription}` }),
  getMySubscription: (f) => ({ path: { subscription_id: String(f.commerce.aOther.subscription) } }),
  cancelMySubscriptionAutoRenewal: (f) => ({ path: { subscription_id: String(f.commerce.aOther.subscription) } }),
  listMyFulfillments: (f) => ({ query: `?id=${f.commerce.aOther.fulfillment}` }),
  getMyFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.aOther.fulfillment) } }),
  updateMyFulfillment: (f) => ({
    path: { fulfillment_id: String(f.commerce.aOther.fulfillment) },
    body: { notes: "Taken" },
  }),
  // Meals: the other customer's meal subscription, suborder, order and complaint, or their location in a body.
  listMealFeaturedVouchers: () => ({}),
  listCorporateLocations: () => ({}),
  getCorporateLocation: () => ({}),
  listComplaintReasons: () => ({}),
  // The other customer holds an active subscription of this plan: A's customer has not purchased it.
  hasPurchasedPlan: (f) => ({ body: { plan_id: f.mealCommerce.aMeals.plan } }),
  getMealVoucheredCart: (f) => ({
    body: { ...aOtherDelivery(f), plan_version_id: f.mealCommerce.aMeals.version, start_date: "2026-12-01" },
  }),
  getMealRedeemedCart: (f) => ({
    body: { ...aOtherDelivery(f), plan_version_id: f.mealCommerce.aMeals.version, start_date: "2026-12-01" },
  }),
  getMealDiscountedCart: (f) => ({
    body: { ...aOtherDelivery(f), plan_version_id: f.mealCommerce.aMeals.version, start_date: "2026-12-01" },
  }),
  placeMealOrder: (f) => ({
    body: {
      plan_version_id: f.mealCommerce.aMeals.version,
      start_date: "2026-12-01",
      delivery_window_id: f.mealCommerce.aWindow,
      primary_location_id: f.app.aOtherLocation,
      payment_provider: "card",
    },
  }),
  getMealAddOnRedeemedCart: (f) => ({
    body: {
      subscription_id: f.mealCommerce.aOther.subscription,
      add_ons: [{ suborder_id: f.mealCommerce.aOther.suborder, product_id: f.mealCommerce.aMeals.product, qty: 1 }],
    },
  }),
  placeMealAddOnOrder: (f) => ({
    body: {
      subscription_id: f.mealCommerce.aOther.subscription,
      add_ons: [{ suborder_id: f.mealCommerce.aOther.suborder, product_id: f.mealCommerce.aMeals.product, qty: 1 }],
      payment_provider: "card",
    },
  }),
  listMyMealOrders: (f) => ({ query: `?id=${f.mealCommerce.aOther.mealOrder}` }),
  getMyMealOrder: (f) => ({ path: { order_id: String(f.commerce.aOther.order) } }),
  renewMealSubscription: (f) => ({
    path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
    body: { payment_provider: "card" },
  }),
  listMealSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.aOther.subscription}` }),
  getMealSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.aOther.subscription) } }),
  changeMealSubscriptionLocation: (f) => ({
    path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
    body: { location_id: f.app.aOtherLocation },
  }),
  mealSuborderActions: (f) => ({
    path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
    body: { action: "postpone", dates: ["2026-12-02"] },
  }),
  cancelMealSubscription: (f) => ({
    path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
    body: {},
  }),
  listMealSubscriptionOrders: (f) => ({ path: { subscription_id: String(f.mealCommerce.aOther.subscription) } }),
  listMealSubscriptionInvoices: (f) => ({ path: { subscription_id: String(f.mealCommerce.aOther.subscription) } }),
  listMySuborders: (f) => ({ query: `?id=${f.mealCommerce.aOther.suborder}` }),
  getMySuborder: (f) => ({ path: { suborder_id: String(f.mealCommerce.aOther.suborder) } }),
  changeSuborderLocation: (f) => ({
    path: { suborder_id: String(f.mealCommerce.aOther.suborder) },
    body: { location_id: f.app.aOtherLocation },
  }),
  changeSuborderMeals: (f) => ({
    path: { suborder_id: String(f.mealCommerce.aOther.suborder) },
    body: {
      meals: [{ plan_category_id: f.mealCommerce.aMeals.planCategory, option_ids: [f.mealCommerce.aMeals.option] }],
    },
  }),
  changeSuborderDeliveryWindow: (f) => ({
    path: { suborder_id: String(f.mealCommerce.aOther.suborder) },
    body: { delivery_window_id: f.mealCommerce.aWindow },
  }),
  bulkChangeSuborderLocation: (f) => ({
    body: { suborder_ids: [f.mealCommerce.aOther.suborder], location_id: f.app.aOtherLocation },
  }),
  bulkChangeSuborderDeliveryWindow: (f) => ({
    body: { suborder_ids: [f.mealCommerce.aOther.suborder], delivery_window_id: f.mealCommerce.aWindow },
  }),
  bulkChangeSuborderPickupBranch: (f) => ({
    body: { suborder_ids: [f.mealCommerce.aOther.suborder], pickup_branch_id: f.mealCommerce.aMeals.branch },
  }),
  preOrderSuborderMeals: (f) => ({
    body: {
      items: [
        {
          suborder_id: f.mealCommerce.aOther.suborder,
          meals: [{ plan_category_id: f.mealCommerce.aMeals.planCategory, option_ids: [f.mealCommerce.aMeals.option] }],
        },
      ],
    },
  }),
  complainSuborder: (f) => ({
    path: { suborder_id: String(f.mealCommerce.aOther.suborder) },
    body: { reason: "late_delivery" },
  }),
  getComplaint: (f) => ({ path: { complaint_id: String(f.mealCommerce.aOther.complaint) } }),
  listMyChannelMealOrders: (f) => ({ query: `?id=${f.mealCommerce.aOther.mealOrder}` }),
  listMyChannelSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.aOther.subscription}` }),
  getMyChannelSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.aOther.subscription) } }),
  cancelMyChannelSubscription: (f) => ({
    path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
    body: {},
  }),
};

function concretePath(path: string, values: Record<string, string> = {}) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "1");
}

function requestSchema(op: Operation): JsonSchema | undefined {
  const s = op.requestBody?.content["application/json"]?.schema;
  return s ? deref(doc, s) : undefined;
}

/** Checks a response against the operation's declared responses; returns the parsed body. */
async function conforms(where: string, op: Operation, res: Response): Promise<unknown> {
  const declared = op.responses[String(res.status)];
  expect(declared, `${where}: status ${res.status} is not declared`).toBeDefined();
  if (!declared!.content) {
    expect(await res.text(), `${where}: ${res.status} declares no body`).toBe("");
    return undefined;
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!;
  const media = declared!.content[type];
  expect(media, `${where}: ${res.status} with ${type} is not declared`).toBeDefined();
  const body = await res.json();
  const errors = validate(deref(doc, media!.schema), body);
  expect(errors, `${where}: ${res.status} body does not match its schema`).toEqual([]);
  return body;
}

/**
 * Rows of this suite's tenants (or of those given), in every tenant-owned table: what a refused
 * request must not change.
 */
async function snapshot(...appIds: number[]): Promise<string> {
  const ids = appIds.length ? appIds : [A, B];
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%`app_id` integer%' ORDER BY name",
  ).all<{ name: string }>();
  const parts = await env.DB.batch(
    tables.results.map((t) =>
      env.DB.prepare(
        `SELECT * FROM "${t.name}" WHERE app_id IN (${ids.map(() => "?").join(", ")}) ORDER BY rowid`,
      ).bind(...ids),
    ),
  );
  return JSON.stringify(parts.map((p) => p.results));
}

/** Ways to break a valid body, each guaranteed invalid for the schema. */
function brokenBodies(schema: JsonSchema, valid: Record<string, unknown>) {
  const props = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const required: string[] = schema.required ?? [];
  const arbs: fc.Arbitrary<{ kind: string; body: unknown }>[] = [
    fc.constantFrom(...(["unknown field"] as const)).map((kind) => ({ kind, body: { ...valid, injected_field: "x" } })),
    fc
      .oneof(fc.constant([]), fc.constant("body"), fc.constant(null), fc.integer())
      .map((body) => ({ kind: "not an object", body })),
  ];
  if (required.length) {
    arbs.push(
      fc.constantFrom(...required).map((k) => ({
        kind: `missing ${k}`,
        body: Object.fromEntries(Object.entries(valid).filter(([key]) => key !== k)),
      })),
    );
  }
  for (const [name, p] of props) {
    const wrong: fc.Arbitrary<unknown>[] = [];
    const type = Array.isArray(p.type) ? p.type : [p.type];
    if (!type.includes("string")) wrong.push(fc.string({ maxLength: 20 }).filter((s) => !p.enum?.includes(s)));
    if (!type.includes("integer") && !type.includes("number")) wrong.push(fc.integer());
    if (!type.includes("boolean")) wrong.push(fc.boolean());
    if (!type.includes("object")) wrong.push(fc.constant({ nested: true }));
    if (type.includes("string")) {
      // Longer than any bound: every string a client sends must have one.
      wrong.push(fc.constant("x".repeat(Math.max(10_001, (p.maxLength ?? 0) + 1))));
      if (p.format === "date") wrong.push(fc.constantFrom("2026-02-30", "2026-13-01", "12/01/2026", "2026-1-1", ""));
      if (p.enum) wrong.push(fc.string({ maxLength: 12 }).filter((s) => !p.enum.includes(s)));
    }
    if (type.includes("array")) {
      wrong.push(fc.constant(Array.from({ length: (p.maxItems ?? 1000) + 1 }, (_, i) => i + 1)));
      const it = p.items ?? {};
      if (it.type === "integer") wrong.push(fc.constantFrom([1.5], [-1], [0], [2 ** 53 + 2], ["1"], [null], [1e308]));
    }
    if (type.includes("integer")) wrong.push(fc.constantFrom(1.5, -1, 2 ** 53 + 2, 1e308, "1"));
    if (wrong.length)
      arbs.push(fc.oneof(...wrong).map((v) => ({ kind: `${name} wrong`, body: { ...valid, [name]: v } })));
  }
  return fc.oneof(...arbs);
}

describe.each(checked)("$method $path", ({ path, method, op, isPublic }) => {
  const where = `${method} ${path} (${op.operationId})`;
  const isCustomer = op["x-audience"] === "customer";
  const org = (op.parameters ?? []).some((p) => p.in === "header" && p.name === "org-id");
  const asA = { token: "", appId: A, ...(org && { orgId: A }) };
  // A token of its own per operation, so that the per-token rate limit never answers for the suite.
  let tokenA = "";
  beforeAll(async () => {
    // A customer operation is called by a customer of tenant A of its own (the rate limit is per
    // customer, as the merchant's is per token); the others by a merchant.
    tokenA = isCustomer
      ? await customerTokenFor(A, (await createCustomerFor(A)).id)
      : await tokenFor(A, [...PERMISSIONS]);
  });
  const schema = requestSchema(op);
  const validBody = schema ? (minimalValue(schema) as Record<string, unknown>) : undefined;

  it("declares its operationId, summary, tags, permission, spec id and every problem response", () => {
    expect(op.operationId, where).toBeTruthy();
    expect(op.summary, where).toBeTruthy();
    expect(op.tags?.length, where).toBeGreaterThan(0);
    if (isPublic) {
      expect(op["x-permission"], where).toBeUndefined();
      expect(op.responses["400"]?.content?.["application/problem+json"], `${where} 400`).toBeDefined();
      expect(op.responses["500"]?.content?.["application/problem+json"], `${where} 500`).toBeDefined();
      return;
    }
    if (isCustomer) expect(op["x-permission"], where).toBeUndefined();
    else expect(PERMISSIONS as readonly string[], where).toContain(op["x-permission"]);
    // An operation of the interface, or one it needs that the interface does not name, saying why.
    expect(op["x-spec-id"] ?? op["x-beyond-spec"], where).toBeTruthy();
    for (const s of ["400", "401", "403", "429", "500"]) {
      expect(op.responses[s]?.content?.["application/problem+json"], `${where} ${s}`).toBeDefined();
    }
    if (schema) for (const s of ["413", "415"]) expect(op.responses[s], `${where} ${s}`).toBeDefined();
  });

  // A public operation reached by a signed link (the pay link) takes no `app-id`: the store is in
  // its signed query, which its own tests tamper with. The document says which: no `app-id` header.
  const takesAppId = (op.parameters ?? []).some((p) => p.in === "header" && p.name === "app-id");
  if (isPublic && takesAppId) {
    it("needs no token, and a well-formed app-id", async () => {
      for (const appId of [null, "abc", "0"]) {
        const res = await call(concretePath(path), { method, appId, body: validBody });
        cases++;
        expect(res.status, `${where} app-id ${appId}`).toBe(400);
        expect((await conforms(where, op, res)) as object).toHaveProperty("errors.app-id");
      }
    });
  } else if (isPublic) {
    // Signed links: nothing to check here; the tenant probe below sends one forged for B's record.
  } else if (isCustomer) {
    sharedCustomerAuthCases({
      method,
      path: concretePath(path),
      body: validBody,
      channelCustomers: (op as Record<string, unknown>)["x-channel-customers"] === true,
    });
  } else {
    sharedAuthCases({
      method,
      path: concretePath(path),
      permission: op["x-permission"] as never,
      body: validBody,
      org,
    });
  }

  if (isCustomer) {
    it("never gives a customer another customer's data, nor changes it", async () => {
      const probe = OTHER_CUSTOMER_PROBES[op.operationId];
      expect(probe, `${where}: add a probe for ${op.operationId} to OTHER_CUSTOMER_PROBES`).toBeDefined();
      const p = probe!(fx);
      const before = await otherCustomerRows(fx.app.aOther);
      const res = await call(concretePath(path, p.path) + (p.query ?? ""), {
        ...asA,
        method,
        token: tokenA,
        body: p.body,
      });
      cases++;
      const text = await res.clone().text();
      // As for tenant B's records: another customer's record named in the body is a 400 on that field.
      expect([200, 201, 204, 400, 404], `${where}: ${res.status} ${text}`).toContain(res.status);
      expect(text).not.toContain(A_OTHER_MARKER);
      expect(text).not.toContain("a2-private@tenant-a.example");
      await conforms(where, op, res);
      expect(await otherCustomerRows(fx.app.aOther), `${where}: the other customer's records changed`).toEqual(before);
    });
  }

  it("never gives tenant A a 2xx that carries tenant B's data", async () => {
    const probe = TENANT_PROBES[op.operationId];
    expect(probe, `${where}: add a tenant probe for ${op.operationId} to TENANT_PROBES`).toBeDefined();
    const p = probe!(fx);
    const before = await snapshot(B);
    const res = await call(concretePath(path, p.path) + (p.query ?? ""), {
      ...asA,
      ...(p.orgId !== undefined && { orgId: p.orgId }),
      method,
      token: tokenA,
      body: p.body,
    });
    cases++;
    const text = await res.clone().text();
    // A record of B named in the body is a 400 on that field, worded as for an id that does not exist.
    // 202: a code "sent" (to a number the answer does not reveal); 401: another store's refresh token.
    expect([200, 201, 202, 204, 400, 401, 403, 404], `${where}: ${res.status} ${text}`).toContain(res.status);
    expect(text).not.toContain(MARKER);
    expect(text).not.toContain("private@tenant-b.example");
    expect(text).not.toContain('"max_reservation_qty":999');
    await conforms(where, op, res);
    // Whatever A's request wrote, it wrote as A: not one of B's rows changed.
    expect(await snapshot(B), `${where}: tenant B's records changed`).toBe(before);
  });

  if (schema && validBody) {
    it("answers malformed bodies with a declared 4xx problem, and writes nothing", async () => {
      const before = await snapshot();
      expect(before, "the snapshot sees the tenants' rows").toContain(MARKER);
      await fc.assert(
        fc.asyncProperty(brokenBodies(schema, validBody), async ({ kind, body }) => {
          const res = await call(concretePath(path), { ...asA, method, token: tokenA, body });
          cases++;
          expect(res.status, `${where} ${kind}: ${JSON.stringify(body).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(res.status, `${where} ${kind}: rate-limited, the case proves nothing`).not.toBe(429);
          expect(res.status, `${where} ${kind}`).toBeLessThan(500);
          const problem = (await conforms(`${where} ${kind}`, op, res)) as { errors?: Record<string, string[]> };
          if (res.status === 400 && kind !== "not an object")
            expect(problem.errors, `${where} ${kind}: no field errors`).toBeDefined();
          // Plain words, never the validator's internals ("expected string, received undefined").
          // Whole words: an enum value such as `not_received_by_customer` is the client's own vocabulary.
          for (const message of Object.values(problem.errors ?? {}).flat())
            expect(message, `${where} ${kind}`).not.toMatch(
              /\bexpected\b|\breceived\b|Invalid input|nonoptional|Too (small|big)/i,
            );
        }),
        { numRuns: 40 },
      );
      expect(await snapshot(), `${where}: a refused request changed data`).toBe(before);
    });

    it("answers non-JSON, wrongly typed and oversized bodies with 400, 415 and 413", async () => {
      const before = await snapshot();
      const send = (rawBody: string, type: string) =>
        call(concretePath(path), { ...asA, method, token: tokenA, rawBody, headers: { "content-type": type } });
      for (const [rawBody, type, status] of [
        ["{not json", "application/json", 400],
        [JSON.stringify(validBody), "text/plain", 415],
        [JSON.stringify(validBody), "application/x-www-form-urlencoded", 415],
        [JSON.stringify({ ...validBody, pad: "x".repeat(1024 * 1024 + 1) }), "application/json", 413],
      ] as const) {
        const res = await send(rawBody, type);
        cases++;
        expect(res.status, `${where} ${type} ${rawBody.slice(0, 20)}`).toBe(status);
        await conforms(where, op, res);
      }
      if (!isPublic) {
        // No token: 401 before anything is said of the body (auth first, as documented).
        const res = await call(concretePath(path), {
          ...asA,
          method,
          rawBody: JSON.stringify(validBody),
          headers: { "content-type": "text/plain" },
        });
        cases++;
        expect(res.status, `${where} text/plain without a token`).toBe(401);
        await conforms(where, op, res);
      }
      expect(await snapshot()).toBe(before);
    });
  }

  const queryParams = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
  if (queryParams.length) {
    it("answers any query string with a declared response, never a 5xx; bad ones with 400 naming them", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.tuple(
              fc.oneof(fc.constantFrom(...queryParams), fc.string({ minLength: 1, maxLength: 12 })),
              fc.oneof(
                fc.string({ maxLength: 30 }),
                fc.constantFrom(
                  "-1",
                  "0",
                  "1e999",
                  "99999999999999999999",
                  "'; DROP TABLE tickets; --",
                  "%",
                  "_",
                  "\u0000",
                  "a".repeat(5000),
                ),
              ),
            ),
            { maxLength: 4 },
          ),
          async (pairs) => {
            const qs = new URLSearchParams(pairs).toString();
            const res = await call(`${concretePath(path)}?${qs}`, { ...asA, method, token: tokenA });
            cases++;
            expect(res.status, `${where} ?${qs}`).toBeLessThan(500);
            expect(res.status, `${where} ?${qs}: rate-limited, the case proves nothing`).not.toBe(429);
            const body = (await conforms(`${where} ?${qs}`, op, res)) as { errors?: Record<string, string[]> };
            if (res.status === 400) expect(Object.keys(body.errors ?? {}).length, `${where} ?${qs}`).toBeGreaterThan(0);
          },
        ),
        { numRuns: 60 },
      );
    });
  }

  const pathParams = (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
  if (pathParams.length) {
    it.each(["abc", "0", "-1", "1.5", "99999999999999999999", "1%20OR%201=1"])(
      "answers path id %s with 400 or 404",
      async (bad) => {
        const res = await call(concretePath(path, Object.fromEntries(pathParams.map((n) => [n, bad]))), {
          ...asA,
          method,
          token: tokenA,
          body: validBody,
        });
        cases++;
        expect([400, 404]).toContain(res.status);
      },
    );
  }
});
