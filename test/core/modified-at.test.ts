import { describe, expect, it } from "vitest";
import { APP_1, createCustomerFor, createFullItem, createPlainItem, shardFor } from "../helpers/factories";

/**
 * Every change of a row moves its `modified_at` (a list's `modified_at__gte` must see it): writers
 * set it, and migration 0022's triggers stamp the UPDATEs that leave it as it was (guards, raw SQL,
 * scheduled sweeps). docs/interface-decisions.md, "Lists: incremental sync".
 */

const shard = () => shardFor(APP_1);
const modifiedAt = async (table: string, id: number) =>
  (await shard().prepare(`SELECT modified_at FROM ${table} WHERE id = ?`).bind(id).first<{ modified_at: string }>())!
    .modified_at;
/** Puts the row's `modified_at` in the past, so that a move is visible whatever the clock's pace. */
const aged = (table: string, id: number) =>
  shard().prepare(`UPDATE ${table} SET modified_at = '2020-01-01T00:00:00.000Z' WHERE id = ?`).bind(id).run();

describe("modified_at moves on every change", () => {
  it("every shard table with modified_at has its trigger", async () => {
    const { results } = await shard()
      .prepare(
        // D1 refuses pragma_table_info: the column is read from the table's CREATE statement.
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%`modified_at` text%'",
      )
      .all<{ name: string }>();
    const triggers = new Set(
      (
        await shard().prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all<{ name: string }>()
      ).results.map((t) => t.name),
    );
    expect(results.length).toBeGreaterThan(50);
    expect(results.filter((t) => !triggers.has(`${t.name}_modified_at_au`)).map((t) => t.name)).toEqual([]);
  });

  it("an UPDATE that leaves it (a guard, raw SQL) gets the database's time: customers, orders' stock, items", async () => {
    const customer = await createCustomerFor(APP_1);
    const item = await createPlainItem(APP_1, { stockQty: 5 });
    for (const [table, id, change] of [
      ["customers", customer.id, "name = 'Raw'"],
      ["items", item.id, "stock_qty = stock_qty - 1"],
    ] as const) {
      await aged(table, id);
      await shard().prepare(`UPDATE ${table} SET ${change} WHERE id = ?`).bind(id).run();
      expect(await modifiedAt(table, id), table).not.toBe("2020-01-01T00:00:00.000Z");
      expect(Date.parse(await modifiedAt(table, id)), table).toBeGreaterThan(Date.parse("2025-01-01"));
    }
  });

  it("keeps the time a writer sets", async () => {
    const customer = await createCustomerFor(APP_1);
    await shard()
      .prepare("UPDATE customers SET name = 'Set', modified_at = '2030-05-05T05:05:05.555Z' WHERE id = ?")
      .bind(customer.id)
      .run();
    expect(await modifiedAt("customers", customer.id)).toBe("2030-05-05T05:05:05.555Z");
  });

  it("a variant's change, or a new variant, moves its item", async () => {
    const { item, variants } = await createFullItem(APP_1);
    await aged("items", item.id);
    await shard().prepare("UPDATE items SET stock_qty = 3 WHERE id = ?").bind(variants[0]!.id).run();
    expect(await modifiedAt("items", item.id)).not.toBe("2020-01-01T00:00:00.000Z");
    await aged("items", item.id);
    await shard()
      .prepare(
        `INSERT INTO items (app_id, parent_id, type, service_type, sku, price_minor, name_en, name_ar)
         VALUES (?, ?, 'product', 'pickup', ?, 100, 'V', 'V')`,
      )
      .bind(APP_1, item.id, `V-${item.id}-new`)
      .run();
    expect(await modifiedAt("items", item.id)).not.toBe("2020-01-01T00:00:00.000Z");
  });
});
