/**
 * Seeds the local D1 databases with bilingual demo data: organization 1 with app 1 (the demo
 * store, with its catalogue, tickets, restaurants, menus and meal plans) on SHARD_1, and organization
 * 2 with app 2 (another tenant, for isolation) on SHARD_2; both in the directory. Idempotent: fixed ids and
 * INSERT OR IGNORE, so running it again changes nothing.
 */
import { randomToken } from "../src/core/crypto";
import { customersDemo } from "./customers-demo";
import { executeLocal, lit } from "./d1";
import { CENTRAL_RIYADH_POLYGON, insertSql, mealsDemo } from "./meals-demo";
import { push, rowsOf, seedStores } from "./seed-shards";

const NOW = "2026-11-01T09:00:00.000Z";
const insert = (table: string, row: Record<string, unknown>) => push(table, row);

seedStores(NOW);

const audit = (app_id: number, ordering = 0) => ({ app_id, created_at: NOW, modified_at: NOW, ordering });

// Catalogue of app 1: a class with two size variants, a museum entry and a desert trip.
insert("modifier_categories", { id: 1, ...audit(1, 1), name_en: "Size", name_ar: "الحجم" });
insert("modifier_values", { id: 1, ...audit(1, 1), category_id: 1, name_en: "Small group", name_ar: "مجموعة صغيرة" });
insert("modifier_values", { id: 2, ...audit(1, 2), category_id: 1, name_en: "Large group", name_ar: "مجموعة كبيرة" });
insert("modifier_categories", { id: 2, ...audit(1, 2), name_en: "Extras", name_ar: "إضافات" });
insert("modifier_values", { id: 3, ...audit(1, 1), category_id: 2, name_en: "Apron", name_ar: "مريلة" });
insert("item_categories", { id: 1, ...audit(1), name_en: "Experiences", name_ar: "تجارب" });
insert("item_categories", { id: 2, ...audit(1), name_en: "Culture", name_ar: "ثقافة" });
insert("bundle_categories", {
  id: 1,
  ...audit(1),
  name_en: "Add-ons",
  name_ar: "إضافات",
  is_optional: 1,
  min_selections: 0,
  max_selections: 2,
});

const item = (id: number, app_id: number, o: Record<string, unknown>) =>
  insert("items", {
    id,
    ...audit(app_id, id),
    type: "ticket",
    service_type: "on_site",
    description_en: "",
    description_ar: "",
    off_days: "[]",
    off_dates: "[]",
    weight: 0,
    ...o,
  });

