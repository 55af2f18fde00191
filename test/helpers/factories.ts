import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import {
  mintMerchantToken,
  PERMISSIONS,
  type Permission,
  revokeMerchantToken,
  signCustomerToken,
} from "../../src/core/auth";
import type { ServiceContext } from "../../src/core/context";
import { createDb } from "../../src/db/client";
import { tokenDirectory } from "../../src/db/directory";
import { directoryOf, shardNames, shardOf } from "../../src/db/shards";
import { customers } from "../../src/modules/customers/tables";
import {
  bundleCategories,
  itemBundleCategories,
  itemCategories,
  itemCategoryLinks,
  itemDiscounts,
  itemImages,
  itemModifierCategories,
  items,
  modifierCategories,
  modifierValues,
  variantModifierValues,
} from "../../src/modules/items/tables";
import { createTickets, type NewTicket } from "../../src/modules/tickets/service";
import { newSecret } from "../../src/modules/webhooks/signing";
import { webhooks } from "../../src/modules/webhooks/tables";

/**
 * The two stores a test file may take for granted (organizations of the same ids). Stores 1 and 2
 * where a file has a database of its own; where files share one, each file gets two new stores
 * (`useStoresOfThisFile`, run by the setup file), so that no file sees another's rows in them.
 */
export let APP_1 = 1;
export let APP_2 = 2;
/**
 * A third store, for the files that need one (the contract suite's store X): a new one in the shared
 * database, like APP_1 and APP_2; with a database of its own, store 3, which a file creates itself
 * (`ensureTenant`).
 */
export let APP_3 = 3;

/**
 * Gives the test file about to run three stores of its own, as APP_1, APP_2 and APP_3: the next ids
 * after the stores the database already has. Read from the database, not counted in this module,
 * which each file of a shared runtime imports afresh (a counter here gave every file the same
 * stores); the files of one runtime run one after another, so two never take the same.
 */
export async function useStoresOfThisFile(): Promise<void> {
  // The directory allocates store ids: the next ones after every store it has, whatever its shard.
  const taken = await directoryOf(env)
    .prepare("SELECT coalesce(max(id), ?) AS id FROM apps WHERE id > ?")
    .bind(FIRST_FILE_STORE - 1, FIRST_FILE_STORE - 1)
    .first<{ id: number }>();
  APP_1 = taken!.id + 1;
  APP_2 = APP_1 + 1;
  APP_3 = APP_1 + 2;
  // APP_2 on the second shard, as store 2: every isolation check crosses shards.
  await Promise.all([ensureTenant(APP_1), ensureTenant(APP_2, "SHARD_2"), ensureTenant(APP_3)]);
}
/** Where the stores of the files that share a database begin, far from the fixed ids files use. */
const FIRST_FILE_STORE = 1_000_001;

/**
 * The shard each store of this file was placed on (ensureTenant): store 2 and APP_2 on SHARD_2, every
 * other store on SHARD_1 unless Create Store placed it elsewhere (`storePlaced`).
 */
const placed = new Map<number, string>([[2, "SHARD_2"]]);

/** Where the platform's Create Store placed a store (its answer's `shard`): test/helpers/platform.ts. */
export function storePlaced(appId: number, shard: string): void {
  placed.set(appId, shard);
}

/** The name of a store's shard binding (`SHARD_1`). */
export function shardNameFor(appId: number): string {
  return placed.get(appId) ?? (appId === APP_2 ? "SHARD_2" : "SHARD_1");
}

/** The database of a store's shard, for a test that reads or writes its rows directly. */
export function shardFor(appId: number): D1Database {
  return shardOf(env, shardNameFor(appId));
}

/** Drizzle over a store's shard (store APP_1's unless told). */
export const db = (appId: number = APP_1) => createDb(shardFor(appId));

/** Organizations 1 and 2, each with its app: two tenants for isolation tests, on different shards. */
export async function seedTenants(): Promise<void> {
  await Promise.all([
    ensureTenant(1, "SHARD_1", { org: "Demo org", en: "Demo store", ar: "المتجر التجريبي" }),
    ensureTenant(2, "SHARD_2", { org: "Other org", en: "Other store", ar: "متجر آخر" }),
  ]);
}

/**
 * A further tenant (organization and app with the same id, or an app of organization `orgId`), for
 * tests that need their own: its rows on `shard`, its directory rows beside them, as the platform's
 * Create Store leaves them.
 */
