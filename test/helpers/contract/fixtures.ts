/**
 * The records the contract suite's probes name: tenant B's (every text naming MARKER), another
 * customer of A's (naming A_OTHER_MARKER), and a third store X on the other side of B's sales-channel
 * connection. A is the file's APP_1, B its APP_2, X its APP_3: stores of the file's own, so that a
 * contract file shares its runtime and database with others (vitest.config.ts) and "B's rows did not
 * change" is about this file's requests only.
 */
import { sha256Hex } from "../../../src/core/crypto";
import {
  customerLocations,
  customerMemberships,
  customerNotifications,
  customers,
  fcmTokens,
  notifications,
  walletEntries,
} from "../../../src/modules/customers/tables";
import {
  bundleCategories,
  itemCategories,
  itemConfig,
  itemTags,
  modifierCategories,
  modifierValues,
} from "../../../src/modules/items/tables";
import {
  APP_1,
  APP_2,
  APP_3,
  createCustomerFor,
  createPlainItem,
  createTicketsFor,
  createWebhookFor,
  db,
  ensureTenant,
  shardFor,
} from "../factories";
import { type Commerce, commerceOf } from "./fixtures-commerce";
import { type MealCommerce, type Meals, mealCommerceOf, mealsOf } from "./fixtures-meals";

export const MARKER = "TENANT-B-PRIVATE";
/** Marks the records of another customer of tenant A, which A's customers must never see. */
export const A_OTHER_MARKER = "CUSTOMER-A2-PRIVATE";

export type Stores = { a: number; b: number; x: number };

