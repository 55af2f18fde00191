import { env } from "cloudflare:workers";
/** The contract suite's commerce records of B, and of another customer of A (see fixtures.ts). */
import { auditEvents } from "../../../src/core/audit";
import { mintMerchantToken } from "../../../src/core/auth";
import { tokenDirectory } from "../../../src/db/directory";
import { directoryOf } from "../../../src/db/shards";
import { bankAccounts, storeSettings } from "../../../src/modules/account/tables";
import { itemCategoryLinks } from "../../../src/modules/items/tables";
import { einvoiceUnits } from "../../../src/modules/orders/einvoices/tables";
import { fulfillments } from "../../../src/modules/orders/fulfillments/tables";
import { savedPaymentMethods } from "../../../src/modules/orders/payment-methods/tables";
import { recurringPurchases } from "../../../src/modules/orders/recurring/tables";
import { subscriptions, subscriptionUpdates } from "../../../src/modules/orders/subscriptions/tables";
import {
  cartItems,
  carts,
  checkoutConfig,
  invoiceConfig,
  invoiceItems,
  invoices,
  orderItems,
  orders,
  storeWalletEntries,
  transactions,
} from "../../../src/modules/orders/tables";
import { shippingLabels } from "../../../src/modules/shipping/labels/tables";
import { couriers, pickupLocations, shipmentFulfillments, shipments } from "../../../src/modules/shipping/tables";
import { vouchers } from "../../../src/modules/vouchers/tables";
import { createPlainItem, db, shardFor } from "../factories";
import { A_OTHER_MARKER, type Fixtures, idAStoreLacks, MARKER } from "./fixtures";

/** A customer's cart with a line of `itemId`, and an order with a line; text fields carry `marker`. */
async function cartAndOrder(
  appId: number,
  customerId: number,
  itemId: number,
  marker: string,
  order: Partial<typeof orders.$inferInsert>,
) {
  const at = new Date().toISOString();
  const note = { customFields: { note: marker }, notes: marker };
  const [cart] = await db(appId)
    .insert(carts)
    .values({ appId, customerId, ...note, quotedTotalMinor: 2_500 })
    .returning();
  await db(appId)
    .insert(cartItems)
    .values({ appId, cartId: cart!.id, itemId, qty: 1, unitPriceMinor: 2_500, createdAt: at });
  const [o] = await db(appId)
    .insert(orders)
    .values({
      appId,
      customerId,
      cartId: cart!.id,
      currency: "SAR",
      subTotalMinor: 2_500,
      totalMinor: 2_500,
      ...note,
      ...order,
    })
    .returning();
  const line = { appId, nameEn: marker, nameAr: marker, qty: 1, amountMinor: 2_500, totalMinor: 2_500, createdAt: at };
  const tax = { taxPercentageBp: 1_500, taxMinor: 326, totalExcludingTaxMinor: 2_174 };
  const [orderLine] = await db(appId)
    .insert(orderItems)
    .values({ ...line, ...tax, orderId: o!.id, itemId, unitPriceMinor: 2_500 })
    .returning();
  return { cart: cart!.id, order: o!.id, orderLine: orderLine!.id, line, tax };
}

/** A recurring purchase of a customer's cart, and a card the customer saved, both carrying `marker`. */
async function recurringAndCard(appId: number, customerId: number, cartId: number, marker: string) {
  const [recurring] = await db(appId)
    .insert(recurringPurchases)
    .values({
      appId,
      customerId,
      cartId,
      status: "active",
      duration: 1,
      durationUnit: "month",
      nextOrderDate: "2030-01-01",
      customFields: { note: marker },
    })
    .returning();
  const [card] = await db(appId)
    .insert(savedPaymentMethods)
    .values({
      appId,
      customerId,
      gateway: "fake",
      brand: marker,
      last4: "4242",
      expiryMonth: 12,
      expiryYear: 2040,
      token: `tok-${marker}`,
    })
    .returning();
  return { recurring: recurring!.id, card: card!.id };
}

