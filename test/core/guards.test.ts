import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { abortUnless, isGuardAbort } from "../../src/core/guards";
import { storeWalletEntries } from "../../src/modules/orders/tables";
import { APP_1, countRows, db } from "../helpers/factories";

const entry = (reference: string) => ({
  appId: APP_1,
  type: "credit" as const,
  source: "adjustment" as const,
  amountMinor: 1,
  balanceAfterMinor: 1,
  reference,
  createdAt: "2026-01-01T00:00:00.000Z",
});

describe("abortUnless: every condition holds, or nothing of the batch is written", () => {
  it("a guard that holds lets the batch land", async () => {
    const d = db();
    await d.batch([d.insert(storeWalletEntries).values(entry("guard-holds")), abortUnless(d, sql`1 = 1`, "always")]);
    expect(await countRows("store_wallet_entries", "reference = 'guard-holds'")).toBe(1);
  });

  it("a guard that fails rolls back the statements before it, and is recognised", async () => {
    const d = db();
    const error = await d
      .batch([
        d.insert(storeWalletEntries).values(entry("guard-fails")),
        // Evaluated after the insert: it sees the row and refuses.
        abortUnless(d, sql`NOT EXISTS (SELECT 1 FROM store_wallet_entries WHERE reference = 'guard-fails')`, "never"),
      ])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isGuardAbort(error)).toBe(true);
    expect(await countRows("store_wallet_entries", "reference = 'guard-fails'")).toBe(0);
  });

  it("another failure is not taken for a guard", () => {
    expect(isGuardAbort(new Error("UNIQUE constraint failed: x"))).toBe(false);
    expect(isGuardAbort("batch_guard_holds")).toBe(false);
  });
});
