import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BatchPlan, insertSelect } from "../../src/core/batch-plan";
import { ApiError } from "../../src/core/errors";
import { rowEvent } from "../../src/core/events/outbox";
import { storeWalletEntries } from "../../src/modules/orders/tables";
import { countRows, db, serviceCtx } from "../helpers/factories";

// A store id of this file's own: its rows are found by it.
const APP = 8296;
const at = "2026-01-01T00:00:00.000Z";

const entry = (reference: string, amountMinor = 1) =>
  db(APP).insert(storeWalletEntries).values({
    appId: APP,
    type: "credit",
    source: "adjustment",
    amountMinor,
    balanceAfterMinor: amountMinor,
    reference,
    createdAt: at,
  });

const entryOf = async (reference: string) =>
  db().select().from(storeWalletEntries).where(sql`reference = ${reference}`).get();

/** An entry whose amount is the id of `handle`'s row, to read back what a later statement saw. */
const echo = (reference: string, id: ReturnType<BatchPlan["handle"]>["id"]) =>
  insertSelect(db(APP), storeWalletEntries, {
    appId: APP,
    type: "credit",
    source: "adjustment",
    amountMinor: id,
    balanceAfterMinor: sql`0`,
    reference,
    createdAt: at,
  });

const failure = (run: Promise<unknown>) =>
  run.then(
    () => null,
    (e: unknown) => e,
  );

describe("BatchPlan: one multi-table write, its ids by name", () => {
  it("a handle's id is referenced by a later statement of the batch, and answered by name", async () => {
    const plan = new BatchPlan(db());
    const first = plan.insert("first", entry("plan-first"));
    plan.add(echo("plan-first-echo", first.id));
    const result = await plan.run(serviceCtx(APP).events);
    const row = (await entryOf("plan-first"))!;
    expect(result.id(first)).toBe(row.id);
    expect(result.id("first")).toBe(row.id);
    expect((await entryOf("plan-first-echo"))!.amountMinor).toBe(row.id);
    expect(await countRows("batch_handles")).toBe(0);
  });

  it("two handles of the same table keep their own ids, whatever was inserted after them", async () => {
    const plan = new BatchPlan(db());
    const a = plan.insert("a", entry("plan-a"));
    const b = plan.insert("b", entry("plan-b"));
    plan.add(entry("plan-unnamed"), echo("plan-a-echo", a.id), echo("plan-b-echo", b.id));
    const result = await plan.run(serviceCtx(APP).events);
    const [rowA, rowB] = [(await entryOf("plan-a"))!, (await entryOf("plan-b"))!];
    expect(rowA.id).not.toBe(rowB.id);
    expect([result.id(a), result.id(b)]).toEqual([rowA.id, rowB.id]);
    expect((await entryOf("plan-a-echo"))!.amountMinor).toBe(rowA.id);
    expect((await entryOf("plan-b-echo"))!.amountMinor).toBe(rowB.id);
  });

  it("an insert that wrote no row leaves its handle unset: NULL to the batch, an error to the caller", async () => {
    const plan = new BatchPlan(db());
    plan.add(entry("plan-before-nothing"));
    const none = plan.insert(
      "none",
      insertSelect(
        db(APP),
        storeWalletEntries,
        { appId: APP, type: "credit", source: "adjustment", amountMinor: 1, balanceAfterMinor: 1, createdAt: at },
        sql`WHERE 0`,
      ),
    );
    plan.add(
      insertSelect(db(APP), storeWalletEntries, {
        appId: APP,
        type: "credit",
        source: "adjustment",
        amountMinor: sql`coalesce(${none.id}, -1)`,
        balanceAfterMinor: 0,
        reference: "plan-none-echo",
        createdAt: at,
      }),
    );
    const result = await plan.run(serviceCtx(APP).events);
    expect(() => result.id(none)).toThrow(/took no row/);
    expect((await entryOf("plan-none-echo"))!.amountMinor).toBe(-1);
  });

  it("events derived in SQL see the handles", async () => {
    const plan = new BatchPlan(db());
    const row = plan.insert("entry", entry("plan-event"));
    plan.event(rowEvent("cart.updated", storeWalletEntries, sql`id = ${row.id}`, sql`json_object('id', id)`));
    const result = await plan.run(serviceCtx(APP).events);
    const events = await db().all<{ payload: string }>(
      sql`SELECT payload FROM outbox_events WHERE app_id = ${APP} AND type = 'cart.updated'`,
    );
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([{ id: result.id(row) }]);
  });

  it("a guard that aborts rolls everything back, its handles too, and throws the problem it stands for", async () => {
    const refused = ApiError.conflict("concurrent_update", "Refused on purpose.");
    const plan = new BatchPlan(db());
    plan.insert("rolled-back", entry("plan-rolled-back"));
    plan.guard(sql`NOT EXISTS (SELECT 1 FROM store_wallet_entries WHERE reference = 'plan-rolled-back')`, "x", refused);
    expect(await failure(plan.run(serviceCtx(APP).events))).toBe(refused);
    expect(await entryOf("plan-rolled-back")).toBeUndefined();
    expect(await countRows("batch_handles")).toBe(0);
  });

  it("a read that confirms its guard failed answers before a fixed problem; none answering, `otherwise` does", async () => {
    const fixed = ApiError.conflict("voucher_usage_limit_reached", "Fixed.");
    const read = ApiError.conflict("insufficient_stock", "Read.");
    const otherwise = ApiError.conflict("concurrent_update", "Otherwise.");
    const aborting = () => new BatchPlan(db()).add(entry("plan-never")).guard(sql`0`, "always fails");

    const readFirst = aborting()
      .guarded([], fixed)
      .guarded([], async () => null)
      .guarded([], async () => read);
    expect(await failure(readFirst.run(serviceCtx(APP).events, otherwise))).toBe(read);
    expect(await failure(aborting().guarded([], fixed).run(serviceCtx(APP).events, otherwise))).toBe(fixed);
    expect(await failure(aborting().run(serviceCtx(APP).events, otherwise))).toBe(otherwise);
    // Without a refusal, the abort itself.
    expect(String(await failure(aborting().run(serviceCtx(APP).events)))).toMatch(/batch_guard_holds/);
    expect(await entryOf("plan-never")).toBeUndefined();
  });

  it("answers the row a handle's insert returned, and a read's rows as the batch saw them", async () => {
    const plan = new BatchPlan(db());
    const row = plan.insert("returned", entry("plan-returned", 3).returning());
    const read = plan.read<{ n: number }>(
      db().select({ n: sql<number>`count(*)` }).from(storeWalletEntries).where(sql`reference = 'plan-returned'`),
    );
    const result = await plan.run(serviceCtx(APP).events);
    expect(result.row<typeof storeWalletEntries.$inferSelect>(row)).toMatchObject({
      id: result.id(row),
      reference: "plan-returned",
      amountMinor: 3,
    });
    expect(result.rows(read)).toEqual([{ n: 1 }]);
  });

  it("a found handle names the row a later UPDATE changes, not the last one changed", async () => {
    const plan = new BatchPlan(db());
    plan.add(entry("plan-found-a"), entry("plan-found-b"));
    const found = plan.find(
      "found",
      sql`SELECT id FROM store_wallet_entries WHERE app_id = ${APP} AND reference = 'plan-found-a'`,
    );
    plan.add(db().update(storeWalletEntries).set({ amountMinor: 9 }).where(sql`id = ${found.id}`));
    const result = await plan.run(serviceCtx(APP).events);
    const a = (await entryOf("plan-found-a"))!;
    expect(result.id(found)).toBe(a.id);
    expect(a.amountMinor).toBe(9);
    expect((await entryOf("plan-found-b"))!.amountMinor).toBe(1);
    expect(await countRows("batch_handles")).toBe(0);
  });

  it("a handle name is used once per plan, and only a plain one", () => {
    const plan = new BatchPlan(db());
    plan.insert("order", entry("plan-name"));
    expect(() => plan.insert("order", entry("plan-name"))).toThrow(/already/);
    expect(() => plan.insert("it's", entry("plan-name"))).toThrow(/plain/);
    expect(() => plan.handle("invoice")).toThrow(/not in this plan/);
  });
});

