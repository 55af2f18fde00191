import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { batchStatement, insertSelect, selectColumns } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { liveRow, notDeletedRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { abortUnless } from "../../../core/guards";
import { nowIso } from "../../../core/time";
import { itemConfigOf, itemConfigRead } from "../config/service";
import { foundItem, itemRowRead } from "../shared";
import { itemReservations, items } from "../tables";
import type { Item, PurchaseItem, Reservation, ReserveItem } from "./schemas";
import { itemsReadInBatch, loadItems } from "./views";

/** Units the item's live reservations hold (not consumed, not expired), leaving out reservation `except`. */
const heldSql = (itemId: number, at: string, except?: number) =>
  sql`coalesce((SELECT sum(qty) FROM item_reservations WHERE item_id = ${itemId} AND consumed_at IS NULL
      AND expires_at > ${at}${except ? sql` AND id <> ${except}` : sql``}), 0)`;

/** The units an item can still sell (on hand less live reservations), read where it stands in a batch. */
const availableRead = (ctx: ServiceContext, itemId: number, at: string) =>
  batchStatement(
    ctx.db,
    sql`SELECT max(0, stock_qty - ${heldSql(itemId, at)}) AS qty FROM items WHERE id = ${itemId} AND app_id = ${ctx.appId}`,
    selectColumns(["qty"]),
  );

const insufficient = (stock: number) =>
  ApiError.conflict("insufficient_stock", `Only ${stock} unit(s) are available.`, { available: stock });

/**
 * Reserve an Item: holds units for a few minutes. One guarded INSERT decides: of two requests
 * racing for the last unit, one gets it and the other a 409, whose count the same batch reads.
 */
export async function reserveItem(ctx: ServiceContext, id: number, input: ReserveItem): Promise<Reservation> {
  const [itemRows, configRows] = await ctx.db.batch([itemRowRead(ctx, id), itemConfigRead(ctx.db, ctx.appId)]);
  const item = foundItem(itemRows, id, { variantsToo: true });
  const config = itemConfigOf(configRows);
  if (input.qty > config.max_reservation_qty) {
    throw ApiError.validation({
      qty: [`At most ${config.max_reservation_qty} units a reservation in this store (Item Config).`],
    });
  }
  const at = nowIso();
  const expiresAt = new Date(Date.now() + (input.minutes ?? config.reservation_minutes) * 60_000).toISOString();
  const enough = sql`(SELECT stock_qty FROM items WHERE id = ${item.id}
      AND ${notDeletedRow()}) - ${heldSql(item.id, at)} >= ${input.qty}`;
  // The hold changes the Item's `stock.qty`: `item.updated` goes with it, under the same guard.
  const { results, applied } = await emit(
    ctx.db,
    ctx.events,
    [
      insertSelect(
        ctx.db,
        itemReservations,
        { appId: ctx.appId, itemId: item.id, qty: input.qty, expiresAt, createdAt: at },
        sql`WHERE ${enough}`,
        { returning: true },
      ),
    ],
    [newEvent(ctx.appId, "item.updated", { id: item.id, reserved: input.qty })],
    { guard: enough, after: [availableRead(ctx, item.id, at)] },
  );
  const rows = results[0] as { id: number }[];
  if (!applied || !rows.length) throw insufficient(Number((results[1] as { qty: number }[])[0]?.qty ?? 0));
  return { id: rows[0]!.id, item: item.id, qty: input.qty, expires_at: expiresAt };
}

/**
 * Record Item Purchase: takes units out of stock, never below zero, consuming a reservation when
 * one is given. Guarded statements in one batch: the stock and the reservation change together,
 * and the item is read in full at its end (the answer, or the units left for a 409).
 */
export async function purchaseItem(ctx: ServiceContext, id: number, input: PurchaseItem): Promise<Item> {
  const [itemRows, reservations] = await ctx.db.batch([
    itemRowRead(ctx, id),
    ctx.db
      .select()
      .from(itemReservations)
      .where(
        and(
          eq(itemReservations.id, input.reservation_id ?? 0),
          eq(itemReservations.itemId, id),
          eq(itemReservations.appId, ctx.appId),
        ),
      ),
  ]);
  const item = foundItem(itemRows, id, { variantsToo: true });
  const at = nowIso();
  // `enough`: the condition, over the item's row before the purchase, under which it applies. The
  // stock UPDATE and the event's guard both use it, so they land together or not at all.
  let enough: SQL;
  let qty: number;
  const consume: BatchItem<"sqlite">[] = [];
  if (input.reservation_id !== undefined) {
    const r = reservations[0];
    if (!r)
      throw ApiError.validation({ reservation_id: [`No reservation ${input.reservation_id} of item ${item.id}.`] });
    if (r.consumedAt) throw ApiError.conflict("reservation_used", "This reservation was already used by a purchase.");
    if (input.qty !== undefined && input.qty !== r.qty)
      throw ApiError.validation({ qty: [`The reservation holds ${r.qty} unit(s); buy exactly those.`] });
    qty = r.qty;
    // The reservation's units were already counted out of what can be sold: only on-hand stock matters.
    enough = sql`${items.stockQty} >= ${qty} AND EXISTS (SELECT 1 FROM item_reservations WHERE id = ${r.id}
        AND consumed_at IS NULL AND expires_at > ${at})`;
    consume.push(
      ctx.db
        .update(itemReservations)
        .set({ consumedAt: at })
        .where(
          and(
            eq(itemReservations.id, r.id),
            isNull(itemReservations.consumedAt),
            sql`${itemReservations.expiresAt} > ${at}`,
          ),
        ),
    );
  } else {
    qty = input.qty!;
    enough = sql`${notDeletedRow(items)} AND ${items.stockQty} - ${heldSql(item.id, at)} >= ${qty}`;
  }
  const changes = [
    ctx.db
      .update(items)
      .set({ stockQty: sql`${items.stockQty} - ${qty}`, modifiedAt: at })
      .where(and(eq(items.id, item.id), enough)),
    ...consume,
  ];
  const guard = sql`EXISTS (SELECT 1 FROM items WHERE ${eq(items.id, item.id)} AND ${enough})`;
  const shown = itemsReadInBatch(ctx.db, ctx.appId, [item.id]);
  const { applied, results } = await emit(
    ctx.db,
    ctx.events,
    changes,
    [newEvent(ctx.appId, "item.updated", { id: item.id, purchased: qty })],
    { guard, after: [shown.statement] },
  );
  const full = shown.answer(results.at(-1)).items([item.id]).get(item.id)!;
  if (!applied) {
    if (input.reservation_id !== undefined)
      throw ApiError.conflict(
        "reservation_expired",
        "The reservation expired or the stock no longer covers it; reserve again.",
      );
    throw insufficient(full.stock.qty);
  }
  return full;
}

/** A quantity of one item (or variant) that an order takes or gives back. */
export type StockLine = { itemId: number; qty: number };

const merged = (lines: readonly StockLine[]) => {
  const byItem = new Map<number, number>();
  for (const l of lines) byItem.set(l.itemId, (byItem.get(l.itemId) ?? 0) + l.qty);
  return [...byItem];
};

/**
 * Statements for another module's batch (an order's checkout): for each item, a guard that aborts
 * the whole batch unless the live item has the units (on hand less live reservations), then the
 * decrement. Of two checkouts racing for the last unit, the second batch aborts and writes nothing.
 */
export function takeStockStatements(ctx: ServiceContext, lines: readonly StockLine[], at = nowIso()) {
  return merged(lines).flatMap(([itemId, qty]) => [
    abortUnless(
      ctx.db,
      sql`EXISTS (SELECT 1 FROM items WHERE id = ${itemId} AND ${liveRow(ctx.appId)}
        AND stock_qty - ${heldSql(itemId, at)} >= ${qty})`,
      `stock:${itemId}`,
    ),
    ctx.db
      .update(items)
      .set({ stockQty: sql`${items.stockQty} - ${qty}`, modifiedAt: at })
      .where(and(eq(items.id, itemId), eq(items.appId, ctx.appId))),
  ]);
}

/** Gives units back (an order cancelled or expired unpaid), deleted items included: the units exist. */
export function returnStockStatements(ctx: ServiceContext, lines: readonly StockLine[], at = nowIso()) {
  return merged(lines).map(([itemId, qty]) =>
    ctx.db
      .update(items)
      .set({ stockQty: sql`${items.stockQty} + ${qty}`, modifiedAt: at })
      .where(and(eq(items.id, itemId), eq(items.appId, ctx.appId))),
  );
}

/** The units each item can still sell (on hand less live reservations), for a precise 409 after a guard aborted. */
export async function availableUnits(ctx: ServiceContext, itemIds: readonly number[]): Promise<Map<number, number>> {
  const loaded = await loadItems(ctx.db, ctx.appId, itemIds);
  const out = new Map<number, number>();
  for (const id of itemIds) out.set(id, loaded.get(id)?.stock.qty ?? 0);
  return out;
}
