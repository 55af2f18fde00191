import { and, asc, desc, eq, gte, type SQL, sql } from "drizzle-orm";
import { BatchPlan, type Handle, insertSelect, type Refusal } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, liveRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { eventPayloadSql, newEventId } from "../../../core/events/outbox";
import { MINOR_PER_MAJOR, toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { customers, type WALLET_KINDS, walletEntries } from "../tables";
import { expiringOf, lapsedOf } from "./expiring";
import type { DepositCashback, DepositPoints, RedeemFromWallet, Wallet, WalletEntry, WalletUpdate } from "./schemas";

/** Every store's currency today (DESIGN.md "Money": SAR by default; no store setting yet). */
export const WALLET_CURRENCY = "SAR";
const RECENT_ENTRIES = 20;
/** At most this many entries are replayed to tell what lapses (see `expiringOf`). */
const REPLAY_MAX = 1000;

type Kind = (typeof WALLET_KINDS)[number];
type EntryRow = typeof walletEntries.$inferSelect;

/** Points are whole units; cashback is kept in minor units and shown in major units. */
const shown = (kind: Kind, units: number) => (kind === "cashback" ? toMajor(units) : units);
const shownSql = (column: SQL) =>
  sql`CASE wallet_entries.kind WHEN 'cashback' THEN CAST(${column} AS REAL) / ${MINOR_PER_MAJOR} ELSE ${column} END`;

function entryView(r: EntryRow): WalletEntry {
  return {
    id: r.id,
    kind: r.kind,
    type: r.type,
    amount: shown(r.kind, r.amount),
    balance_after: shown(r.kind, r.balanceAfter),
    reason: r.reason,
    reference: r.reference,
    order_id: r.orderId,
    expires_at: r.expiresAt,
    created_at: r.createdAt,
  };
}

/** The balance of one kind: the `balance_after` of its latest entry (the index ends with `id`). */
const balanceSql = (appId: number, customerId: number, kind: Kind) =>
  sql<number>`coalesce((SELECT balance_after FROM wallet_entries WHERE app_id = ${appId}
    AND customer_id = ${customerId} AND kind = ${kind} ORDER BY id DESC LIMIT 1), 0)`;

/** Both balances of a live customer of the store; no row when there is no such customer. */
const balancesOf = (ctx: ServiceContext, customerId: number) =>
  ctx.db
    .select({
      // Named: the two expressions read the same, and a batch's rows are keyed by column name.
      points: balanceSql(ctx.appId, customerId, "points").as("points"),
      cashback: balanceSql(ctx.appId, customerId, "cashback").as("cashback"),
    })
    .from(customers)
    .where(and(eq(customers.id, customerId), live(customers, ctx.appId)));

const notFound = (customerId: number) => ApiError.notFound("customer_not_found", `Customer ${customerId}`);

/** MW1: the balances, what of them lapses, and the latest entries; one round trip. */
export async function walletOf(ctx: ServiceContext, customerId: number): Promise<Wallet> {
  const now = nowIso();
  const mine = (kind: Kind) =>
    and(eq(walletEntries.appId, ctx.appId), eq(walletEntries.customerId, customerId), eq(walletEntries.kind, kind));
  const recent = (kind: Kind) =>
    ctx.db.select().from(walletEntries).where(mine(kind)).orderBy(desc(walletEntries.id)).limit(RECENT_ENTRIES);
  // The entries since the oldest deposit that has not lapsed yet: all that decides what will lapse.
  const sinceOldestLapsing = (kind: Kind) =>
    ctx.db
      .select({
        amount: walletEntries.amount,
        balanceAfter: walletEntries.balanceAfter,
        expiresAt: walletEntries.expiresAt,
      })
      .from(walletEntries)
      .where(
        and(
          mine(kind),
          gte(
            walletEntries.id,
            sql`(SELECT min(id) FROM wallet_entries WHERE app_id = ${ctx.appId} AND customer_id = ${customerId}
              AND kind = ${kind} AND amount > 0 AND expires_at > ${now})`,
          ),
        ),
      )
      .orderBy(asc(walletEntries.id))
      .limit(REPLAY_MAX);
  const [balances, recentPoints, recentCashback, replayPoints, replayCashback] = await ctx.db.batch([
    balancesOf(ctx, customerId),
    recent("points"),
    recent("cashback"),
    sinceOldestLapsing("points"),
    sinceOldestLapsing("cashback"),
  ]);
  const b = balances[0];
  if (!b) throw notFound(customerId);
  const expiring = (kind: Kind, rows: typeof replayPoints) => {
    const first = rows[0];
    if (!first) return [];
    return expiringOf(rows, first.balanceAfter - first.amount, now).map((e) => ({
      kind,
      amount: shown(kind, e.amount),
      expires_at: e.expiresAt,
    }));
  };
  return {
    customer_id: customerId,
    points_balance: b.points,
    cashback_balance: toMajor(b.cashback),
    currency: WALLET_CURRENCY,
    expiring: [...expiring("points", replayPoints), ...expiring("cashback", replayCashback)].sort((x, y) =>
      x.expires_at < y.expires_at ? -1 : x.expires_at > y.expires_at ? 1 : 0,
    ),
    recent_entries: [...recentPoints, ...recentCashback]
      .sort((x, y) => y.id - x.id)
      .slice(0, RECENT_ENTRIES)
      .map(entryView),
  };
}

type Movement = {
  kind: Kind;
  type: "deposit" | "redeem" | "expiry" | "refund";
  /** Signed, in the kind's units (points, or minor units of money). */
  units: number;
  reason?: string;
  reference?: string;
  orderId?: number;
  expiresAt?: string;
};

const WALLET_UPDATED = "customer.wallet.updated";

/**
 * The guarded INSERT of one ledger entry: it reads the latest balance and writes `balance_after`
 * only where the balance stays at or above zero and the customer is live. D1 runs a batch as one
 * transaction, one at a time, so concurrent redemptions are serialised and none can overdraw.
 */
function entryInsert(ctx: ServiceContext, customerId: number, m: Movement & { orderIdSql?: SQL }) {
  const at = nowIso();
  const customerLive = sql`EXISTS (SELECT 1 FROM ${customers} WHERE ${customers.id} = ${customerId}
    AND ${live(customers, ctx.appId)})`;
  // An `order_id` the merchant gives must be this customer's order in the store; `orderIdSql` (another
  // module's own batch) names its order itself.
  const orderTheirs =
    m.orderId === undefined
      ? sql`1`
      : sql`EXISTS (SELECT 1 FROM orders WHERE id = ${m.orderId} AND ${liveRow(ctx.appId)}
          AND customer_id = ${customerId})`;
  return insertSelect(
    ctx.db,
    walletEntries,
    {
      appId: ctx.appId,
      customerId,
      kind: m.kind,
      type: m.type,
      amount: m.units,
      balanceAfter: sql`previous + ${m.units}`,
      reason: m.reason ?? null,
      reference: m.reference ?? null,
      orderId: m.orderIdSql ?? m.orderId ?? null,
      expiresAt: m.expiresAt ?? null,
      createdAt: at,
    },
    sql`FROM (SELECT ${balanceSql(ctx.appId, customerId, m.kind)} AS previous)
      WHERE previous + ${m.units} >= 0 AND ${customerLive} AND ${orderTheirs}`,
    { returning: true },
  );
}

/** `customer.wallet.updated` for the entry the plan inserted under `entry`, if it did. */
function entryEventSql(entry: Handle): SQL {
  const eventId = newEventId();
  const data = sql`json_object('customer_id', customer_id, 'kind', kind, 'type', wallet_entries.type,
    'entry_id', id, 'amount', ${shownSql(sql`amount`)}, 'balance_after', ${shownSql(sql`balance_after`)})`;
  return sql`SELECT ${eventId} AS id, app_id, ${WALLET_UPDATED} AS type,
      ${eventPayloadSql(WALLET_UPDATED, sql`${eventId}`, sql`app_id`, data)} AS payload
    FROM wallet_entries WHERE id = ${entry.id}`;
}

/**
 * A cashback movement inside another module's plan (an order paid from the wallet, given back, or
 * credited): the guarded entry (handle `cashback_entry`), then a guard that aborts the whole batch
 * when the entry was refused (the balance does not cover it, or the customer is gone), with
 * `refusal` saying what that means, and its `customer.wallet.updated` event.
 */
export function addCashbackMovement(
  plan: BatchPlan,
  ctx: ServiceContext,
  customerId: number,
  // `deposit`: credit the store gives (a meal complaint's resolution), with a `reference` to what it answers.
  m: { type: "redeem" | "refund" | "deposit"; units: number; orderId: SQL; reason: string; reference?: string },
  refusal?: Refusal,
): void {
  const entry = plan.insert(
    "cashback_entry",
    entryInsert(ctx, customerId, {
      kind: "cashback",
      type: m.type,
      units: m.type === "redeem" ? -m.units : m.units,
      reason: m.reason,
      reference: m.reference,
      orderIdSql: m.orderId,
    }),
  );
  plan.guard(sql`${entry.id} IS NOT NULL`, `wallet:${customerId}`, refusal).event(entryEventSql(entry));
}

/** The store's order `orderId` and its customer (orders belong to another module: read by table name). */
const orderOf = (ctx: ServiceContext, orderId: number) =>
  ctx.db
    .select({ customerId: sql<number | null>`customer_id` })
    .from(sql`orders`)
    .where(sql`id = ${orderId} AND ${liveRow(ctx.appId)}`);

/** Why an `order_id` was refused, from the order as the batch saw it; nothing when it was not. */
function orderRefusal(orderId: number | undefined, customerId: number, order: { customerId: number | null }[]) {
  if (orderId === undefined) return undefined;
  const found = order[0];
  if (!found) return ApiError.notFound("order_not_found", `Order ${orderId}`);
  if (found.customerId !== customerId)
    return ApiError.validation({ order_id: [`Order ${orderId} is not one of customer ${customerId}'s orders.`] });
  return undefined;
}

/** Appends one ledger entry and its event in one batch (see `entryInsert`). */
async function record(ctx: ServiceContext, customerId: number, m: Movement): Promise<WalletUpdate> {
  const plan = new BatchPlan(ctx.db);
  const inserted = plan.insert("entry", entryInsert(ctx, customerId, m));
  // The order is read in the same batch, after the insert: what refused the entry is told exactly.
  const balancesRead = plan.read<{ points: number; cashback: number }>(balancesOf(ctx, customerId));
  // Without an `order_id`, order 0 is read: no order has it.
  const orderRead = plan.read<{ customerId: number | null }>(orderOf(ctx, m.orderId ?? 0));
  plan.event(entryEventSql(inserted));
  const result = await plan.run(ctx.events);
  const [rows, balances, order] = [result.rows<EntryRow>(inserted), result.rows(balancesRead), result.rows(orderRead)];
  const b = balances[0];
  if (!b) throw notFound(customerId);
  const entry = rows[0];
  const refused = entry ? undefined : orderRefusal(m.orderId, customerId, order);
  if (refused) throw refused;
  if (!entry) {
    const available = shown(m.kind, m.kind === "points" ? b.points : b.cashback);
    throw ApiError.conflict(
      "insufficient_balance",
      `The customer's ${m.kind} balance is ${available}, less than the ${shown(m.kind, -m.units)} asked for.`,
      { kind: m.kind, available },
    );
  }
  return {
    entry: entryView(entry),
    customer_id: customerId,
    points_balance: b.points,
    cashback_balance: toMajor(b.cashback),
    currency: WALLET_CURRENCY,
  };
}

/** MW2 */
export const depositPoints = (ctx: ServiceContext, customerId: number, input: DepositPoints) =>
  record(ctx, customerId, {
    kind: "points",
    type: "deposit",
    units: input.amount,
    reason: input.reason,
    reference: input.reference,
    expiresAt: input.expires_at,
  });

/** MW3: `amount` arrives in minor units (the schema converted it). */
export const depositCashback = (ctx: ServiceContext, customerId: number, input: DepositCashback) =>
  record(ctx, customerId, {
    kind: "cashback",
    type: "deposit",
    units: input.amount,
    reason: input.reason,
    reference: input.reference,
    expiresAt: input.expires_at,
  });

/** MW4: 409 `insufficient_balance` (with `available`) when the balance does not cover it. */
export const redeemFromWallet = (ctx: ServiceContext, customerId: number, input: RedeemFromWallet) =>
  record(ctx, customerId, {
    kind: input.kind,
    type: "redeem",
    units: -input.units,
    reason: input.reason,
    reference: input.reference,
    orderId: input.order_id,
  });

/** How far back the sweep looks for lapsed deposits: it runs every few minutes, this covers missed runs. */
const EXPIRY_LOOKBACK_MS = 3 * 24 * 3600 * 1000;

/**
 * The expiry sweep (scheduled): for every balance with a deposit that lapsed recently, an `expiry`
 * entry takes out what of it is still unspent (outflows are taken from the soonest-lapsing amounts
 * first, so redemptions spent it before it lapsed where they could). Running it again writes
 * nothing: the expiry entry itself is an outflow of the lapsed amount.
 */
export async function expireLapsedBalances(
  contextOf: (appId: number) => ServiceContext,
  db: ServiceContext["db"],
  now = nowIso(),
): Promise<number> {
  const since = new Date(Date.parse(now) - EXPIRY_LOOKBACK_MS).toISOString();
  const balances = await db
    .selectDistinct({ appId: walletEntries.appId, customerId: walletEntries.customerId, kind: walletEntries.kind })
    .from(walletEntries)
    .where(
      and(
        sql`${walletEntries.amount} > 0`,
        sql`${walletEntries.expiresAt} <= ${now}`,
        gte(walletEntries.expiresAt, since),
      ),
    )
    .limit(500);
  let written = 0;
  for (const b of balances) {
    const movements = await db
      .select({ amount: walletEntries.amount, expiresAt: walletEntries.expiresAt })
      .from(walletEntries)
      .where(
        and(
          eq(walletEntries.appId, b.appId),
          eq(walletEntries.customerId, b.customerId),
          eq(walletEntries.kind, b.kind),
        ),
      )
      .orderBy(asc(walletEntries.id));
    const lapsed = lapsedOf(movements, 0, now);
    if (lapsed <= 0) continue;
    try {
      await record(contextOf(b.appId), b.customerId, {
        kind: b.kind,
        type: "expiry",
        units: -lapsed,
        reason: "Expired",
      });
      written += 1;
    } catch (error) {
      // A deleted customer, or a redemption that won the race: the next run sees the new ledger.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return written;
}

/** The customer's spendable cashback in minor units; null when no such live customer. */
export async function cashbackBalanceOf(ctx: ServiceContext, customerId: number): Promise<number | null> {
  const rows = await balancesOf(ctx, customerId);
  return rows[0]?.cashback ?? null;
}
