/**
 * Stores whose e-invoicing unit was onboarded on a fresh local fake of ZATCA's API (its production
 * CSID's secret sealed on the unit as onboarding stores it), and the e-invoice queue's consumer run
 * as the webhooks Worker runs it, with that fake and its events recorded.
 */
import { createMessageBatch, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import type { EventMessage } from "../../src/core/events/outbox";
import { consumeEInvoiceMessages, type SignMessage } from "../../src/modules/orders/einvoices/consumer";
import { einvoiceUnits } from "../../src/modules/orders/einvoices/tables";
import type { EInvoicingApi } from "../../src/modules/orders/invoices/e-invoice/api";
import { sealKey } from "../../src/modules/orders/invoices/e-invoice/keys";
import { db, shardFor, tokenFor } from "../helpers/factories";
import { call } from "../helpers/request";
import { cartOf, checkedOut, shopperOf, stocked } from "../orders/helpers";
import { onboarded } from "./e-invoice-api-helpers";
import { activeUnit, rowOf, SECRET, sellerStore } from "./e-invoice-chain-fixtures";

/** Seals a CSID secret on the unit, as onboarding does (`<app_id>:<unit_id>`, as the unit's key). */
export async function sealSecret(appId: number, unitId: number, secret: string) {
  const sealed = await sealKey(SECRET, `${appId}:${unitId}`, new TextEncoder().encode(secret));
  await db(appId).update(einvoiceUnits).set({ productionSecretSealed: sealed }).where(eq(einvoiceUnits.id, unitId));
}

/**
 * A store with an active unit onboarded on its own fake, whose clock reads `fakeNow`. The unit signs
 * with the SDK's key and certificate (e-invoice-chain-fixtures.ts), so the fake issues that
 * certificate, as the developer portal does.
 */
export async function reportingStore(appId: number, fakeNow = Date.now()) {
  await sellerStore(appId);
  const unitId = await activeUnit(appId);
  const { fake, api, production } = await onboarded(fakeNow, { fixedCertificate: true });
  await sealSecret(appId, unitId, production.secret);
  return { unitId, fake, api, production, token: await tokenFor(appId) };
}

/** Runs the `commerce-einvoices` consumer on wake-ups of the store; answers what it acked, retried and emitted. */
export async function consume(appId: number, api: EInvoicingApi, messages = 1) {
  const emitted: EventMessage[] = [];
  const events = {
    send: async (body: EventMessage) => void emitted.push(body),
    sendBatch: async (list: { body: EventMessage }[]) => void emitted.push(...list.map((m) => m.body)),
  };
  const batch = createMessageBatch<SignMessage>(
    "commerce-einvoices",
    Array.from({ length: messages }, (_, i) => ({
      id: `m${i + 1}`,
      timestamp: new Date(),
      attempts: 1,
      body: { app_id: appId },
    })),
  );
  const retries = batch.messages.map((m) => vi.spyOn(m, "retry"));
  const acks = batch.messages.map((m) => vi.spyOn(m, "ack"));
  await consumeEInvoiceMessages(batch, { ...env, EVENTS: events } as unknown as Env, api);
  return {
    emitted,
    acked: acks.reduce((n, a) => n + a.mock.calls.length, 0),
    delays: retries.flatMap((r) => r.mock.calls.map(([o]) => o?.delaySeconds)),
  };
}

/** The store's invoice's e-invoice row and status. */
export const einvoiceOf = (appId: number, invoiceId: number) =>
  rowOf(
    appId,
    `SELECT e.*, i.zatca_status FROM einvoices e JOIN invoices i ON i.id = e.invoice_id WHERE e.invoice_id = ?`,
    invoiceId,
  );

/** The outbox's events of a type for the store. */
export async function outboxOf(appId: number, type: string): Promise<EventMessage[]> {
  const { results } = await shardFor(appId)
    .prepare("SELECT payload FROM outbox_events WHERE app_id = ? AND type = ? ORDER BY created_at")
    .bind(appId, type)
    .all<{ payload: string }>();
  return results.map((r) => JSON.parse(r.payload));
}

/**
 * A cart of a new customer of the store (with `cart`'s fields), checked out through Checkout cash on
 * delivery, then captured by the merchant: the invoice that payment issued, and Checkout's result.
 */
export async function checkedOutInvoice(appId: number, token: string, cart: Record<string, unknown> = {}) {
  const shopper = await shopperOf(appId);
  const item = await stocked(appId, 2300, 5);
  const made = await cartOf(shopper, { items: [{ item_id: item.id, qty: 1 }], ...cart });
  const placed = await checkedOut(shopper, made.id, { payment_provider: "cash_on_delivery" });
  const tx = await rowOf(appId, "SELECT id FROM transactions WHERE order_id = ? AND type = 'payment'", placed.order.id);
  const captured = await call(`/order/v1/merchant/transactions/${tx.id}/capture/`, { method: "POST", token, appId });
  expect(captured.status, await captured.clone().text()).toBe(200);
  const invoice = await rowOf(appId, "SELECT * FROM invoices WHERE order_id = ? AND type = 'invoice'", placed.order.id);
  return { invoice, placed, cart: made };
}
