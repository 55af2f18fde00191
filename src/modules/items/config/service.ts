import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { emit, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { itemConfig } from "../tables";
import type { ItemConfig, UpdateItemConfig } from "./schemas";

/** What a store without its own settings row has. */
export const ITEM_CONFIG_DEFAULTS: ItemConfig = { reservation_minutes: 15, max_reservation_qty: 1000 };

/** The store's catalogue settings row, as a statement for a caller's `db.batch` (`itemConfigOf` reads it). */
export const itemConfigRead = (db: Db, appId: number) =>
  db.select().from(itemConfig).where(eq(itemConfig.appId, appId));

/** The settings `itemConfigRead` answered (one row per store, keyed by `app_id`; not soft-deletable). */
export function itemConfigOf(rows: (typeof itemConfig.$inferSelect)[]): ItemConfig {
  const row = rows[0];
  return row
    ? { reservation_minutes: row.reservationMinutes, max_reservation_qty: row.maxReservationQty }
    : { ...ITEM_CONFIG_DEFAULTS };
}

/** The store's catalogue settings. */
export async function readItemConfig(db: Db, appId: number): Promise<ItemConfig> {
  return itemConfigOf(await itemConfigRead(db, appId));
}

/** Changes some settings; the others keep their values. Emits `item_config.updated`. */
export async function updateItemConfig(ctx: ServiceContext, input: UpdateItemConfig): Promise<ItemConfig> {
  const next = { ...(await readItemConfig(ctx.db, ctx.appId)), ...input };
  const values = {
    reservationMinutes: next.reservation_minutes,
    maxReservationQty: next.max_reservation_qty,
    modifiedAt: nowIso(),
  };
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(itemConfig)
        .values({ appId: ctx.appId, ...values })
        .onConflictDoUpdate({ target: itemConfig.appId, set: values }),
    ],
    [newEvent(ctx.appId, "item_config.updated", { app_id: ctx.appId })],
  );
  return next;
}