export type Commerce = {
  /** B's voucher: featured, its titles the marker, its code not (answers echo the code A sends). */
  bVoucher: { id: number; code: string };
  bBankAccount: number;
  /** An audit row of B (its bank account's creation). */
  bAuditEvent: number;
  /** B's merchant API key, named with the marker. */
  bApiKey: number;
  /** B's IBAN (valid), which A may register as its own. */
  bIban: string;
  bWalletEntry: number;
  bCart: number;
  /** B's completed, paid order, and its paid invoice (with a serial): refundable. */
  bOrder: number;
  bInvoice: number;
  /** A bank transfer waiting for review, of another (pending) order of B's: capturable. */
  bTransaction: number;
  bRecurring: number;
  bCard: number;
  /** An item of A's, for bodies that must name one. */
  aItem: number;
  /** A fulfillment of B's paid order. */
  bFulfillment: number;
  /** B's e-invoicing unit, onboarding (so it issues nothing), named with the marker. */
  bEInvoicingUnit: number;
  /** B's custom courier, pickup location, and a shipment of its paid order. */
  bShipping: { courier: number; pickupLocation: number; shipment: number; label: number };
  /** B's active subscription (of its paid order) with a pending update. */
  bSubscription: { id: number; update: number };
  /** The same records of another customer of A (marked A_OTHER_MARKER). */
  aOther: { cart: number; order: number; recurring: number; card: number; fulfillment: number; subscription: number };
};

/**
 * Tenant B's commerce records, each naming the marker: a voucher, a bank account, settings and
 * configs, a store wallet entry, a cart, orders, an invoice, a transaction, a recurring purchase
 * and a saved card of B's customer. And the same of another customer of A's.
 */
