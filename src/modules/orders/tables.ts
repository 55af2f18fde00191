import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";
import type { StoredBuyer } from "./buyer";

/*
 * The orders module's tables: carts, orders and their lines, invoices and their lines, payment
 * transactions, the store wallet's ledger, and the store's checkout and invoice configuration
 * (recurring purchases, subscriptions, fulfillments and saved payment methods: their folders'). Money is integer minor units (`*_minor`), served in
 * major units; percentages are basis points (`*_bp`, 1500 = 15%).
 */

export const CART_STATUSES = ["open", "checked_out", "abandoned"] as const;
export const CART_PROVIDERS = ["web", "app", "pos", "other"] as const;
export const DURATION_UNITS = ["day", "week", "month"] as const;

/** A line's bundle choices: for each bundle category, the items chosen in it. */
export type BundleSelection = { bundle_category_id: number; item_ids: number[] };

export const carts = sqliteTable(
  "carts",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customerId: integer("customer_id").notNull(),
    status: text("status", { enum: CART_STATUSES }).notNull().default("open"),
    cartProvider: text("cart_provider", { enum: CART_PROVIDERS }).notNull().default("app"),
    voucherCode: text("voucher_code"),
    /** A location of the customer's (delivery), or a pickup location: at most one of the two. */
    locationId: integer("location_id"),
    pickupLocationId: integer("pickup_location_id"),
    courierId: integer("courier_id"),
    /** Cashback (minor units) the customer asked to spend on this cart. */
    walletRedeemMinor: integer("wallet_redeem_minor").notNull().default(0),
    notes: text("notes"),
    receiver: text("receiver", { mode: "json" }).$type<Record<string, unknown>>(),
    /** A VAT-registered buyer (B2B): its invoices are standard e-invoices, cleared. */
    buyer: text("buyer", { mode: "json" }).$type<StoredBuyer>(),
    isRecurring: integer("is_recurring", { mode: "boolean" }).notNull().default(false),
    duration: integer("duration"),
    durationUnit: text("duration_unit", { enum: DURATION_UNITS }),
    /** The total the customer last saw (cart details or update): checkout flags a move from it. */
    quotedTotalMinor: integer("quoted_total_minor").notNull().default(0),
    orderId: integer("order_id"),
    checkedOutAt: text("checked_out_at"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("carts_app_idx").on(t.appId, t.isDeleted, t.id),
    index("carts_customer_idx").on(t.appId, t.customerId, t.id),
  ],
);

export const cartItems = sqliteTable(
  "cart_items",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    cartId: integer("cart_id")
      .notNull()
      .references(() => carts.id),
    itemId: integer("item_id").notNull(),
    qty: integer("qty").notNull(),
    modifierValueIds: text("modifier_value_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    bundleSelections: text("bundle_selections", { mode: "json" }).$type<BundleSelection[]>().notNull().default([]),
    /** The unit price (after the item's discount) when the line was last priced. */
    unitPriceMinor: integer("unit_price_minor").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("cart_items_cart_idx").on(t.cartId, t.id)],
);

/** `meal`: placed by the meals side (a meal plan, a renewal, add-ons), described by its `meal_orders` row. */
export const ORDER_KINDS = ["purchase", "wallet_topup", "meal"] as const;
export const ORDER_STATUSES = ["pending", "completed", "cancelled", "expired", "refunded"] as const;
export const PAYMENT_STATUSES = [
  "unpaid",
  "pending_review",
  "paid",
  "partially_refunded",
  "refunded",
  "failed",
] as const;
export const FULFILLMENT_STATUSES = [
  "unfulfilled",
  "partially_fulfilled",
  "fulfilled",
  "delivered",
  "returned",
] as const;
/** How the order is paid: the provider interface's ids (orders/payments). */
export const PAYMENT_PROVIDERS = ["wallet", "cash_on_delivery", "bank_transfer", "card", "free"] as const;

