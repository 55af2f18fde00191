import { beforeAll, describe, expect, it } from "vitest";
import { APP_1, createFullItem, shardFor } from "../helpers/factories";
import { call, json } from "../helpers/request";
import { cartOf, checkedOut, M_ORDERS, type Store, shopperOf, stocked, storeFor } from "./helpers";

/**
 * A client mirrors a store's orders, customers and items through the API alone, as
 * docs/interface-decisions.md ("Lists: incremental sync") tells it to: walk
 * `modified_at__gte=<since>&order_by=-modified_at&include_deleted=true` by its `next` links, apply
 * every row (a deleted one is dropped), and start the next walk from the newest `modified_at` of
 * the walk's first page. Between rounds, and during a walk, the test changes the store; after
 * every round the mirror equals the store as its lists show it, read afresh.
 */

const CUSTOMERS = "/order/v1/merchant/customers/";
const ITEMS = "/order/v1/merchant/items/";
const PROFILE = "/api/v1/customer/profile/";

type Row = Record<string, any>;

/** What the mirror keeps of a record: the fields a client relies on. */
const KEPT: Record<string, (r: Row) => unknown> = {
  [M_ORDERS]: (r) => [r.status, r.payment_status, r.notes, r.reference, r.total_amount, r.customer?.id],
  [CUSTOMERS]: (r) => [r.name, r.email, r.is_blocked, r.mobile_number],
  [ITEMS]: (r) => [r.name_en, r.price, r.sku, r.stock.qty, r.variants.map((v: Row) => [v.id, v.price, v.stock.qty])],
};
const SYNCED = Object.keys(KEPT);
/** Orders are never deleted: their list takes no `include_deleted`. */
const softDeletes = (path: string) => path !== M_ORDERS;

type Mirror = { since: string | undefined; rows: Map<number, unknown>; read: number };

let store: Store;
const get = async (url: string) => {
  const res = await call(url.replace(/^https:\/\/api\.test/, ""), { token: store.token, appId: APP_1 });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body as { count: number; next: string | null; results: Row[] };
};

/**
 * One walk of a list's changes since `mirror.since`, by its `next` links; `between` runs after the
 * first page (a change made while the client walks). Returns the newest `modified_at` seen on the
 * first page: what the next walk starts from.
 */
async function walk(path: string, mirror: Mirror, between?: () => Promise<void>): Promise<string | undefined> {
  const query = new URLSearchParams({ order_by: "-modified_at", page_size: "2" });
  if (softDeletes(path)) query.set("include_deleted", "true");
  if (mirror.since) query.set("modified_at__gte", mirror.since);
  let url: string | null = `${path}?${query}`;
  let newest: string | undefined;
  while (url) {
    const page = await get(url);
    for (const r of page.results) {
      mirror.read += 1;
      if (r.is_deleted) mirror.rows.delete(r.id);
      else mirror.rows.set(r.id, KEPT[path]!(r));
    }
    if (newest === undefined) {
      newest = page.results[0]?.modified_at ?? mirror.since;
      await between?.();
      between = undefined;
    }
    url = page.next;
  }
  return newest;
}

/** A sync round: walks until one finds nothing newer than where it started. */
async function syncRound(path: string, mirror: Mirror, during?: () => Promise<void>) {
  for (let walks = 0; walks < 10; walks++) {
    const newest = await walk(path, mirror, walks === 0 ? during : undefined);
    if (newest === mirror.since) return;
    mirror.since = newest;
  }
  throw new Error(`${path}: the sync did not settle`);
}

/** The store's records as its list shows them now, every page, read afresh. */
async function current(path: string): Promise<Map<number, unknown>> {
  const out = new Map<number, unknown>();
  let url: string | null = `${path}?page_size=100`;
  while (url) {
    const page = await get(url);
    for (const r of page.results) out.set(r.id, KEPT[path]!(r));
    url = page.next;
  }
  return out;
}

const mirrors = new Map<string, Mirror>(SYNCED.map((p) => [p, { since: undefined, rows: new Map(), read: 0 }]));

async function syncAllAndCompare(during: Partial<Record<string, () => Promise<void>>> = {}) {
  for (const path of SYNCED) {
    const mirror = mirrors.get(path)!;
    await syncRound(path, mirror, during[path]);
    expect(mirror.rows, path).toEqual(await current(path));
  }
}

const patch = (path: string, body: unknown) => store.as(path, { method: "PATCH", body });
const ok = async (res: Response | Promise<Response>) => {
  const r = await res;
  expect(r.status, await r.clone().text()).toBeLessThan(300);
};

