import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { savedPaymentMethods } from "../../src/modules/orders/payment-methods/tables";
import { checkoutConfig } from "../../src/modules/orders/tables";
import { sharedCustomerAuthCases } from "../helpers/auth-cases";
import { createCustomerFor, customerTokenFor, db, ensureTenant } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";

const APP = 73;
const OTHER_STORE = 74;
const PROVIDERS = "/order/v1/payment-methods/providers/";
const METHODS = "/order/v1/payment-methods/";

type Card = { id: number; gateway: string; brand: string; last4: string; is_default: boolean; [k: string]: unknown };

async function saveCard(
  appId: number,
  customerId: number,
  over: Partial<typeof savedPaymentMethods.$inferInsert> = {},
) {
  const [row] = await db(appId)
    .insert(savedPaymentMethods)
    .values({
      appId,
      customerId,
      gateway: "myfatoorah",
      brand: "mada",
      last4: "1019",
      expiryMonth: 5,
      expiryYear: 2029,
      token: "tok_SECRET_never_shown",
      ...over,
    })
    .returning();
  return row!;
}

const deletedEvents = (id: number) =>
  db().all<{ type: string; payload: string }>(
    sql`SELECT type, payload FROM outbox_events WHERE type = 'payment_method.deleted' AND payload ->> '$.data.id' = ${id}`,
  );

let sara: { id: number; token: string };
let omar: { id: number; token: string };

beforeAll(async () => {
  await ensureTenant(APP);
  await ensureTenant(OTHER_STORE);
  const [a, b] = [await createCustomerFor(APP), await createCustomerFor(APP)];
  sara = { id: a.id, token: await customerTokenFor(APP, a.id) };
  omar = { id: b.id, token: await customerTokenFor(APP, b.id) };
});

describe("List Enabled Payment Providers (CA13)", () => {
  it("lists every provider with its methods while the store has no checkout config", async () => {
    const res = await call(PROVIDERS, { appId: APP, token: sara.token });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ count: 4, next: null, previous: null });
    expect(body.results.map((p: { provider_id: string }) => p.provider_id)).toEqual([
      "card",
      "wallet",
      "cash_on_delivery",
      "bank_transfer",
    ]);
    expect(body.results[0]).toEqual({
      provider_id: "card",
      name_en: "Card",
      name_ar: "البطاقة",
      methods: [
        { id: "mada", name_en: "mada", name_ar: "مدى", image: null },
        { id: "visa_master", name_en: "Visa / Mastercard", name_ar: "فيزا / ماستركارد", image: null },
        { id: "apple_pay", name_en: "Apple Pay", name_ar: "Apple Pay", image: null },
      ],
    });
  });

  it("lists what the store enabled, in its order, without unknown or repeated ids", async () => {
    await db(OTHER_STORE)
      .insert(checkoutConfig)
      .values({ appId: OTHER_STORE, enabledProviders: ["bank_transfer", "free", "card", "bank_transfer", "tabby"] });
    const customer = await createCustomerFor(OTHER_STORE);
    const res = await call(PROVIDERS, { appId: OTHER_STORE, token: await customerTokenFor(OTHER_STORE, customer.id) });
    const body = await json(res);
    expect(body.count).toBe(2);
    expect(body.results.map((p: { provider_id: string }) => p.provider_id)).toEqual(["bank_transfer", "card"]);
    // The checkout result's `payment_methods` is the same list.
    const { enabledProviderGroups } = await import("../../src/modules/orders/payment-methods/service");
    expect(await enabledProviderGroups(db(), OTHER_STORE)).toEqual(body.results);
  });
});

describe("List Payment Methods (CA13)", () => {
  let cards: { default: number; older: number; newer: number; removed: number; omars: number };
  beforeAll(async () => {
    const older = await saveCard(APP, sara.id, { brand: "visa", last4: "4242", createdAt: "2026-01-01T00:00:00.000Z" });
    const def = await saveCard(APP, sara.id, { isDefault: true, createdAt: "2025-06-01T00:00:00.000Z" });
    const newer = await saveCard(APP, sara.id, {
      brand: "mastercard",
      last4: "5454",
      createdAt: "2026-03-01T00:00:00.000Z",
    });
    const removed = await saveCard(APP, sara.id, { isDeleted: true, deletedAt: "2026-03-02T00:00:00.000Z" });
    const omars = await saveCard(APP, omar.id, { last4: "0000" });
    cards = { default: def.id, older: older.id, newer: newer.id, removed: removed.id, omars: omars.id };
  });

  it("lists the customer's own live cards, the default first then the newest, never a token", async () => {
    const res = await call(METHODS, { appId: APP, token: sara.token });
    expect(res.status).toBe(200);
    const text = await res.clone().text();
    expect(text).not.toContain("tok_SECRET");
    expect(text).not.toContain('"token"');
    const body = await json<{ count: number; results: Card[] }>(res);
    expect(body.count).toBe(3);
    expect(body.results.map((c) => c.id)).toEqual([cards.default, cards.newer, cards.older]);
    expect(body.results[0]).toEqual({
      id: cards.default,
      gateway: "myfatoorah",
      brand: "mada",
      last4: "1019",
      expiry_month: 5,
      expiry_year: 2029,
      is_default: true,
      created_at: "2025-06-01T00:00:00.000Z",
      modified_at: expect.stringMatching(/Z$/),
      is_deleted: false,
    });
  });

  it("pages and filters like every list", async () => {
    const first = await json(await call(`${METHODS}?page_size=2`, { appId: APP, token: sara.token }));
    expect(first.count).toBe(3);
    expect(first.results).toHaveLength(2);
    expect(first.next).toContain("page=2");
    const visa = await json(await call(`${METHODS}?brand=visa`, { appId: APP, token: sara.token }));
    expect(visa.results.map((c: Card) => c.id)).toEqual([cards.older]);
    const bad = await call(`${METHODS}?token=x`, { appId: APP, token: sara.token });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("token");
  });

  it("shows another customer only their own", async () => {
    const body = await json(await call(METHODS, { appId: APP, token: omar.token }));
    expect(body.results.map((c: Card) => c.id)).toEqual([cards.omars]);
  });
});