item(1, 1, {
  sku: "CLASS-KABSA",
  price_minor: 25_000,
  name_en: "Kabsa cooking class",
  name_ar: "درس طبخ الكبسة",
  description_en: "Three hours with a chef, dinner included.",
  description_ar: "ثلاث ساعات مع طاهٍ، العشاء مشمول.",
  custom_fields: JSON.stringify({ level: "beginner" }),
  off_days: JSON.stringify(["friday"]),
  off_dates: JSON.stringify(["2026-12-02"]),
  served_from_date: "2026-11-01",
  served_to_date: "2027-06-30",
  served_from_time: "16:00:00",
  served_to_time: "22:00:00",
  stock_qty: 40,
  varies_on_id: 1,
});
item(2, 1, {
  parent_id: 1,
  sku: "CLASS-KABSA-S",
  price_minor: 25_000,
  name_en: "Kabsa class, small group",
  name_ar: "درس الكبسة، مجموعة صغيرة",
  stock_qty: 12,
  variant_title_en: "Small group",
  variant_title_ar: "مجموعة صغيرة",
});
item(3, 1, {
  parent_id: 1,
  sku: "CLASS-KABSA-L",
  price_minor: 20_000,
  name_en: "Kabsa class, large group",
  name_ar: "درس الكبسة، مجموعة كبيرة",
  stock_qty: 28,
  variant_title_en: "Large group",
  variant_title_ar: "مجموعة كبيرة",
});
item(4, 1, {
  sku: "MUSEUM-DAY",
  price_minor: 5_000,
  name_en: "National Museum day pass",
  name_ar: "تذكرة يومية للمتحف الوطني",
  stock_qty: 500,
});
item(5, 1, {
  sku: "SAFARI",
  price_minor: 45_000,
  name_en: "Desert safari at sunset",
  name_ar: "رحلة صحراوية عند الغروب",
  stock_qty: 0,
  weight: 0,
});
// A delivered product (its paid lines become fulfillments to ship) and a monthly plan (a
// subscription), for the README's shipping and subscription sessions.
item(6, 1, {
  type: "product",
  service_type: "delivery",
  sku: "COFFEE-1KG",
  price_minor: 8_000,
  name_en: "Saudi coffee beans, 1 kg",
  name_ar: "بن سعودي، ١ كجم",
  stock_qty: 200,
  weight: 1,
});
item(7, 1, {
  type: "subscription",
  service_type: "pickup",
  sku: "COFFEE-CLUB",
  price_minor: 2_000,
  name_en: "Coffee club, monthly",
  name_ar: "نادي القهوة، شهري",
  stock_qty: 1_000,
  is_plan_enabled: 1,
  plan_config: JSON.stringify({ duration: 1, duration_unit: "month", usage_limit: 4, usage_unit: "cup" }),
});
insert("item_modifier_categories", { app_id: 1, item_id: 1, category_id: 1 });
insert("item_modifier_categories", { app_id: 1, item_id: 1, category_id: 2 });
insert("variant_modifier_values", { app_id: 1, item_id: 2, value_id: 1 });
insert("variant_modifier_values", { app_id: 1, item_id: 3, value_id: 2 });
insert("item_category_links", { app_id: 1, item_id: 1, category_id: 1 });
insert("item_category_links", { app_id: 1, item_id: 4, category_id: 2 });
insert("item_category_links", { app_id: 1, item_id: 5, category_id: 1 });
insert("item_images", {
  id: 1,
  ...audit(1, 1),
  item_id: 1,
  url: "https://images.example.com/kabsa.jpg",
  alt_en: "Kabsa",
  alt_ar: "كبسة",
});
insert("item_images", {
  id: 2,
  ...audit(1, 1),
  item_id: 4,
  url: "https://images.example.com/museum.jpg",
  alt_en: "Museum hall",
  alt_ar: "قاعة المتحف",
});
insert("item_discounts", {
  id: 1,
  ...audit(1),
  item_id: 1,
  kind: "percentage",
  value: 1000,
  trial_kind: "fixed",
  trial_value: 5_000,
  is_usage_price: 0,
});
insert("item_bundle_categories", { app_id: 1, item_id: 1, bundle_category_id: 1 });

// App 2: another tenant's catalogue.
insert("modifier_categories", { id: 101, ...audit(2, 1), name_en: "Visitor", name_ar: "الزائر" });
insert("modifier_values", { id: 101, ...audit(2, 1), category_id: 101, name_en: "Adult", name_ar: "بالغ" });
insert("modifier_values", { id: 102, ...audit(2, 2), category_id: 101, name_en: "Child", name_ar: "طفل" });
insert("item_categories", { id: 101, ...audit(2), name_en: "Family outings", name_ar: "نزهات عائلية" });
insert("bundle_categories", {
  id: 101,
  ...audit(2),
  name_en: "Extras",
  name_ar: "إضافات",
  is_optional: 1,
  min_selections: 0,
  max_selections: 3,
});
item(101, 2, {
  sku: "ZOO",
  price_minor: 3_000,
  name_en: "Zoo entry",
  name_ar: "دخول حديقة الحيوان",
  stock_qty: 100,
  varies_on_id: 101,
});
item(102, 2, {
  parent_id: 101,
  sku: "ZOO-ADULT",
  price_minor: 3_000,
  name_en: "Zoo entry, adult",
  name_ar: "دخول حديقة الحيوان، بالغ",
  stock_qty: 80,
  variant_title_en: "Adult",
  variant_title_ar: "بالغ",
});
item(103, 2, {
  parent_id: 101,
  sku: "ZOO-CHILD",
  price_minor: 1_500,
  name_en: "Zoo entry, child",
  name_ar: "دخول حديقة الحيوان، طفل",
  stock_qty: 60,
  variant_title_en: "Child",
  variant_title_ar: "طفل",
});
item(104, 2, {
  sku: "AQUARIUM",
  price_minor: 4_500,
  name_en: "Aquarium entry",
  name_ar: "دخول الأحواض المائية",
  stock_qty: 200,
});
insert("item_modifier_categories", { app_id: 2, item_id: 101, category_id: 101 });
insert("variant_modifier_values", { app_id: 2, item_id: 102, value_id: 101 });
insert("variant_modifier_values", { app_id: 2, item_id: 103, value_id: 102 });
insert("item_category_links", { app_id: 2, item_id: 101, category_id: 101 });
insert("item_category_links", { app_id: 2, item_id: 104, category_id: 101 });
insert("item_bundle_categories", { app_id: 2, item_id: 101, bundle_category_id: 101 });