export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    kind: text("kind", { enum: ORDER_KINDS }).notNull().default("purchase"),
    /** Null only for a store wallet top-up (the merchant buys it, not a customer). */
    customerId: integer("customer_id"),
    cartId: integer("cart_id"),
    recurringPurchaseId: integer("recurring_purchase_id"),
    /** The client's own id, for syncing; unique per store when set. */
    reference: text("reference"),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("unpaid"),
    fulfillmentStatus: text("fulfillment_status", { enum: FULFILLMENT_STATUSES }).notNull().default("unfulfilled"),
    paymentProvider: text("payment_provider", { enum: PAYMENT_PROVIDERS }),
    /** The method within the provider (mada, visa_master, apple_pay, free …). */
    paymentMethod: text("payment_method"),
    cartProvider: text("cart_provider", { enum: CART_PROVIDERS }).notNull().default("app"),
    currency: text("currency").notNull(),
    subTotalMinor: integer("sub_total_minor").notNull(),
    shippingMinor: integer("shipping_minor").notNull().default(0),
    setupMinor: integer("setup_minor").notNull().default(0),
    subTotalDiscountsMinor: integer("sub_total_discounts_minor").notNull().default(0),
    shippingDiscountsMinor: integer("shipping_discounts_minor").notNull().default(0),
    /** What is owed after discounts, before the wallet: net − discounts. */
    totalMinor: integer("total_minor").notNull(),
    walletRedeemMinor: integer("wallet_redeem_minor").notNull().default(0),
    /** Captured less refunded: what a refund may still give back. */
    capturedMinor: integer("captured_minor").notNull().default(0),
    refundedMinor: integer("refunded_minor").notNull().default(0),
    voucherId: integer("voucher_id"),
    voucherCode: text("voucher_code"),
    notes: text("notes"),
    receiver: text("receiver", { mode: "json" }).$type<Record<string, unknown>>(),
    /** A VAT-registered buyer (B2B): its invoices are standard e-invoices, cleared. */
    buyer: text("buyer", { mode: "json" }).$type<StoredBuyer>(),
    /** The delivery address as it was at checkout (a snapshot: the customer may edit the location later). */
    location: text("location", { mode: "json" }).$type<Record<string, unknown>>(),
    pickupLocationId: integer("pickup_location_id"),
    courierId: integer("courier_id"),
    /** An unpaid order releases its stock after this (the scheduled sweep); null never expires. */
    expiresAt: text("expires_at"),
    paidAt: text("paid_at"),
    cancelledAt: text("cancelled_at"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("orders_app_idx").on(t.appId, t.isDeleted, t.id),
    index("orders_customer_idx").on(t.appId, t.customerId, t.id),
    // Live orders of a status, newest first (a status filter of List Orders, and its count, read only the index).
    index("orders_app_status_idx").on(t.appId, t.isDeleted, t.status, t.id),
    index("orders_expiry_idx").on(t.status, t.expiresAt),
    // Incremental sync: `modified_at__gte` and `order_by=modified_at`, deleted rows too (`include_deleted`).
    index("orders_app_modified_idx").on(t.appId, t.modifiedAt, t.id),
    uniqueIndex("orders_app_reference_idx").on(t.appId, t.reference).where(sql`reference IS NOT NULL`),
  ],
);

/**
 * A store's live (not soft-deleted) orders of each status, so that List Orders counts a large
 * store without counting its rows. Kept by triggers on `orders` (migration 0013) inside the
 * statement of every insert, delete and change of status, store or `is_deleted`: exact whatever
 * code or concurrent request writes the order. Nothing else writes it.
 */
export const orderCounts = sqliteTable(
  "order_counts",
  {
    appId: integer("app_id").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.status] })],
);