export async function commerceOf(f: Omit<Fixtures, "commerce" | "mealCommerce">): Promise<Commerce> {
  const { a: A, b: B } = f.stores;
  const bCustomer = f.customers.b;
  // B's item in B's category: a catalogue read of A filtering on that category must find nothing.
  await db(B).insert(itemCategoryLinks).values({ appId: B, itemId: f.bItem, categoryId: f.bCategory });
  const code = "TENANTBPRIVATE";
  const [voucher] = await db(B)
    .insert(vouchers)
    .values({
      appId: B,
      code,
      titleEn: MARKER,
      titleAr: MARKER,
      kind: "percentage",
      value: 1_000,
      isFeatured: true,
      customFields: { note: MARKER },
    })
    .returning();
  // B's organization, which A's token names in `org-id` (Organization Config).
  // The original in the directory, its copy on B's shard (docs/shards.md, "Step 1 as built").
  const renameOrg = "UPDATE organizations SET name = ? WHERE id = ?";
  await Promise.all([shardFor(B), directoryOf(env)].map((d1) => d1.prepare(renameOrg).bind(MARKER, B).run()));
  const bIban = "SA0380000000608010167519";
  const { id: bApiKey } = await mintMerchantToken(
    db(B),
    { appId: B, name: MARKER, permissions: ["can_read_order"] },
    tokenDirectory(env),
  );
  const [bank] = await db(B)
    .insert(bankAccounts)
    .values({ appId: B, bankNameEn: MARKER, bankNameAr: MARKER, iban: bIban, accountHolder: MARKER, isDefault: true })
    .returning();
  const [audit] = await db(B)
    .insert(auditEvents)
    .values({
      appId: B,
      actorType: "api_key",
      actorId: 1,
      action: "bank_account.created",
      resourceType: "bank_account",
      resourceId: String(bank!.id),
      requestId: MARKER,
      after: { account_holder: MARKER },
    })
    .returning();
  await db(B)
    .insert(storeSettings)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER, sellerName: MARKER, address: MARKER, timezone: "Asia/Dubai" });
  await db(B)
    .insert(checkoutConfig)
    .values({ appId: B, bankTransferInstructionsEn: MARKER, bankTransferInstructionsAr: MARKER });
  await db(B).insert(invoiceConfig).values({ appId: B, serialPrefix: "BPRIV-", footerEn: MARKER, footerAr: MARKER });
  const [entry] = await db(B)
    .insert(storeWalletEntries)
    .values({
      appId: B,
      type: "credit",
      source: "adjustment",
      amountMinor: 99_900,
      balanceAfterMinor: 99_900,
      reference: MARKER,
      createdAt: new Date().toISOString(),
    })
    .returning();
  const paid = await cartAndOrder(B, bCustomer, f.bItem, MARKER, {
    status: "completed",
    paymentStatus: "paid",
    paymentProvider: "bank_transfer",
    capturedMinor: 2_500,
    paidAt: new Date().toISOString(),
  });
  const issued = new Date().toISOString();
  const [invoice] = await db(B)
    .insert(invoices)
    .values({
      appId: B,
      orderId: paid.order,
      customerId: bCustomer,
      status: "paid",
      serial: "BPRIV-1",
      issuedAt: issued,
      currency: "SAR",
      subTotalMinor: 2_500,
      totalMinor: 2_500,
      totalExcludingTaxMinor: 2_174,
      taxMinor: 326,
      taxPercentageBp: 1_500,
      paymentProvider: "bank_transfer",
      sellerName: MARKER,
      customFields: { note: MARKER },
    })
    .returning();
  await db(B)
    .insert(invoiceItems)
    .values({ ...paid.line, ...paid.tax, invoiceId: invoice!.id, orderItemId: paid.orderLine, itemId: f.bItem });
  const pending = await cartAndOrder(B, bCustomer, f.bItem, MARKER, {
    paymentStatus: "pending_review",
    paymentProvider: "bank_transfer",
  });
  const [transaction] = await db(B)
    .insert(transactions)
    .values({
      appId: B,
      orderId: pending.order,
      type: "payment",
      status: "pending_review",
      amountMinor: 2_500,
      currency: "SAR",
      paymentProvider: "bank_transfer",
      receiptUrl: `https://cdn.example.com/${MARKER}.jpg`,
      customFields: { note: MARKER },
    })
    .returning();
  const bRecurring = await recurringAndCard(B, bCustomer, paid.cart, MARKER);
  // Another customer of A: a cart, an order, a recurring purchase and a card that A's customers must not reach.
  const aItem = (await createPlainItem(A)).id;
  const other = await cartAndOrder(A, f.app.aOther, aItem, A_OTHER_MARKER, {});
  const otherRecurring = await recurringAndCard(A, f.app.aOther, other.cart, A_OTHER_MARKER);
  // The fixture orders are inserted directly, so their fulfillments are too (payment would create them).
  const fulfillmentOf = async (
    appId: number,
    order: { order: number; orderLine: number },
    customerId: number,
    marker: string,
    itemId: number,
  ) => {
    const [row] = await db(appId)
      .insert(fulfillments)
      .values({
        appId,
        orderId: order.order,
        orderItemId: order.orderLine,
        itemId,
        customerId,
        nameEn: marker,
        nameAr: marker,
        type: "delivery",
        qty: 1,
        totalAmountMinor: 100,
        customerName: marker,
        notes: marker,
      })
      .returning();
    return row!.id;
  };
  const bFulfillment = await fulfillmentOf(B, paid, bCustomer, MARKER, f.bItem);
  const otherFulfillment = await fulfillmentOf(A, other, f.app.aOther, A_OTHER_MARKER, aItem);
  const subscriptionOf = async (appId: number, orderId: number, customerId: number, itemId: number, marker: string) => {
    const [row] = await db(appId)
      .insert(subscriptions)
      .values({
        ...(appId === B && { id: await idAStoreLacks("subscriptions", f.stores) }),
        appId,
        customerId,
        itemId,
        orderId,
        nameEn: marker,
        nameAr: marker,
        status: "active",
        unitPriceMinor: 2_500,
        currency: "SAR",
        duration: 1,
        durationUnit: "month",
        startDate: "2026-11-01",
        currentPeriodStartDate: "2026-11-01",
        currentPeriodEndDate: "2026-12-01",
        nextBillingDate: "2026-12-01",
        usageCounter: 1,
        usageLimit: 10,
        cancellationReason: marker,
      })
      .returning();
    return row!.id;
  };
  const bSubscription = await subscriptionOf(B, paid.order, bCustomer, f.bItem, MARKER);
  const otherSubscription = await subscriptionOf(A, other.order, f.app.aOther, aItem, A_OTHER_MARKER);
  const [bUpdate] = await db(B)
    .insert(subscriptionUpdates)
    .values({ appId: B, subscriptionId: bSubscription, effective: "next_period", changes: { price_minor: 3_000 } })
    .returning();
  const [courier] = await db(B)
    .insert(couriers)
    .values({
      id: await idAStoreLacks("couriers", f.stores),
      appId: B,
      type: "custom",
      nameEn: MARKER,
      nameAr: MARKER,
      coverageCities: [1],
    })
    .returning();
  const [pickup] = await db(B)
    .insert(pickupLocations)
    .values({ appId: B, nameEn: MARKER, nameAr: MARKER, address1: MARKER, lat: 24.7, lng: 46.7, cityId: 1 })
    .returning();
  const place = { name: MARKER, address1: MARKER, city_id: 1, district_id: null, lat: 24.7, lng: 46.7, phone: null };
  const [shipment] = await db(B)
    .insert(shipments)
    .values({
      appId: B,
      orderId: paid.order,
      courierId: courier!.id,
      service: "standard",
      origin: { ...place, pickup_location_id: pickup!.id },
      destination: place,
      packages: [{ weight_g: 1_000, length_cm: 10, width_cm: 10, height_cm: 10 }],
      weightG: 1_000,
      currency: "SAR",
      status: "delivered",
      notes: MARKER,
    })
    .returning();
  await db(B)
    .insert(shipmentFulfillments)
    .values({ appId: B, shipmentId: shipment!.id, fulfillmentId: bFulfillment, orderItemId: paid.orderLine });
  const [label] = await db(B)
    .insert(shippingLabels)
    .values({
      appId: B,
      shipmentId: shipment!.id,
      orderId: paid.order,
      courierId: courier!.id,
      trackingNumber: "TRBPRIVATE0001",
      costMinor: 2_000,
      currency: "SAR",
    })
    .returning();
  const unit = { id: await idAStoreLacks("einvoice_units", f.stores), appId: B, egsSerial: "3-contract-unit" };
  await db(B)
    .insert(einvoiceUnits)
    .values({ ...unit, name: MARKER, branch: MARKER, industry: MARKER });
  return {
    bEInvoicingUnit: unit.id,
    bVoucher: { id: voucher!.id, code },
    bBankAccount: bank!.id,
    bAuditEvent: audit!.id,
    bApiKey,
    bIban,
    bWalletEntry: entry!.id,
    bCart: pending.cart,
    bOrder: paid.order,
    bInvoice: invoice!.id,
    bTransaction: transaction!.id,
    bRecurring: bRecurring.recurring,
    bCard: bRecurring.card,
    aItem,
    bFulfillment,
    bSubscription: { id: bSubscription, update: bUpdate!.id },
    bShipping: { courier: courier!.id, pickupLocation: pickup!.id, shipment: shipment!.id, label: label!.id },
    aOther: {
      cart: other.cart,
      order: other.order,
      recurring: otherRecurring.recurring,
      card: otherRecurring.card,
      fulfillment: otherFulfillment,
      subscription: otherSubscription,
    },
  };
}
