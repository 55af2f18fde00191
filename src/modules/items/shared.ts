import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { tenantTable } from "../../core/crud/tenant-table";
import { ApiError } from "../../core/errors";
import { items } from "./tables";

/** The store's items and variants (a variant is an item with a `parent_id`). */
type ItemRow = typeof items.$inferSelect;

export const itemRecords = tenantTable(items, { label: "Item", notFound: "item_not_found" });

/** The live item or variant `id` of the store, as a statement for a caller's `db.batch` (`foundItem` reads it). */
export const itemRowRead = (ctx: ServiceContext, id: number) =>
  ctx.db
    .select()
    .from(items)
    .where(and(itemRecords.live(ctx), eq(items.id, id)))
    .limit(1);

/**
 * The row `itemRowRead` answered, or 404 `item_not_found`. A variant is an item only where the
 * operation accepts one (`variantsToo`): Item Details and Update Item serve items, not variants.
 */
export function foundItem(rows: ItemRow[], id: number, opts: { variantsToo?: boolean } = {}): ItemRow {
  const row = rows[0];
  if (!row || (row.parentId !== null && !opts.variantsToo)) throw ApiError.notFound("item_not_found", `Item ${id}`);
  return row;
}

/** The live item `id` of the store, or 404 `item_not_found` (`foundItem`). */
export async function findItem(ctx: ServiceContext, id: number, opts: { variantsToo?: boolean } = {}) {
  return foundItem(await itemRowRead(ctx, id), id, opts);
}

/** What the delete of a category says about the 409 it may answer. */
export const IN_USE =
  "Deleting a category that live items still use is refused with 409 `…_in_use`, naming the " +
  "items (`items`): remove it from them first.";
