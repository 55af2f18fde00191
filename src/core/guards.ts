import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { check, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";

/**
 * A table no row can enter (its CHECK is false): inserting into it fails the statement, and a
 * failed statement rolls back the whole D1 batch it is in (a batch is one transaction). That makes
 * "all of these conditions hold, or nothing is written" one batch, whatever the number of
 * conditions: the stock of every line, a voucher's limits and a wallet's balance at checkout.
 */
export const batchGuards = sqliteTable("batch_guards", { reason: text("reason").notNull() }, () => [
  check("batch_guard_holds", sql`0`),
]);

/**
 * A batch statement that aborts the batch unless `condition` holds, evaluated where it stands in
 * the batch (after the statements before it). `reason` is for the log line only: the caller tells
 * which guard failed by reading the state again (failures are rare, and that read is exact).
 */
export function abortUnless(db: Db, condition: SQL, reason: string): BatchItem<"sqlite"> {
  return db.insert(batchGuards).select(sql`SELECT ${reason} WHERE NOT (${condition})`);
}

/** True when a batch failed because one of its `abortUnless` guards did not hold. */
export function isGuardAbort(error: unknown): boolean {
  const messages: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message);
  return messages.some((m) => m.includes("batch_guard_holds"));
}