export async function ensureTenant(
  id: number,
  shard = placed.get(id) ?? "SHARD_1",
  names = { org: `Org ${id}`, en: `Store ${id}`, ar: `متجر ${id}` },
  orgId = id,
): Promise<void> {
  placed.set(id, shard);
  const at = "2026-01-01T00:00:00.000Z";
  const org = "INSERT OR IGNORE INTO organizations (id, name, created_at) VALUES (?, ?, ?)";
  const rows = (d1: D1Database, app: string, ...extra: unknown[]) => [
    d1.prepare(org).bind(orgId, names.org, at),
    d1.prepare(app).bind(id, orgId, names.en, names.ar, at, ...extra),
  ];
  await Promise.all([
    shardFor(id).batch(
      rows(
        shardFor(id),
        "INSERT OR IGNORE INTO apps (id, org_id, name_en, name_ar, created_at) VALUES (?, ?, ?, ?, ?)",
      ),
    ),
    directoryOf(env).batch(
      rows(
        directoryOf(env),
        "INSERT OR IGNORE INTO apps (id, org_id, name_en, name_ar, created_at, shard, provisioned_at) " +
          "VALUES (?, ?, ?, ?, ?, ?, ?)",
        shard,
        at,
      ),
    ),
  ]);
}

export async function tokenFor(
  appId: number,
  permissions: Permission[] = [...PERMISSIONS],
  opts: { expiresAt?: string } = {},
) {
  const { token } = await mintMerchantToken(
    db(appId),
    {
      appId,
      name: "test",
      permissions,
      expiresAt: opts.expiresAt ?? null,
    },
    tokenDirectory(env),
  );
  return token;
}

export async function revokedTokenFor(appId: number, permissions: Permission[] = [...PERMISSIONS]) {
  const { id, token } = await mintMerchantToken(
    db(appId),
    { appId, name: "revoked", permissions },
    tokenDirectory(env),
  );
  await revokeMerchantToken(db(appId), appId, id, tokenDirectory(env));
  return token;
}

/** A service context whose deferred work (publishing events) is awaited by `settle()`. */
export function serviceCtx(
  appId: number,
  queues: { events?: Queue; jobs?: Queue } = {},
): ServiceContext & { settle: () => Promise<void> } {
  const pending: Promise<unknown>[] = [];
  return {
    db: db(appId),
    appId,
    events: { queue: queues.events ?? env.EVENTS, defer: (p) => void pending.push(p) },
    jobs: queues.jobs ?? env.JOBS,
    settle: async () => void (await Promise.all(pending)),
  };
}

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

/**
 * A full item: two modifier categories (one with values the variants vary on), two variants,
 * images, a discount with a trial, a category and a bundle category.
 */
export async function createFullItem(appId: number, overrides: Partial<typeof items.$inferInsert> = {}) {
  const d = db(appId);
  const u = uniq();
  const [size] = await d
    .insert(modifierCategories)
    .values({ appId, nameEn: "Size", nameAr: "الحجم", ordering: 1 })
    .returning();
  const [small, large] = await d
    .insert(modifierValues)
    .values([
      { appId, categoryId: size!.id, nameEn: "Small", nameAr: "صغير", ordering: 1 },
      { appId, categoryId: size!.id, nameEn: "Large", nameAr: "كبير", ordering: 2 },
    ])
    .returning();
  const [extras] = await d
    .insert(modifierCategories)
    .values({ appId, nameEn: "Extras", nameAr: "إضافات", ordering: 2 })
    .returning();
  await d
    .insert(modifierValues)
    .values({ appId, categoryId: extras!.id, nameEn: "Cheese", nameAr: "جبن", ordering: 1 });
  const [item] = await d
    .insert(items)
    .values({
      appId,
      type: "ticket",
      serviceType: "on_site",
      sku: `SKU-${u}`,
      priceMinor: 10_000,
      nameEn: "Cooking class",
      nameAr: "درس طبخ",
      descriptionEn: "Two hours",
      descriptionAr: "ساعتان",
      customFields: { level: "beginner" },
      offDays: ["friday"],
      offDates: ["2026-12-25"],
      servedFromDate: "2026-01-01",
      servedToDate: "2026-12-31",
      servedFromTime: "09:00:00",
      servedToTime: "17:00:00",
      weight: 0.5,
      stockQty: 7,
      variesOnId: size!.id,
      ...overrides,
    })
    .returning();
  const variants = await d
    .insert(items)
    .values(
      [small!, large!].map((v, i) => ({
        appId,
        parentId: item!.id,
        type: "ticket" as const,
        serviceType: "on_site" as const,
        sku: `SKU-${u}-${i}`,
        priceMinor: 10_000 + i * 5_000,
        nameEn: `Cooking class ${v.nameEn}`,
        nameAr: `درس طبخ ${v.nameAr}`,
        stockQty: i,
        variantTitleEn: v.nameEn,
        variantTitleAr: v.nameAr,
        ordering: i,
      })),
    )
    .returning();
  const [category] = await d.insert(itemCategories).values({ appId, nameEn: "Classes", nameAr: "دروس" }).returning();
  const [bundle] = await d
    .insert(bundleCategories)
    .values({ appId, nameEn: "Add-ons", nameAr: "إضافات", minSelections: 0, maxSelections: 2, isOptional: true })
    .returning();
  await d.batch([
    d.insert(itemModifierCategories).values([
      { appId, itemId: item!.id, categoryId: size!.id },
      { appId, itemId: item!.id, categoryId: extras!.id },
    ]),
    d.insert(variantModifierValues).values([
      { appId, itemId: variants[0]!.id, valueId: small!.id },
      { appId, itemId: variants[1]!.id, valueId: large!.id },
    ]),
    d.insert(itemCategoryLinks).values({ appId, itemId: item!.id, categoryId: category!.id }),
    d.insert(itemImages).values({
      appId,
      itemId: item!.id,
      url: "https://cdn.example.com/class.jpg",
      altEn: "Class",
      altAr: "درس",
      ordering: 1,
    }),
    d
      .insert(itemDiscounts)
      .values({ appId, itemId: item!.id, kind: "percentage", value: 1000, trialKind: "fixed", trialValue: 5000 }),
    d.insert(itemBundleCategories).values({ appId, itemId: item!.id, bundleCategoryId: bundle!.id }),
  ]);
  return {
    item: item!,
    variants,
    size: size!,
    extras: extras!,
    values: [small!, large!],
    category: category!,
    bundle: bundle!,
  };
}