describe("Delete Payment Method (CA13)", () => {
  it("removes the customer's card with payment_method.deleted; it is gone from the list", async () => {
    const card = await saveCard(APP, sara.id, { last4: "7777" });
    const res = await call(`${METHODS}${card.id}/`, { method: "DELETE", appId: APP, token: sara.token });
    expect(res.status).toBe(204);
    const [row] = await db().select().from(savedPaymentMethods).where(eq(savedPaymentMethods.id, card.id));
    expect(row).toMatchObject({ isDeleted: true });
    expect(row!.deletedAt).toBeTruthy();
    const events = await deletedEvents(card.id);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      type: "payment_method.deleted",
      app_id: APP,
      data: { id: card.id, customer_id: sara.id },
    });
    const list = await json(await call(METHODS, { appId: APP, token: sara.token }));
    expect(list.results.map((c: Card) => c.id)).not.toContain(card.id);
    // Again: it is no longer there.
    const again = await call(`${METHODS}${card.id}/`, { method: "DELETE", appId: APP, token: sara.token });
    expect(again.status).toBe(404);
    expect((await problem(again)).code).toBe("payment_method_not_found");
    expect(await deletedEvents(card.id)).toHaveLength(1);
  });

  it("answers 404 payment_method_not_found for another customer's card, and leaves it", async () => {
    const card = await saveCard(APP, omar.id, { last4: "8888" });
    for (const appId of [APP, OTHER_STORE]) {
      const token =
        appId === APP ? sara.token : await customerTokenFor(OTHER_STORE, (await createCustomerFor(OTHER_STORE)).id);
      const res = await call(`${METHODS}${card.id}/`, { method: "DELETE", appId, token });
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("payment_method_not_found");
    }
    const [row] = await db().select().from(savedPaymentMethods).where(eq(savedPaymentMethods.id, card.id));
    expect(row!.isDeleted).toBe(false);
    expect(await deletedEvents(card.id)).toHaveLength(0);
  });

  it("a mirror of the customer's cards sees a removal: modified_at moves, include_deleted shows it marked", async () => {
    const lina = await createCustomerFor(APP);
    const token = await customerTokenFor(APP, lina.id);
    const old = "2025-01-01T00:00:00.000Z";
    const kept = await saveCard(APP, lina.id, { last4: "1111", createdAt: old, modifiedAt: old });
    const gone = await saveCard(APP, lina.id, { last4: "2222", createdAt: old, modifiedAt: old });
    // Another customer's removed card, changed in the same window: never shown to her.
    const others = await saveCard(APP, omar.id, { last4: "3333", createdAt: old, modifiedAt: old });
    const before = new Date().toISOString();
    expect((await call(`${METHODS}${gone.id}/`, { method: "DELETE", appId: APP, token })).status).toBe(204);
    expect((await call(`${METHODS}${others.id}/`, { method: "DELETE", appId: APP, token: omar.token })).status).toBe(
      204,
    );

    const since = `${METHODS}?modified_at__gte=${before}&order_by=modified_at`;
    // Without include_deleted the removed card is hidden, and the unchanged one is older than `since`.
    expect((await json(await call(since, { appId: APP, token }))).results).toEqual([]);
    const changed = await json(await call(`${since}&include_deleted=true`, { appId: APP, token }));
    expect(changed.results).toEqual([
      expect.objectContaining({ id: gone.id, last4: "2222", is_deleted: true, modified_at: expect.any(String) }),
    ]);
    expect(changed.results[0].modified_at >= before).toBe(true);
    const all = await json(await call(`${METHODS}?include_deleted=true&order_by=-modified_at`, { appId: APP, token }));
    expect(all.results.map((c: Card) => [c.id, c.is_deleted])).toEqual([
      [gone.id, true],
      [kept.id, false],
    ]);
    const bad = await call(`${METHODS}?include_deleted=maybe`, { appId: APP, token });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("include_deleted");
  });

  it("answers a malformed id with 400", async () => {
    const res = await call(`${METHODS}abc/`, { method: "DELETE", appId: APP, token: sara.token });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty("payment_method_id");
  });
});

sharedCustomerAuthCases({ method: "GET", path: METHODS });
sharedCustomerAuthCases({ method: "GET", path: PROVIDERS });
sharedCustomerAuthCases({ method: "DELETE", path: `${METHODS}1/` });
