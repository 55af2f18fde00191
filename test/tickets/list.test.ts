import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { observeRoundTrips, observeStatements } from "../../src/db/client";
import { items } from "../../src/modules/items/tables";
import { tickets } from "../../src/modules/tickets/tables";
import { APP_1, APP_2, createFullItem, createPlainItem, createTicketsFor, db, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, json, problem } from "../helpers/request";

const PATH = "/order/v1/merchant/fulfillments/tickets/";

describe("List Tickets", () => {
  let token: string;
  let full: Awaited<ReturnType<typeof createFullItem>>;
  let ids: number[];

  beforeAll(async () => {
    token = await tokenFor(APP_1, ["can_read_order"]);
    full = await createFullItem(APP_1);
    ids = (await createTicketsFor(APP_1, full.item.id, 3)).map((t) => t.id);
  });

  const list = (query = "") => call(PATH + query, { token });

  it("serves a newly created ticket with status pending and every field of spec 2.1", async () => {
    const res = await list(`?id=${ids[0]}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await json(res);
    expect(body).toEqual({ count: 1, next: null, previous: null, results: [expect.any(Object)] });
    const t = body.results[0];
    expect(Object.keys(t).sort()).toEqual(
      [
        "id",
        "created_at",
        "invoice_item_id",
        "item",
        "name_en",
        "name_ar",
        "status",
        "total_amount",
        "date",
        "time",
        "customer_name",
        "customer_email",
        "customer_phone",
        "modified_at", // beyond 2.1: what a mirror resumes from
      ].sort(),
    );
    expect(t).toMatchObject({
      id: ids[0],
      invoice_item_id: 1000,
      name_en: "Entry 0",
      name_ar: "دخول 0",
      status: "pending",
      total_amount: 100.5,
      date: "2026-12-01",
      time: "18:30:00",
      customer_name: "Customer 0",
      customer_email: "customer0@example.com",
      customer_phone: "+966500000000",
    });
    expect(t.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it("embeds the full Item object of spec 2.2, computed discount and stock included", async () => {
    const t = (await json(await list(`?id=${ids[0]}`))).results[0];
    const item = t.item;
    expect(item).toMatchObject({
      id: full.item.id,
      custom_fields: { level: "beginner" },
      discount: {
        is_applied: true,
        is_trial_applied: true,
        is_usage_price: false,
        price_after_discount_no_trial: 90,
        price_after_discount: 50,
      },
      stock: { in_stock: true, qty: 7 },
      varies_on: String(full.size.id),
      plan_config: null,
      off_days: ["friday"],
      off_dates: ["2026-12-25"],
      app_id: APP_1,
      ordering: 0,
      type: "ticket",
      service_type: "on_site",
      price: 100,
      name_en: "Cooking class",
      name_ar: "درس طبخ",
      description_en: "Two hours",
      description_ar: "ساعتان",
      is_plan_only: false,
      is_plan_enabled: false,
      served_from_date: "2026-01-01",
      served_to_date: "2026-12-31",
      served_from_time: "09:00:00",
      served_to_time: "17:00:00",
      weight: 0.5,
      categories: [full.category.id],
    });
    expect(item.images).toEqual([
      { id: expect.any(Number), url: "https://cdn.example.com/class.jpg", alt_en: "Class", alt_ar: "درس", ordering: 1 },
    ]);
    expect(item.modifiers).toEqual([
      {
        id: full.size.id,
        ordering: 1,
        name_en: "Size",
        name_ar: "الحجم",
        values: [
          { id: full.values[0]!.id, ordering: 1, name_en: "Small", name_ar: "صغير" },
          { id: full.values[1]!.id, ordering: 2, name_en: "Large", name_ar: "كبير" },
        ],
      },
      {
        id: full.extras.id,
        ordering: 2,
        name_en: "Extras",
        name_ar: "إضافات",
        values: [expect.objectContaining({ name_en: "Cheese" })],
      },
    ]);
    expect(item.bundle_categories).toEqual([
      {
        id: full.bundle.id,
        name_en: "Add-ons",
        name_ar: "إضافات",
        is_selectable: true,
        is_optional: true,
        min_selections: 0,
        max_selections: 2,
        ordering: 0,
      },
    ]);
    expect(item.variants).toHaveLength(2);
    const [small, large] = item.variants;
    expect(small).toMatchObject({
      id: full.variants[0]!.id,
      variant_title_en: "Small",
      variant_title_ar: "صغير",
      modifier_values: [full.values[0]!.id],
      price: 100,
      stock: { in_stock: false, qty: 0 },
    });
    expect(large).toMatchObject({
      variant_title_en: "Large",
      modifier_values: [full.values[1]!.id],
      price: 150,
      stock: { in_stock: true, qty: 1 },
    });
    expect(small).not.toHaveProperty("categories");
    expect(small).not.toHaveProperty("variants");
    expect(small.discount).toEqual({
      is_applied: false,
      is_trial_applied: false,
      is_usage_price: false,
      price_after_discount_no_trial: 100,
      price_after_discount: 100,
    });
  });

  it("still shows a ticket whose item was soft-deleted", async () => {
    const gone = await createPlainItem(APP_1, { nameEn: "Retired", nameAr: "متقاعد" });
    const [t] = await createTicketsFor(APP_1, gone.id, 1);
    await db().update(items).set({ isDeleted: true, deletedAt: new Date().toISOString() }).where(eq(items.id, gone.id));
    const body = await json(await list(`?id=${t!.id}`));
    expect(body.results[0].item).toMatchObject({ id: gone.id, name_en: "Retired" });
  });

  it("hides soft-deleted tickets", async () => {
    const [t] = await createTicketsFor(APP_1, full.item.id, 1);
    await db()
      .update(tickets)
      .set({ isDeleted: true })
      .where(and(eq(tickets.id, t!.id)));
    expect((await json(await list(`?id=${t!.id}`))).count).toBe(0);
  });

  it("never shows another tenant's tickets, even filtered by their id", async () => {
    const other = await createPlainItem(APP_2);
    const theirs = await rowCallerLacks(
      "tickets",
      APP_1,
      async () => (await createTicketsFor(APP_2, other.id, 1, { nameEn: "Theirs" }))[0]!,
    );
    const body = await json(await list(`?id=${theirs!.id}`));
    expect(body.count).toBe(0);
    const all = await json(await list("?page_size=100&search=Theirs"));
    expect(all.results.every((t: { item: { app_id: number } }) => t.item.app_id === APP_1)).toBe(true);
  });

  it("runs a constant number of D1 statements whatever the page size", async () => {
    const many = await createPlainItem(APP_1);
    const fulls = await Promise.all([createFullItem(APP_1), createFullItem(APP_1)]);
    await createTicketsFor(APP_1, many.id, 60, { nameEn: "Bounded" });
    for (const f of fulls) await createTicketsFor(APP_1, f.item.id, 30, { nameEn: "Bounded" });
    const counts: number[] = [];
    for (const size of [1, 10, 100]) {
      let n = 0;
      let trips = 0;
      let lookups = 0;
      let params = 0;
      const stop = observeStatements((q) => {
        n++;
        if (q.includes("merchant_api_tokens")) lookups++;
        else params = q.split("?").length - 1;
      });
      const stopTrips = observeRoundTrips(() => trips++);
      const res = await list(`?search=Bounded&page_size=${size}`);
      stop();
      stopTrips();
      expect(res.status).toBe(200);
      expect((await json(res)).results).toHaveLength(size);
      counts.push(n);
      // Besides the token's lookup: the count, the page and every ticket's full item in one round trip.
      expect(trips - lookups, `page_size=${size}`).toBe(1);
      expect(n - lookups, `page_size=${size}: one statement`).toBe(1);
      // D1 takes at most 100 bound parameters a statement.
      expect(params).toBeLessThanOrEqual(100);
    }
    expect(counts[0]).toBeGreaterThan(0);
    // The token's lookup is made unless the isolate holds the token (at most a second).
    expect(counts.every((c) => c === 1 || c === 2)).toBe(true);
  });
});

describe("List Tickets: filters, search, order, pages", () => {
  let token: string;
  let itemA: number;
  let itemB: number;
  const tag = `F${Date.now().toString(36)}`;

  beforeAll(async () => {
    token = await tokenFor(APP_1, ["can_read_order"]);
    itemA = (await createPlainItem(APP_1)).id;
    itemB = (await createPlainItem(APP_1)).id;
    await createTicketsFor(APP_1, itemA, 3, {
      nameEn: `${tag} Concert`,
      nameAr: "حفلة",
      date: "2026-12-01",
      totalAmountMinor: 5_000,
    });
    await createTicketsFor(APP_1, itemB, 2, {
      nameEn: `${tag} Museum`,
      nameAr: "متحف",
      date: "2026-12-05",
      totalAmountMinor: 12_000,
      time: null,
      customerEmail: null,
    });
  });

  const list = (q: string) => call(`${PATH}?search=${tag}&${q}`, { token });

  it.each([
    ["item", () => `item=${itemB}`, 2],
    ["date", () => "date=2026-12-05", 2],
    ["date range", () => "date__gte=2026-12-02&date__lte=2026-12-31", 2],
    ["status", () => "status=pending", 5],
    ["status__in", () => "status__in=confirmed,cancelled", 0],
    ["total_amount in major units", () => "total_amount=120", 2],
    ["total_amount__lt", () => "total_amount__lt=100.5", 3],
    ["time__isnull", () => "time__isnull=true", 2],
    ["customer_email", () => "customer_email=customer1@example.com", 1],
    ["customer_email__isnull", () => "customer_email__isnull=true", 2],
    ["invoice_item_id", () => "invoice_item_id=1000", 2],
    ["name_ar", () => "name_ar=متحف", 2],
    ["created_at as a day", () => `created_at=${new Date().toISOString().slice(0, 10)}`, 5],
  ])("filters on %s", async (_name, q, expected) => {
    const res = await list(q());
    expect(res.status).toBe(200);
    expect((await json(res)).count).toBe(expected);
  });

  it("searches names in both languages and customer fields; repeated terms must all match", async () => {
    expect((await json(await call(`${PATH}?search=${tag}&search=Museum`, { token }))).count).toBe(2);
    expect(
      (await json(await call(`${PATH}?search=${tag}&search=${encodeURIComponent("حفلة")}`, { token }))).count,
    ).toBe(3);
    expect((await json(await call(`${PATH}?search=${tag}&search=customer2@exa`, { token }))).count).toBe(1);
    expect((await json(await call(`${PATH}?search=${tag}&search=nomatchhere`, { token }))).count).toBe(0);
    // Terms match the starts of words, case- and diacritic-insensitively.
    expect((await json(await call(`${PATH}?search=${tag}&search=conc`, { token }))).count).toBe(3);
    // Short terms (under a trigram) still match, and LIKE wildcards are literal.
    expect((await json(await call(`${PATH}?search=${tag}&search=Mu`, { token }))).count).toBe(2);
    expect((await json(await call(`${PATH}?search=${tag}&search=%25`, { token }))).count).toBe(0);
  });

  it("orders by any field, descending with -", async () => {
    const asc = (await json(await list("order_by=total_amount,id"))).results.map(
      (t: { total_amount: number }) => t.total_amount,
    );
    expect(asc).toEqual([50, 50, 50, 120, 120]);
    const desc = (await json(await list("order_by=-date"))).results.map((t: { date: string }) => t.date);
    expect(desc).toEqual(["2026-12-05", "2026-12-05", "2026-12-01", "2026-12-01", "2026-12-01"]);
  });

  it("pages with absolute next/previous URLs that keep the other parameters", async () => {
    const first = await json(await list("page_size=2&order_by=id"));
    expect(first.count).toBe(5);
    expect(first.results).toHaveLength(2);
    expect(first.previous).toBeNull();
    const next = new URL(first.next);
    expect(next.origin + next.pathname).toBe(`https://api.test${PATH}`);
    expect(next.searchParams.get("page")).toBe("2");
    expect(next.searchParams.get("page_size")).toBe("2");
    expect(next.searchParams.get("search")).toBe(tag);
    const second = await json(await call(next.pathname + next.search, { token }));
    expect(second.results[0].id).toBeGreaterThan(first.results[1].id);
    expect(new URL(second.previous).searchParams.get("page")).toBe("1");
    const last = await json(await list("page_size=2&order_by=id&page=3"));
    expect(last.results).toHaveLength(1);
    expect(last.next).toBeNull();
  });

  it("defaults to 20 a page and serves the path without its trailing slash too", async () => {
    const res = await call("/order/v1/merchant/fulfillments/tickets?page_size=1", { token });
    expect(res.status).toBe(200);
    expect((await json(res)).results).toHaveLength(1);
  });

  it.each([
    ["unknown filter", "colour=red", "colour", /Allowed: .*status/],
    ["unknown order field", "order_by=colour", "order_by", /Allowed: .*created_at/],
    ["page_size over 100", "page_size=101", "page_size", /1 to 100/],
    ["page_size zero", "page_size=0", "page_size", /1 to 100/],
    ["page not a number", "page=abc", "page", /integer/],
    ["page out of range", "page=99", "page", /Out of range/],
    ["bad status", "status=lost", "status", /pending, confirmed, checked_in, cancelled/],
    ["bad date", "date=2026-02-30", "date", /YYYY-MM-DD/],
    ["bad amount", "total_amount=1.234", "total_amount", /2 decimals/],
    ["bad integer", "item=1e3", "item", /integer/],
    ["repeated page", "page=1&page=2", "page", /once/],
  ])("400 for %s, naming the parameter", async (_n, q, param, message) => {
    const res = await list(q);
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe("validation_error");
    expect(body.errors?.[param]?.join(" ")).toMatch(message);
  });
});
