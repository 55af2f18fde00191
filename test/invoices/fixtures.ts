import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { invoiceItems, invoices, orders, transactions } from "../../src/modules/orders/tables";
import { createCustomerFor, createPlainItem, db, ensureTenant } from "../helpers/factories";
import { BASE } from "../helpers/request";

/**
 * Invoices written straight into the tables (their creation and payment belong to the checkout):
 * a paid invoice with a line and its captured payment, an unpaid one, and a refund invoice of the paid one.
 */

export const SELLER = "متجر الاختبار";
export const VAT_NUMBER = "310122393500003";
export const ISSUED_AT = "2026-01-05T09:30:00.000Z";

export async function seedInvoices(appId: number, tag: string) {
  await ensureTenant(appId);
  const customer = await createCustomerFor(appId, { name: `Noura ${tag}` });
  const item = await createPlainItem(appId, { nameEn: `Cake ${tag}`, nameAr: "كيكة" });
  const order = async () =>
    (
      await db(appId)
        .insert(orders)
        .values({ appId, customerId: customer.id, currency: "SAR", subTotalMinor: 11_500, totalMinor: 11_500 })
        .returning()
    )[0]!;
  const [o1, o2] = [await order(), await order()];
  const money = {
    currency: "SAR",
    subTotalMinor: 11_500,
    totalMinor: 11_500,
    totalExcludingTaxMinor: 10_000,
    taxMinor: 1_500,
    taxPercentageBp: 1_500,
  };
  const [paid] = await db(appId)
    .insert(invoices)
    .values({
      appId,
      orderId: o1.id,
      customerId: customer.id,
      status: "paid",
      serial: `INV-${tag}-1`,
      issuedAt: ISSUED_AT,
      sellerName: SELLER,
      vatNumber: VAT_NUMBER,
      paymentProvider: "card",
      paymentMethod: "mada",
      shippingMinor: 0,
      walletRedeemMinor: 500,
      ...money,
    })
    .returning();
  const [unpaid] = await db(appId)
    .insert(invoices)
    .values({ appId, orderId: o2.id, customerId: customer.id, dueAt: "2026-02-01T00:00:00.000Z", ...money })
    .returning();
  const [refund] = await db(appId)
    .insert(invoices)
    .values({
      appId,
      orderId: o1.id,
      customerId: customer.id,
      type: "refund",
      status: "paid",
      serial: `INV-${tag}-2`,
      refundedInvoiceId: paid!.id,
      refundReason: "Damaged",
      issuedAt: "2026-01-06T10:00:00.000Z",
      sellerName: SELLER,
      vatNumber: VAT_NUMBER,
      currency: "SAR",
      subTotalMinor: 5_750,
      totalMinor: 5_750,
      totalExcludingTaxMinor: 5_000,
      taxMinor: 750,
      taxPercentageBp: 1_500,
    })
    .returning();
  const line = {
    appId,
    itemId: item.id,
    nameEn: "Lemon cake",
    nameAr: "كيكة الليمون",
    taxPercentageBp: 1_500,
    createdAt: ISSUED_AT,
  };
  const [paidLine] = await db()
    .insert(invoiceItems)
    .values({
      ...line,
      invoiceId: paid!.id,
      qty: 2,
      refundedQty: 1,
      amountMinor: 12_000,
      voucherDiscountMinor: 500,
      totalMinor: 11_500,
      taxMinor: 1_500,
      totalExcludingTaxMinor: 10_000,
    })
    .returning();
  await db()
    .insert(invoiceItems)
    .values([
      {
        ...line,
        invoiceId: unpaid!.id,
        qty: 1,
        amountMinor: 11_500,
        totalMinor: 11_500,
        taxMinor: 1_500,
        totalExcludingTaxMinor: 10_000,
      },
      {
        ...line,
        invoiceId: refund!.id,
        parentInvoiceItemId: paidLine!.id,
        refundReason: "Damaged",
        qty: 1,
        amountMinor: 5_750,
        totalMinor: 5_750,
        taxMinor: 750,
        totalExcludingTaxMinor: 5_000,
      },
    ]);
  const tx = { appId, orderId: o1.id, currency: "SAR", paymentProvider: "card" as const, gateway: "fake" };
  await db()
    .insert(transactions)
    .values([
      {
        ...tx,
        invoiceId: paid!.id,
        type: "payment",
        status: "captured",
        amountMinor: 11_000,
        providerReference: `pay-${tag}`,
      },
      {
        ...tx,
        invoiceId: refund!.id,
        type: "refund",
        status: "refunded",
        amountMinor: 5_750,
        providerDetails: { RefundStatus: "REFUNDED" },
      },
    ]);
  return { customer, item, paid: paid!, unpaid: unpaid!, refund: refund!, paidLine: paidLine!, orders: [o1, o2] };
}

/**
 * A GET through the Worker with the ASSETS binding, which the test pool gives the static assets
 * only as TEST_ASSETS (vitest.config.ts): what a browser opening a PDF link gets.
 */
export async function open(url: string): Promise<Response> {
  const e = env as unknown as Env & { TEST_ASSETS: Fetcher };
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(new URL(url, BASE)), { ...e, ASSETS: e.TEST_ASSETS }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}