describe("a mirror of orders, customers and items kept by incremental sync", () => {
  const customers: Awaited<ReturnType<typeof shopperOf>>[] = [];
  const items: { id: number }[] = [];
  const orders: number[] = [];

  beforeAll(async () => {
    store = await storeFor(APP_1);
    for (let i = 0; i < 4; i++) customers.push(await shopperOf(APP_1, { email: `mirror${i}@example.com` }));
    for (let i = 0; i < 3; i++) items.push(await stocked(APP_1, 1_000 + i * 100, 20));
    items.push((await createFullItem(APP_1)).item);
    for (const c of customers.slice(0, 2)) {
      const cart = await cartOf(c, { items: [{ item_id: items[0]!.id, qty: 1 }] });
      orders.push((await checkedOut(c, cart.id, { payment_provider: "cash_on_delivery" })).order.id);
    }
  });

  it("starts from a full copy", async () => {
    await syncAllAndCompare();
    expect(mirrors.get(M_ORDERS)!.rows.size).toBeGreaterThanOrEqual(2);
    expect(mirrors.get(CUSTOMERS)!.rows.size).toBeGreaterThanOrEqual(3);
    expect(mirrors.get(ITEMS)!.rows.size).toBeGreaterThanOrEqual(4);
  });

  it("follows updates, deletes, new records and stock moved by orders", async () => {
    await ok(patch(`${CUSTOMERS}${customers[0]!.id}/`, { name: "Renamed", is_blocked: true }));
    await ok(customers[1]!.as(PROFILE, { method: "DELETE" }));
    await ok(patch(`${ITEMS}${items[1]!.id}/`, { price: 55.5 }));
    await ok(store.as(`${ITEMS}${items[2]!.id}/`, { method: "DELETE" }));
    await ok(patch(`${M_ORDERS}${orders[0]}/`, { notes: "Ring twice" }));
    // Cancelling gives its stock back (a raw SQL statement on items), a new order takes some.
    await ok(patch(`${M_ORDERS}${orders[1]}/`, { status: "cancelled" }));
    const cart = await cartOf(customers[2]!, { items: [{ item_id: items[0]!.id, qty: 3 }] });
    orders.push((await checkedOut(customers[2]!, cart.id, { payment_provider: "cash_on_delivery" })).order.id);
    await syncAllAndCompare();
    expect(mirrors.get(CUSTOMERS)!.rows.has(customers[1]!.id)).toBe(false);
    expect(mirrors.get(ITEMS)!.rows.has(items[2]!.id)).toBe(false);
    expect(mirrors.get(M_ORDERS)!.rows.has(orders[2]!)).toBe(true);
  });

  it("misses nothing changed while a walk is under way", async () => {
    const fresh = await shopperOf(APP_1);
    // Every list has more pages than one (page_size 2) once the rows below are touched again.
    for (const c of customers.filter((c) => c !== customers[1]))
      await ok(patch(`${CUSTOMERS}${c.id}/`, { name: "Again" }));
    // Newest first: items[1], then items[3] (both on the first page), then items[0].
    for (const i of [items[0]!, items[3]!, items[1]!]) await ok(patch(`${ITEMS}${i.id}/`, { name_en: "Again" }));
    for (const o of orders) await ok(patch(`${M_ORDERS}${o}/`, { notes: "Again" }));
    await syncAllAndCompare({
      [CUSTOMERS]: async () => {
        // A row already read changes; an older one, not yet read, is deleted.
        await ok(patch(`${CUSTOMERS}${customers[2]!.id}/`, { name: "During the walk" }));
        await ok(customers[3]!.as(PROFILE, { method: "DELETE" }));
      },
      [ITEMS]: async () => {
        // Alone: a row moved to the front would shift the rows read, and bring items[3] again anyway.
        // A variant's change is a change of its item (items[3], read on the first page, not its newest).
        const shard = shardFor(APP_1);
        const variant = await shard
          .prepare("SELECT id FROM items WHERE parent_id = ? AND is_deleted = 0 LIMIT 1")
          .bind(items[3]!.id)
          .first<{ id: number }>();
        await shard.prepare("UPDATE items SET stock_qty = stock_qty + 7 WHERE id = ?").bind(variant!.id).run();
      },
      [M_ORDERS]: async () => {
        const cart = await cartOf(fresh, { items: [{ item_id: items[1]!.id, qty: 1 }] });
        orders.push((await checkedOut(fresh, cart.id, { payment_provider: "cash_on_delivery" })).order.id);
        await ok(patch(`${M_ORDERS}${orders[0]}/`, { notes: "During the walk" }));
      },
    });
    expect(mirrors.get(CUSTOMERS)!.rows.has(customers[3]!.id)).toBe(false);
  });

  it("reads only what changed since the last round: a quiet store costs the newest rows again", async () => {
    await syncAllAndCompare();
    /** The rows a walk from `since` reads, counted afresh. */
    const changedSince = async (path: string, since: string) =>
      (await get(`${path}?modified_at__gte=${since}${softDeletes(path) ? "&include_deleted=true" : ""}&page_size=100`))
        .results;
    for (const path of SYNCED) {
      const mirror = mirrors.get(path)!;
      const since = mirror.since!;
      const again = await changedSince(path, since);
      // Only the rows of the newest `modified_at` come again (`__gte`); nothing older does.
      expect(
        again.map((r) => r.modified_at).every((at) => at === since),
        path,
      ).toBe(true);
      mirror.read = 0;
      await syncRound(path, mirror);
      expect(mirror.read, path).toBe(again.length);
      expect(mirror.since, path).toBe(since);
    }
    const itemsMirror = mirrors.get(ITEMS)!;
    const before = itemsMirror.since!;
    await ok(patch(`${ITEMS}${items[1]!.id}/`, { name_en: "Last" }));
    itemsMirror.read = 0;
    await syncRound(ITEMS, itemsMirror);
    expect(itemsMirror.since! > before).toBe(true);
    const walked = (await changedSince(ITEMS, before)).length + (await changedSince(ITEMS, itemsMirror.since!)).length;
    expect(itemsMirror.read).toBe(walked);
    expect(itemsMirror.rows).toEqual(await current(ITEMS));
  });
});