const customers: [string, string, string][] = [
  ["Sara Al-Qahtani", "sara@example.com", "+966501110001"],
  ["Omar Haddad", "omar@example.com", "+966501110002"],
  ["ليلى العتيبي", "layla@example.com", "+966501110003"],
  ["Yusuf Rahman", "yusuf@example.com", "+966501110004"],
  ["نورة الشمري", "noura@example.com", "+966501110005"],
  ["Khalid Nasser", null as unknown as string, null as unknown as string],
];
const statuses = ["pending", "pending", "confirmed", "checked_in", "cancelled", "pending"];
const ticketItems = [
  [2, "Kabsa class (small group)", "درس الكبسة (مجموعة صغيرة)", 25_000],
  [3, "Kabsa class (large group)", "درس الكبسة (مجموعة كبيرة)", 20_000],
  [4, "Museum day pass", "تذكرة المتحف اليومية", 5_000],
  [5, "Desert safari", "رحلة صحراوية", 45_000],
] as const;
for (let i = 0; i < 24; i++) {
  const [itemId, nameEn, nameAr, amount] = ticketItems[i % ticketItems.length]!;
  const [customerName, email, phone] = customers[i % customers.length]!;
  const status = statuses[i % statuses.length]!;
  insert("tickets", {
    id: i + 1,
    ...audit(1),
    invoice_item_id: 5000 + i,
    item_id: itemId,
    name_en: nameEn,
    name_ar: nameAr,
    status,
    total_amount_minor: amount,
    date: `2026-12-${String(1 + (i % 20)).padStart(2, "0")}`,
    time: i % 4 === 2 ? null : `${String(16 + (i % 5)).padStart(2, "0")}:00:00`,
    customer_name: customerName,
    customer_email: email,
    customer_phone: phone,
    token: randomToken("tkt_", 24),
    checked_in_at: status === "checked_in" ? NOW : null,
  });
}
for (let i = 0; i < 3; i++) {
  insert("tickets", {
    id: 1001 + i,
    ...audit(2),
    invoice_item_id: 9000 + i,
    item_id: 101,
    name_en: "Zoo entry",
    name_ar: "دخول حديقة الحيوان",
    status: "pending",
    total_amount_minor: 3_000,
    date: "2026-12-10",
    time: "10:00:00",
    customer_name: "Other tenant customer",
    customer_email: `zoo${i}@example.com`,
    customer_phone: null,
    token: randomToken("tkt_", 24),
  });
}

// The cities each store serves (geography is reference data, from migration 0007): 1 Riyadh, 2 Jeddah.
insert("supported_cities", { id: 1, ...audit(1, 1), city_id: 1 });
insert("supported_cities", { id: 2, ...audit(1, 2), city_id: 2 });
insert("supported_cities", { id: 3, ...audit(2, 1), city_id: 1 });

// Demo customers (ids 1–4 in app 1, 101–102 in app 2) with locations and memberships.
for (const r of [...customersDemo(1), ...customersDemo(2)])
  push(
    r.table,
    r.row,
    insertSql(r, (v) => lit(v as Parameters<typeof lit>[0])),
  );

