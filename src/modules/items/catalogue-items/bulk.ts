import { and, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError, type FieldErrors } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { items } from "../tables";
import type { BulkUpdateItemsResult, CreateItem } from "./schemas";
import { itemColumns } from "./service";
import { itemsReadInBatch } from "./views";

type BulkEntry = { id: number } & Partial<CreateItem>;

/**
 * Bulk updates: all or nothing. Every id must be a live item or variant of the store (404 naming
 * the others) and every entry valid against what is stored (400 per entry); the updates and their
 * `item.updated` events go in one batch, guarded so that an item deleted meanwhile cancels it all.
 */
export async function bulkUpdateItems(ctx: ServiceContext, entries: BulkEntry[]): Promise<BulkUpdateItemsResult> {
  const ids = entries.map((e) => e.id);
  const scope = and(live(items, ctx.appId), inList(items.id, ids))!;
  const current = new Map((await ctx.db.select().from(items).where(scope)).map((r) => [r.id, r]));
  const missing = ids.filter((id) => !current.has(id));
  if (missing.length) {
    throw new ApiError(
      404,
      "items_not_found",
      `No item with id ${missing.join(", ")} in this store; nothing was changed.`,
      {
        errors: Object.fromEntries(missing.map((id) => [String(id), ["Not found."]])),
      },
    );
  }
  const errors: FieldErrors = Object.create(null);
  entries.forEach((e, i) => {
    const row = current.get(e.id)!;
    if ((e.served_from_date ?? row.servedFromDate) > (e.served_to_date ?? row.servedToDate))
      errors[`items.${i}.served_from_date`] = ["Must not be after served_to_date."];
    if ((e.served_from_time ?? row.servedFromTime) > (e.served_to_time ?? row.servedToTime))
      errors[`items.${i}.served_from_time`] = ["Must not be after served_to_time."];
  });
  if (Object.keys(errors).length)
    throw ApiError.validation(errors, "Some entries do not fit what is stored; nothing was changed.");
  const at = nowIso();
  const guard = sql`(SELECT count(*) FROM items WHERE ${scope}) = ${ids.length}`;
  // The items in full are read at the end of the same batch: no round trip after the write.
  const shown = itemsReadInBatch(ctx.db, ctx.appId, ids);
  const { applied, results } = await emit(
    ctx.db,
    ctx.events,
    entries.map(({ id, ...fields }) =>
      ctx.db
        .update(items)
        .set({ ...itemColumns(fields), modifiedAt: at })
        .where(and(eq(items.id, id), guard)),
    ),
    entries.map((e) => newEvent(ctx.appId, "item.updated", { id: e.id })),
    { guard, after: [shown.statement] },
  );
  if (!applied)
    throw ApiError.conflict(
      "concurrent_update",
      "Some items were deleted while updating them; nothing was changed. Retry.",
    );
  const full = shown.answer(results.at(-1)).items(ids);
  return { count: ids.length, results: ids.map((id) => full.get(id)!) };
}