export const orderItems = sqliteTable(
  "order_items",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    /** Null for a wallet top-up line. */
    itemId: integer("item_id"),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    sku: text("sku"),
    qty: integer("qty").notNull(),
    /** Unit price after the item's own discount, VAT included. */
    unitPriceMinor: integer("unit_price_minor").notNull(),
    /** unit × qty. */
    amountMinor: integer("amount_minor").notNull(),
    voucherDiscountMinor: integer("voucher_discount_minor").notNull().default(0),
    /** amount − voucher discount: what the line costs, VAT included. */
    totalMinor: integer("total_minor").notNull(),
    isTaxable: integer("is_taxable", { mode: "boolean" }).notNull().default(true),
    taxPercentageBp: integer("tax_percentage_bp").notNull(),
    /** Rounded per line; excl + tax = total exactly. */
    taxMinor: integer("tax_minor").notNull(),
    totalExcludingTaxMinor: integer("total_excluding_tax_minor").notNull(),
    modifierValueIds: text("modifier_value_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    bundleSelections: text("bundle_selections", { mode: "json" }).$type<BundleSelection[]>().notNull().default([]),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("order_items_order_idx").on(t.orderId, t.id)],
);

export const INVOICE_TYPES = ["invoice", "refund"] as const;
export const INVOICE_STATUSES = ["unpaid", "paid", "void"] as const;
/**
 * An invoice's e-invoice as ZATCA sees it (docs/zatca.md): waiting to be signed or submitted,
 * reported (simplified) or cleared (standard), rejected, or not required (the store has no active
 * e-invoicing unit). Null on invoices without a serial, and on those issued before Phase 2.
 */
export const ZATCA_STATUSES = ["pending", "reported", "cleared", "rejected", "not_required"] as const;

export const invoices = sqliteTable(
  "invoices",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    customerId: integer("customer_id"),
    type: text("type", { enum: INVOICE_TYPES }).notNull().default("invoice"),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("unpaid"),
    /** Assigned when the invoice is paid (or a refund issued), from the store's counter; "-" before. */
    serial: text("serial"),
    refundedInvoiceId: integer("refunded_invoice_id"),
    refundReason: text("refund_reason"),
    issuedAt: text("issued_at"),
    dueAt: text("due_at"),
    currency: text("currency").notNull(),
    subTotalMinor: integer("sub_total_minor").notNull(),
    shippingMinor: integer("shipping_minor").notNull().default(0),
    setupMinor: integer("setup_minor").notNull().default(0),
    subTotalDiscountsMinor: integer("sub_total_discounts_minor").notNull().default(0),
    shippingDiscountsMinor: integer("shipping_discounts_minor").notNull().default(0),
    totalMinor: integer("total_minor").notNull(),
    totalExcludingTaxMinor: integer("total_excluding_tax_minor").notNull(),
    taxMinor: integer("tax_minor").notNull(),
    taxPercentageBp: integer("tax_percentage_bp").notNull(),
    walletRedeemMinor: integer("wallet_redeem_minor").notNull().default(0),
    paymentProvider: text("payment_provider", { enum: PAYMENT_PROVIDERS }),
    paymentMethod: text("payment_method"),
    isAutoRenewal: integer("is_auto_renewal", { mode: "boolean" }).notNull().default(false),
    /** The seller as the QR names them, fixed when the serial is assigned. */
    sellerName: text("seller_name"),
    vatNumber: text("vat_number"),
    zatcaStatus: text("zatca_status", { enum: ZATCA_STATUSES }),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("invoices_app_idx").on(t.appId, t.isDeleted, t.id),
    index("invoices_order_idx").on(t.orderId, t.id),
    uniqueIndex("invoices_app_serial_idx").on(t.appId, t.serial).where(sql`serial IS NOT NULL`),
  ],
);

export const invoiceItems = sqliteTable(
  "invoice_items",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    orderItemId: integer("order_item_id"),
    /** On a refund invoice's line: the original invoice's line it gives back. */
    parentInvoiceItemId: integer("parent_invoice_item_id"),
    itemId: integer("item_id"),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    qty: integer("qty").notNull(),
    /** On an original line: how many of `qty` refund invoices gave back (kept in the refund's batch). */
    refundedQty: integer("refunded_qty").notNull().default(0),
    amountMinor: integer("amount_minor").notNull(),
    voucherDiscountMinor: integer("voucher_discount_minor").notNull().default(0),
    totalMinor: integer("total_minor").notNull(),
    taxPercentageBp: integer("tax_percentage_bp").notNull(),
    taxMinor: integer("tax_minor").notNull(),
    totalExcludingTaxMinor: integer("total_excluding_tax_minor").notNull(),
    refundReason: text("refund_reason"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("invoice_items_invoice_idx").on(t.invoiceId, t.id)],
);

/** The last serial number of each store's invoices: serials are gapless and in the order paid. */
export const invoiceCounters = sqliteTable("invoice_counters", {
  appId: integer("app_id").primaryKey(),
  lastNumber: integer("last_number").notNull().default(0),
});

export const TRANSACTION_TYPES = ["payment", "refund"] as const;
export const TRANSACTION_STATUSES = [
  "pending",
  "pending_review",
  "captured",
  "failed",
  "declined",
  "refunded",
] as const;