describe("insertSelect: an INSERT ... SELECT by column name", () => {
  it("writes each named column from its expression, one row per row of `from`; the rest take their defaults", async () => {
    await db(APP).batch([
      insertSelect(
        db(APP),
        storeWalletEntries,
        {
          appId: APP,
          type: sql`value ->> '$.type'`,
          source: "adjustment",
          amountMinor: sql`value ->> '$.amount'`,
          balanceAfterMinor: sql`value ->> '$.amount' * 2`,
          reference: sql`'named-' || key`,
          createdAt: at,
        },
        sql`FROM json_each(${JSON.stringify([
          { type: "credit", amount: 5 },
          { type: "debit", amount: -3 },
        ])})`,
      ),
    ]);
    const rows = await db().all<Record<string, unknown>>(
      sql`SELECT type, amount_minor, balance_after_minor, reference, order_id FROM store_wallet_entries
        WHERE app_id = ${APP} AND reference LIKE 'named-%' ORDER BY reference`,
    );
    expect(rows).toEqual([
      { type: "credit", amount_minor: 5, balance_after_minor: 10, reference: "named-0", order_id: null },
      { type: "debit", amount_minor: -3, balance_after_minor: -6, reference: "named-1", order_id: null },
    ]);
  });
});

describe("insertSelect with returning", () => {
  it("answers the inserted rows as the table's rows: drizzle's keys, decoded values", async () => {
    const d = db();
    const [rows] = (await d.batch([
      insertSelect(
        d,
        storeWalletEntries,
        {
          appId: APP,
          type: "credit",
          source: "adjustment",
          amountMinor: 7,
          balanceAfterMinor: 7,
          reference: "named-returning",
          createdAt: at,
        },
        undefined,
        { returning: true },
      ),
    ])) as unknown as [(typeof storeWalletEntries.$inferSelect)[]];
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        appId: APP,
        type: "credit",
        source: "adjustment",
        amountMinor: 7,
        balanceAfterMinor: 7,
        orderId: null,
        reference: "named-returning",
        createdAt: at,
      },
    ]);
    expect(rows[0]!.id).toBe((await entryOf("named-returning"))!.id);
  });
});

/** Type checks only (tsc runs over the tests): a NOT NULL column left out, or a misspelt one, does not compile. */
const _insertSelectTypeChecks = () => [
  // @ts-expect-error createdAt is NOT NULL without a default.
  insertSelect(db(APP), storeWalletEntries, {
    appId: APP,
    type: "credit",
    source: "adjustment",
    amountMinor: 1,
    balanceAfterMinor: 1,
  }),
  insertSelect(db(APP), storeWalletEntries, {
    appId: APP,
    type: "credit",
    source: "adjustment",
    amountMinor: 1,
    balanceAfterMinor: 1,
    createdAt: at,
    // @ts-expect-error no such column.
    amount: 1,
  }),
];
