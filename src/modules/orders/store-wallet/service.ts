import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { insertSelect } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { apps } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { storeCurrencySql } from "../../account";
import { orders, STORE_WALLET_SOURCES, storeWalletEntries } from "../tables";
import type { StoreWallet, StoreWalletEntry } from "./schemas";

const RECENT_ENTRIES = 20;

type EntryRow = typeof storeWalletEntries.$inferSelect;

/** The store wallet's balance in minor units: the `balance_after` of its latest entry, 0 without one. */
export const storeWalletBalanceSql = (appId: number): SQL<number> =>
  sql<number>`coalesce((SELECT ${storeWalletEntries.balanceAfterMinor} FROM ${storeWalletEntries}
    WHERE ${storeWalletEntries.appId} = ${appId} ORDER BY ${storeWalletEntries.id} DESC LIMIT 1), 0)`;

export type StoreWalletEntryInput = {
  type: "credit" | "debit";
  source: (typeof STORE_WALLET_SOURCES)[number];
  /** Signed minor units: more than 0 for a credit, less than 0 for a debit; SQL for a value the batch computes. */
  amountMinor: number | SQL;
  /** The order behind the entry; SQL for one the batch inserts (a store and source credit an order once). */
  orderId: SQL | number | null;
  reference?: string;
  /** A condition the entry is written under, evaluated in the batch (e.g. "the order is a top-up"). */
  when?: SQL;
};

/**
 * ONE guarded statement that appends an entry to the store wallet's ledger, for any module's
 * batch: it reads the latest balance and inserts the entry with `balance_after` only where the
 * balance stays at or above zero and the amount's sign is the type's. D1 runs a batch as one
 * transaction, one at a time, so concurrent debits are serialised here and none can overdraw.
 *
 * A refused entry inserts nothing and fails nothing: a caller whose batch must not land without
 * it follows it with `abortUnless(db, sql\`changes() = 1\`, …)`. A second entry of the same store,
 * source and order breaks a unique index and fails the batch.
 */
export function storeWalletEntryStatement(db: Db, appId: number, entry: StoreWalletEntryInput): BatchItem<"sqlite"> {
  const amount = entry.amountMinor;
  if (
    typeof amount === "number" &&
    (!Number.isSafeInteger(amount) || (entry.type === "credit" ? amount <= 0 : amount >= 0))
  )
    throw new Error(`store wallet ${entry.type} of ${amount}: a credit is > 0, a debit < 0, in whole minor units`);
  const signed = entry.type === "credit" ? sql`amount > 0` : sql`amount < 0`;
  return insertSelect(
    db,
    storeWalletEntries,
    {
      appId,
      type: entry.type,
      source: entry.source,
      amountMinor: sql`amount`,
      balanceAfterMinor: sql`previous + amount`,
      orderId: sql`${entry.orderId}`,
      reference: entry.reference ?? null,
      createdAt: nowIso(),
    },
    sql`FROM (SELECT ${storeWalletBalanceSql(appId)} AS previous, ${amount} AS amount)
      WHERE previous + amount >= 0 AND ${signed} AND ${entry.when ?? sql`1`}`,
  );
}

function entryView(r: EntryRow): StoreWalletEntry {
  return {
    id: r.id,
    type: r.type,
    source: r.source,
    amount: toMajor(r.amountMinor),
    balance_after: toMajor(r.balanceAfterMinor),
    order_id: r.orderId,
    reference: r.reference,
    created_at: r.createdAt,
  };
}

/** What the store's pending top-up orders add up to, in minor units. */
const pendingTopUpsSql = (appId: number) =>
  sql<number>`coalesce((SELECT sum(${orders.totalMinor}) FROM ${orders} WHERE ${and(
    live(orders, appId),
    eq(orders.kind, "wallet_topup"),
    eq(orders.status, "pending"),
  )}), 0)`;

/** MA1: the balance, pending top-ups, the currency and the latest entries; one round trip. */
export async function storeWalletOf(ctx: ServiceContext): Promise<StoreWallet> {
  const mine = eq(storeWalletEntries.appId, ctx.appId);
  const [summary, recent] = await ctx.db.batch([
    ctx.db
      .select({
        // Named: a batch's rows are keyed by column name.
        balance: storeWalletBalanceSql(ctx.appId).as("balance"),
        pending: pendingTopUpsSql(ctx.appId).as("pending"),
        currency: storeCurrencySql(ctx.appId).as("currency"),
      })
      .from(apps)
      .where(eq(apps.id, ctx.appId)),
    ctx.db.select().from(storeWalletEntries).where(mine).orderBy(desc(storeWalletEntries.id)).limit(RECENT_ENTRIES),
  ]);
  const s = summary[0];
  return {
    balance: toMajor(s?.balance ?? 0),
    currency: s?.currency ?? "SAR",
    pending_amount: toMajor(s?.pending ?? 0),
    updated_at: recent[0]?.createdAt ?? null,
    recent_entries: recent.map(entryView),
  };
}

export const STORE_WALLET_ENTRY_LIST: ListSpec = {
  fields: {
    id: { column: storeWalletEntries.id, kind: "integer" },
    type: { column: storeWalletEntries.type, kind: "string", values: ["credit", "debit"] },
    source: { column: storeWalletEntries.source, kind: "string", values: STORE_WALLET_SOURCES },
    amount: { column: storeWalletEntries.amountMinor, kind: "money" },
    order_id: { column: storeWalletEntries.orderId, kind: "integer", nullable: true },
    created_at: { column: storeWalletEntries.createdAt, kind: "datetime" },
  },
  defaultOrder: "-id",
  idColumn: storeWalletEntries.id,
};

/** The ledger behind the balance, newest first by default. */
export async function listStoreWalletEntries(ctx: ServiceContext, q: ListQuery): Promise<Page<StoreWalletEntry>> {
  const page = await listPage(ctx.db, q, {
    table: storeWalletEntries,
    scope: () => eq(storeWalletEntries.appId, ctx.appId),
  });
  return mapPage(page, entryView);
}
