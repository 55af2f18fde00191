/**
 * Stores issuing invoices into ZATCA's chain: an e-invoicing unit made as onboarding will make it
 * (the SDK's test certificate, its key sealed under the test secret), the seller's settings, and
 * invoices issued through the batch that pays an order (`paidStatements`, as Checkout and Capture
 * run it) or refunded through Refund Invoice.
 */

import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { BatchPlan } from "../../src/core/batch-plan";
import { readStoreSettings, type StoreSettings } from "../../src/modules/account";
import { storeSettings } from "../../src/modules/account/tables";
import { einvoiceUnits } from "../../src/modules/orders/einvoices/tables";
import { privateKeyFromSec1 } from "../../src/modules/orders/invoices/e-invoice/certificate";
import { sealKey } from "../../src/modules/orders/invoices/e-invoice/keys";
import { paidStatements } from "../../src/modules/orders/payments/paid";
import { db, ensureTenant, serviceCtx, shardFor } from "../helpers/factories";
import { SDK_CERTIFICATE, SDK_PRIVATE_KEY } from "./e-invoice-fixtures";

export const SECRET = env.EINVOICE_KEY_SECRET;
export const SELLER_VAT = "399999999900003";

/** A store with the seller's settings ZATCA needs (VAT number, registration, national address). */
export async function sellerStore(appId: number, withAddress = true): Promise<void> {
  await ensureTenant(appId);
  await db(appId)
    .insert(storeSettings)
    .values({
      appId,
      vatNumber: SELLER_VAT,
      sellerName: "Maximum Speed Tech Supply LTD",
      commercialRegistration: "1010010000",
      sellerAddress: withAddress
        ? {
            street: "Prince Sultan",
            building_number: "2322",
            district: "Al-Murabba",
            city: "Riyadh",
            postal_code: "23333",
          }
        : null,
    })
    .onConflictDoNothing();
}

/** An active unit of the store with the SDK's test certificate and key (sealed as keys.ts seals them). */
export async function activeUnit(appId: number): Promise<number> {
  const [unit] = await db(appId)
    .insert(einvoiceUnits)
    .values({ appId, egsSerial: `3-${crypto.randomUUID()}`, status: "active", productionCertificate: SDK_CERTIFICATE })
    .returning();
  const sealed = await sealKey(SECRET, `${appId}:${unit!.id}`, privateKeyFromSec1(SDK_PRIVATE_KEY));
  await db(appId).update(einvoiceUnits).set({ privateKeySealed: sealed }).where(sql`id = ${unit!.id}`);
  return unit!.id;
}

/**
 * `count` pending orders of the store, each with its unpaid invoice of one line (11.50 SAR, VAT 1.50
 * of it); answers their ids. Three statements, whatever the count.
 */
export async function pendingOrders(appId: number, count: number, tag = crypto.randomUUID()): Promise<number[]> {
  const d1 = shardFor(appId);
  const at = "2026-01-05T09:30:00.000Z";
  const series = `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${count}) SELECT x FROM n`;
  await d1.batch([
    d1
      .prepare(
        `INSERT INTO orders (app_id, reference, currency, sub_total_minor, total_minor, status, created_at, modified_at)
         SELECT ?, ? || '-' || x, 'SAR', 1150, 1150, 'pending', ?, ? FROM (${series})`,
      )
      .bind(appId, tag, at, at),
    d1
      .prepare(
        `INSERT INTO invoices (app_id, order_id, currency, sub_total_minor, total_minor, total_excluding_tax_minor,
           tax_minor, tax_percentage_bp, payment_provider, created_at, modified_at)
         SELECT app_id, id, 'SAR', 1150, 1150, 1000, 150, 1500, 'cash_on_delivery', ?, ? FROM orders
         WHERE app_id = ? AND reference LIKE ? || '-%'`,
      )
      .bind(at, at, appId, tag),
    d1
      .prepare(
        `INSERT INTO invoice_items (app_id, invoice_id, name_en, name_ar, qty, amount_minor, total_minor,
           tax_percentage_bp, tax_minor, total_excluding_tax_minor, created_at)
         SELECT i.app_id, i.id, 'Chicken bowl', 'وعاء دجاج', 1, 1150, 1150, 1500, 150, 1000, ?
         FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.app_id = ? AND o.reference LIKE ? || '-%'`,
      )
      .bind(at, appId, tag),
  ]);
  const { results } = await d1
    .prepare("SELECT id FROM orders WHERE app_id = ? AND reference LIKE ? || '-%' ORDER BY id")
    .bind(appId, tag)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/** Pays the order in ONE batch, as Checkout and Capture do (`paidStatements`): its invoice gets its serial. */
export async function issue(appId: number, orderId: number, known?: StoreSettings): Promise<void> {
  const ctx = serviceCtx(appId);
  const settings = known ?? (await readStoreSettings(ctx.db, appId));
  const paid = paidStatements(ctx, {
    orderId: sql`${orderId}`,
    kind: "purchase",
    at: new Date().toISOString(),
    settings,
    serialPrefix: "INV-",
  });
  await new BatchPlan(ctx.db)
    .add(...paid.statements)
    .event(...paid.events)
    .run(ctx.events);
  await ctx.settle();
}

/** A row of the store's shard, and its rows (the orders tests' helpers, under this file's names). */
export { storeRow as rowOf, storeRows as rowsOf } from "../orders/helpers";