// Their wallets: ledger entries, each `balance_after` the previous one plus `amount` (cashback in halalas).
const wallet = (id: number, app_id: number, customer_id: number, o: Record<string, unknown>) =>
  insert("wallet_entries", { id, app_id, customer_id, created_at: NOW, ...o });
wallet(1, 1, 1, { kind: "points", type: "deposit", amount: 500, balance_after: 500, reason: "Welcome points" });
wallet(2, 1, 1, {
  kind: "cashback",
  type: "deposit",
  amount: 2550,
  balance_after: 2550,
  reason: "Cashback",
  reference: "ORDER-1001",
});
wallet(3, 1, 1, { kind: "points", type: "redeem", amount: -120, balance_after: 380, reference: "ORDER-1002" });
wallet(4, 1, 2, {
  kind: "points",
  type: "deposit",
  amount: 200,
  balance_after: 200,
  expires_at: "2027-12-31T21:00:00.000Z",
});
wallet(5, 2, 101, { kind: "cashback", type: "deposit", amount: 1000, balance_after: 1000, reason: "Goodwill" });

// The meals side of the demo store: restaurants, menus and plans (one of 30 days).

// The demo store's settings (the seller and VAT number its tax invoices and their ZATCA QR name)
// and a featured voucher for the customer app's checkout.
insert("store_settings", {
  app_id: 1,
  name_en: "Demo store",
  name_ar: "المتجر التجريبي",
  seller_name: "شركة المتجر التجريبي",
  vat_number: "300000000000003",
  commercial_registration: "1010000000",
  address: "King Fahd Road, Riyadh",
  modified_at: NOW,
});
insert("vouchers", {
  id: 1,
  ...audit(1),
  code: "WELCOME10",
  title_en: "10% off your first order",
  title_ar: "خصم 10٪ على طلبك الأول",
  kind: "percentage",
  value: 1000,
  discount_on: "total",
  max_discount_minor: 5000,
  per_customer_limit: 1,
  is_featured: 1,
  status: "active",
});

// Shipping for the README's session: the store's warehouse as its default origin, and store wallet
// credit to buy labels with (a real store tops it up: Store Wallet Top-Up).
insert("pickup_locations", {
  id: 1,
  ...audit(1),
  name_en: "Main Warehouse",
  name_ar: "المستودع الرئيسي",
  address1: "Olaya St 1",
  lat: 24.69,
  lng: 46.68,
  city_id: 1,
  working_hours: JSON.stringify([{ day: "sunday", open: "09:00", close: "17:00" }]),
  is_default: 1,
});
insert("shipping_configs", { app_id: 1, default_pickup_location_id: 1, modified_at: NOW });
insert("store_wallet_entries", {
  id: 1,
  app_id: 1,
  type: "credit",
  source: "adjustment",
  amount_minor: 50_000,
  balance_after_minor: 50_000,
  reference: "Demo credit",
  created_at: NOW,
});

for (const r of mealsDemo(1, 0))
  push(
    r.table,
    r.row,
    insertSql(r, (v) => lit(v as never)),
  );
// Green Bowl (restaurant 1) delivers its plans over central Riyadh too, so that its windows serve
// the demo customer's home (location 1) in the README's meal plan session.
insert("delivery_zones", {
  id: 900,
  ...audit(1),
  restaurant_id: 1,
  city_id: 1,
  name_en: "Central Riyadh",
  polygon: CENTRAL_RIYADH_POLYGON,
});

try {
  for (const [database, rows] of Object.entries(rowsOf)) executeLocal(rows.join("\n"), database);
} catch (error) {
  // The cause, as d1FailureCause words it; a stack trace of this script would say nothing more.
  process.stderr.write(`seed: ${(error as Error).message}\n`);
  process.exit(1);
}
const seeded = Object.values(rowsOf).reduce((n, rows) => n + rows.length, 0);
process.stderr.write(`seeded ${seeded} rows (existing ones kept)\n`);