/** A plain item with nothing attached. */
export async function createPlainItem(appId: number, overrides: Partial<typeof items.$inferInsert> = {}) {
  const [item] = await db(appId)
    .insert(items)
    .values({
      appId,
      type: "product",
      serviceType: "pickup",
      sku: `P-${uniq()}`,
      priceMinor: 2_500,
      nameEn: "Coffee",
      nameAr: "قهوة",
      ...overrides,
    })
    .returning();
  return item!;
}

export async function createTicketsFor(appId: number, itemId: number, n: number, overrides: Partial<NewTicket> = {}) {
  const ctx = serviceCtx(appId);
  const input: NewTicket[] = Array.from({ length: n }, (_, i) => ({
    invoiceItemId: 1000 + i,
    itemId,
    nameEn: `Entry ${i}`,
    nameAr: `دخول ${i}`,
    totalAmountMinor: 10_050,
    date: "2026-12-01",
    time: "18:30:00",
    customerName: `Customer ${i}`,
    customerEmail: `customer${i}@example.com`,
    customerPhone: `+96650000${String(i).padStart(4, "0")}`,
    ...overrides,
  }));
  const created = await createTickets(ctx, input);
  await ctx.settle();
  return created;
}

/** A webhook inserted directly (the API refuses local targets); returns its row. */
export async function createWebhookFor(appId: number, overrides: Partial<typeof webhooks.$inferInsert> = {}) {
  const [row] = await db(appId)
    .insert(webhooks)
    .values({
      appId,
      url: `https://hooks.example.org/${uniq()}`,
      secretKey: newSecret(),
      events: ["ticket.updated"],
      headers: {},
      ...overrides,
    })
    .returning();
  return row!;
}

/** The rows of `table` that `where` matches, on every shard. */
export async function countRows(table: string, where = "1"): Promise<number> {
  const counts = await Promise.all(
    shardNames(env).map((name) =>
      shardOf(env, name).prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).first<{ n: number }>(),
    ),
  );
  return counts.reduce((n, row) => n + row!.n, 0);
}

export { sql };

/**
 * A customer access token as the login issues it (a JWT signed with the Worker's secret), for
 * customer `customerId` of store `appId`; `expiresIn` may be negative for an expired one.
 */
export async function customerTokenFor(
  appId: number,
  customerId: number,
  opts: { expiresIn?: number; secret?: string; kind?: string; shard?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const secret = opts.secret ?? env.CUSTOMER_JWT_SECRET;
  return signCustomerToken(secret, {
    sub: String(customerId),
    app_id: appId,
    kind: (opts.kind ?? "customer") as "customer",
    iat: now,
    exp: now + (opts.expiresIn ?? 900),
    shard: opts.shard ?? shardNameFor(appId),
  });
}

let customerSerial = 0;

/**
 * A customer of store `appId` with a fresh, valid Saudi mobile number (55…: a range every mobile
 * check accepts; the same isolate never repeats one).
 */
export async function createCustomerFor(appId: number, overrides: Partial<typeof customers.$inferInsert> = {}) {
  customerSerial += 1;
  const local = `55${String(Date.now() % 1e3).padStart(3, "0")}${String(customerSerial).padStart(4, "0")}`;
  const [row] = await db(appId)
    .insert(customers)
    .values({ appId, countryCode: "966", mobileNumber: `966${local}`, username: `0${local}`, ...overrides })
    .returning();
  return row!;
}
