import { describe, expect, it } from "vitest";
import { APP_1, createCustomerFor, createFullItem, createPlainItem, shardFor } from "../helpers/factories";

/**
 * Every change of a row moves its `modified_at` (a list's `modified_at__gte` must see it): writers
 * set it, and migration 0024's triggers (orders, customers, items) stamp the UPDATEs that leave it as it was (guards, raw SQL,
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
  it("orders, customers and items have their trigger, which compares every other column", async () => {
    const { results: tables } = await shard()
      // D1 refuses pragma_table_info: the columns are read from the table's CREATE statement.
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name IN ('orders', 'customers', 'items')")
      .all<{ name: string; sql: string }>();
    const { results: triggers } = await shard()
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
      .all<{ name: string; sql: string }>();
    const triggerOf = new Map(triggers.map((t) => [t.name, t.sql]));
    expect(tables.length).toBe(3);
    const missing: string[] = [];
    let checked = 0;
    for (const t of tables) {
      const trigger = triggerOf.get(`${t.name}_modified_at_au`);
      if (!trigger) {
        missing.push(t.name);
        continue;
      }
      // A column added later must be added to the trigger too (a migration that recreates it).
      // Column names follow "(" or "," (a column ALTER TABLE added is appended on the last line).
      const own = t.sql.replace(/REFERENCES\s+`\w+`\s*\([^)]*\)/g, "");
      const columns = [...own.matchAll(/[(,]\s*`(\w+)`/g)].map((m) => m[1]!).filter((c) => c !== "modified_at");
      checked += columns.length;
      for (const c of columns) if (!trigger.includes(`new.\`${c}\``)) missing.push(`${t.name}.${c}`);
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });

  it("an UPDATE that changes nothing leaves it", async () => {
    const customer = await createCustomerFor(APP_1);
    await aged("customers", customer.id);
    await shard().prepare("UPDATE customers SET name = name WHERE id = ?").bind(customer.id).run();
    expect(await modifiedAt("customers", customer.id)).toBe("2020-01-01T00:00:00.000Z");
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