export const transactions = sqliteTable(
  "transactions",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    invoiceId: integer("invoice_id"),
    type: text("type", { enum: TRANSACTION_TYPES }).notNull(),
    status: text("status", { enum: TRANSACTION_STATUSES }).notNull(),
    amountMinor: integer("amount_minor").notNull(),
    currency: text("currency").notNull(),
    paymentProvider: text("payment_provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    paymentMethod: text("payment_method"),
    /** Which gateway a card payment went through (the development fake, or MyFatoorah). */
    gateway: text("gateway"),
    /** The provider's id of the payment or refund: unique per gateway, so a callback applies once. */
    providerReference: text("provider_reference"),
    providerDetails: text("provider_details", { mode: "json" }).$type<Record<string, unknown>>(),
    paymentUrl: text("payment_url"),
    /** A bank transfer's proof of payment (an image URL). */
    receiptUrl: text("receipt_url"),
    reviewedAt: text("reviewed_at"),
    declineReason: text("decline_reason"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("transactions_app_idx").on(t.appId, t.isDeleted, t.id),
    index("transactions_order_idx").on(t.orderId, t.id),
    uniqueIndex("transactions_gateway_reference_idx")
      .on(t.gateway, t.providerReference)
      .where(sql`provider_reference IS NOT NULL`),
  ],
);

/** The store's wallet: an append-only ledger; the balance is the latest `balance_after`. */
export const STORE_WALLET_SOURCES = ["charge", "fee", "refund", "adjustment", "label"] as const;

export const storeWalletEntries = sqliteTable(
  "store_wallet_entries",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    type: text("type", { enum: ["credit", "debit"] }).notNull(),
    source: text("source", { enum: STORE_WALLET_SOURCES }).notNull(),
    /** Signed minor units. */
    amountMinor: integer("amount_minor").notNull(),
    balanceAfterMinor: integer("balance_after_minor").notNull(),
    orderId: integer("order_id"),
    reference: text("reference"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("store_wallet_entries_app_idx").on(t.appId, t.id),
    // A paid top-up credits the wallet once, whatever the number of callbacks. Labels are per
    // shipment (an order may have several), so theirs are kept once each by the index below.
    uniqueIndex("store_wallet_entries_order_idx")
      .on(t.appId, t.source, t.orderId)
      .where(sql`order_id IS NOT NULL AND source <> 'label'`),
    // A shipment's label is debited once and, voided, credited back once (`reference` names the shipment).
    uniqueIndex("store_wallet_entries_label_idx").on(t.appId, t.type, t.reference).where(sql`source = 'label'`),
  ],
);

/** One row per store, created on first write; the defaults stand until then. */
export const checkoutConfig = sqliteTable("checkout_config", {
  appId: integer("app_id").primaryKey(),
  /** The providers a customer may choose at checkout (PAYMENT_PROVIDERS less `free`). */
  enabledProviders: text("enabled_providers", { mode: "json" })
    .$type<string[]>()
    .notNull()
    .default(["card", "wallet", "cash_on_delivery", "bank_transfer"]),
  isDeliveryEnabled: integer("is_delivery_enabled", { mode: "boolean" }).notNull().default(true),
  isPickupEnabled: integer("is_pickup_enabled", { mode: "boolean" }).notNull().default(true),
  isWalletRedeemEnabled: integer("is_wallet_redeem_enabled", { mode: "boolean" }).notNull().default(true),
  minOrderMinor: integer("min_order_minor").notNull().default(0),
  /** How long an unpaid card order holds its stock. */
  paymentTtlMinutes: integer("payment_ttl_minutes").notNull().default(30),
  /** How long a bank transfer may wait for its receipt and review. */
  bankTransferTtlHours: integer("bank_transfer_ttl_hours").notNull().default(72),
  bankTransferInstructionsEn: text("bank_transfer_instructions_en"),
  bankTransferInstructionsAr: text("bank_transfer_instructions_ar"),
  modifiedAt: text("modified_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
});

export const invoiceConfig = sqliteTable("invoice_config", {
  appId: integer("app_id").primaryKey(),
  serialPrefix: text("serial_prefix").notNull().default("INV-"),
  /** Days an unpaid invoice (a pay link) is due after it is issued. */
  dueDays: integer("due_days").notNull().default(0),
  footerEn: text("footer_en"),
  footerAr: text("footer_ar"),
  isZatcaQrEnabled: integer("is_zatca_qr_enabled", { mode: "boolean" }).notNull().default(true),
  modifiedAt: text("modified_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
});