export type Fixtures = {
  stores: Stores;
  /** Tenant B's customer's refresh token (unique among every file's), which tenant A presents to Refresh Access Token. */
  bRefreshToken: string;
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

/** Tenant A's customer, and tenant B's with a location and a membership, named with the marker. */
/**
 * An id for one of B's records that A does not hold: ids are unique per shard only (docs/shards.md),
 * so a B record of the same id as one of A's would let a probe reach A's own record and prove
 * nothing. Past the largest id of `table` on both stores' shards, with room for A's later rows.
 */
export async function idAStoreLacks(table: string, { a: A, b: B }: Stores): Promise<number> {
  const largest = await Promise.all(
    [A, B].map((s) => shardFor(s).prepare(`SELECT coalesce(max(id), 0) AS id FROM "${table}"`).first<{ id: number }>()),
  );
  return Math.max(...largest.map((r) => r!.id)) + 1000;
}

async function customersOfAB(stores: Stores): Promise<Fixtures["customers"]> {
  const { a: A, b: B } = stores;
  const [a] = await db(A)
    .insert(customers)
    .values({ appId: A, countryCode: "966", mobileNumber: "966500000031", username: "0500000031" })
    .returning();
  const [b] = await db(B)
    .insert(customers)
    .values({
      id: await idAStoreLacks("customers", stores),
      appId: B,
      countryCode: "966",
      mobileNumber: "966500000032",
      username: "0500000032",
      name: MARKER,
      email: "private@tenant-b.example",
    })
    .returning();
  const [bLocation] = await db(B)
    .insert(customerLocations)
    .values({ appId: B, customerId: b!.id, nameEn: MARKER, nameAr: MARKER, latitude: 24.7, longitude: 46.7, cityId: 1 })
    .returning();
  await db(B)
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

/** A device, a notification and its received copy for a customer of B; the same, and a location, for A's other. */
async function appRecordsOf({ a: A, b: B }: Stores): Promise<AppRecords> {
  const bCustomer = (await createCustomerFor(B, { name: MARKER })).id;
  const aOther = await createCustomerFor(A, { name: A_OTHER_MARKER, email: "a2-private@tenant-a.example" });
  const device = (appId: number, customerId: number, token: string) =>
    db(appId).insert(fcmTokens).values({ appId, customerId, token, platform: "ios" });
  const bToken = "tenant-b-device-token-0123456789";
  const aOtherToken = "tenant-a-other-device-token-0123456789";
  await device(B, bCustomer, bToken);
  await device(A, aOther.id, aOtherToken);
  const notify = async (appId: number, customerId: number, marker: string) => {
    const texts = { titleEn: marker, titleAr: marker, bodyEn: marker, bodyAr: marker };
    const [n] = await db(appId)
      .insert(notifications)
      .values({ appId, ...texts, audience: { customer_ids: [customerId] }, status: "sent", recipientsCount: 1 })
      .returning();
    const [r] = await db(appId)
      .insert(customerNotifications)
      .values({ appId, notificationId: n!.id, customerId, ...texts })
      .returning();
    return { notification: n!.id, received: r!.id };
  };
  const b = await notify(B, bCustomer, MARKER);
  const a = await notify(A, aOther.id, A_OTHER_MARKER);
  const [location] = await db(A)
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

/** A failed delivery of B's webhook on the ledger, which A may neither list nor resend. */
async function deliveryOfB(B: number, webhookId: number): Promise<string> {
  const eventId = `evt_${"b".repeat(32)}`;
  const now = new Date().toISOString();
  await shardFor(B)
    .prepare(
      "INSERT INTO webhook_deliveries (app_id, webhook_id, event_id, event, status, attempts, created_at, updated_at) " +
        "VALUES (?, ?, ?, 'ticket.updated', 'failed', 10, ?, ?)",
    )
    .bind(B, webhookId, eventId, now, now)
    .run();
  return `${eventId}.${webhookId}`;
}

/** Builds every record the probes name, in the file's own stores (about a hundred inserts). */
export async function buildFixtures(): Promise<Fixtures> {
  const stores = { a: APP_1, b: APP_2, x: APP_3 };
  const { a: A, b: B } = stores;
  await Promise.all([ensureTenant(A), ensureTenant(B), ensureTenant(stores.x)]);
  const bItem = await createPlainItem(B, { nameEn: MARKER, nameAr: MARKER });
  const [bTicket] = await createTicketsFor(B, bItem.id, 1, {
    nameEn: MARKER,
    customerEmail: "private@tenant-b.example",
  });
  const bWebhook = await createWebhookFor(B, {
    url: `https://hooks.${MARKER.toLowerCase()}.example.org/in`,
    headers: { "X-Marker": MARKER },
  });
  const [bModifier] = await db(B)
    .insert(modifierCategories)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER })
    .returning();
  await db(B).insert(modifierValues).values({ appId: B, categoryId: bModifier!.id, nameEn: MARKER, nameAr: MARKER });
  const [bBundle] = await db(B)
    .insert(bundleCategories)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER })
    .returning();
  const [bCategory] = await db(B)
    .insert(itemCategories)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER })
    .returning();
  const [bTag] = await db(B).insert(itemTags).values({ appId: B, nameEn: MARKER, nameAr: MARKER }).returning();
  await db(B)
    .insert(itemConfig)
    .values({ appId: B, reservationMinutes: 59, maxReservationQty: 999, modifiedAt: new Date().toISOString() });
  const records = {
    stores,
    bRefreshToken: `crt_${String(B).padStart(43, "b")}`,
    bTicket: bTicket!,
    bWebhook,
    bDelivery: await deliveryOfB(B, bWebhook.id),
    bModifier: bModifier!.id,
    bBundle: bBundle!.id,
    bItem: bItem.id,
    bCategory: bCategory!.id,
    bTag: bTag!.id,
    meals: await mealsOf(B, MARKER),
    customers: await customersOfAB(stores),
    app: await appRecordsOf(stores),
  };
  const withCommerce = { ...records, commerce: await commerceOf(records) };
  const fx: Fixtures = { ...withCommerce, mealCommerce: await mealCommerceOf(withCommerce) };
  // Tenant B's wallet: a deposit whose reason is the marker.
  const bWallet = { appId: B, customerId: fx.customers.b, amount: 5, balanceAfter: 5, reason: MARKER };
  await db(B)
    .insert(walletEntries)
    .values({ ...bWallet, kind: "points", type: "deposit" });
  // Tenant B's customer's refresh token, which tenant A presents to Refresh Access Token.
  await shardFor(B)
    .prepare(
      "INSERT INTO refresh_tokens (app_id, customer_id, family_id, token_hash, expires_at) " +
        "VALUES (?, ?, 'b-family', ?, '2100-01-01T00:00:00.000Z')",
    )
    .bind(B, fx.customers.b, await sha256Hex(fx.bRefreshToken))
    .run();
  return fx;
}
