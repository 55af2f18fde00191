import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the orders module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    getStoreWallet: () => ({}),
    listStoreWalletTransactions: (f) => ({ query: `?id=${f.commerce.bWalletEntry}` }),
    // A's own top-up (a pending order of A's); B's wallet must not move.
    chargeWallet: () => ({ body: { amount: 10 } }),
    // Carts, checkout, orders (MO1–MO4, CA11, CA14): B's cart, order, customer or item.
    listCarts: (f) => ({ query: `?id=${f.commerce.bCart}` }),
    getCart: (f) => ({ path: { cart_id: String(f.commerce.bCart) } }),
    createCart: (f) => ({ body: { items: [{ item_id: f.bItem, qty: 1 }] } }),
    getMyCart: (f) => ({ path: { cart_id: String(f.commerce.bCart) } }),
    updateMyCart: (f) => ({ path: { cart_id: String(f.commerce.bCart) }, body: { notes: "Taken" } }),
    checkoutCart: (f) => ({ path: { cart_id: String(f.commerce.bCart) }, body: { payment_provider: "bank_transfer" } }),
    getCheckoutConfig: () => ({}),
    updateCheckoutConfig: () => ({ body: { payment_ttl_minutes: 30 } }),
    getMyCheckoutConfig: () => ({}),
    listOrders: (f) => ({ query: `?id=${f.commerce.bOrder}` }),
    // Fulfillments: the overview carries counts only (no marker); the rest name B's fulfillment.
    getFulfillmentsOverview: () => ({}),
    listFulfillments: (f) => ({ query: `?id=${f.commerce.bFulfillment}` }),
    getFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.bFulfillment) } }),
    updateFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.bFulfillment) }, body: { notes: "x" } }),
    listMyFulfillments: (f) => ({ query: `?id=${f.commerce.bFulfillment}` }),
    getMyFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.bFulfillment) } }),
    updateMyFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.bFulfillment) }, body: { notes: "x" } }),
    // Subscriptions (MS1–MS11, U1–U3): B's subscription and its pending update. The bulk operations
    // answer 200 with one refused result per id, never B's data.
    listSubscriptions: (f) => ({ query: `?id=${f.commerce.bSubscription.id}` }),
    getSubscriptionStatistics: () => ({}),
    getSubscription: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) } }),
    cancelSubscription: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) }, body: {} }),
    cancelSubscriptionAutoRenewal: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) } }),
    incrementSubscriptionUsage: (f) => ({
      path: { subscription_id: String(f.commerce.bSubscription.id) },
      body: { quantity: 1 },
    }),
    decrementSubscriptionUsage: (f) => ({
      path: { subscription_id: String(f.commerce.bSubscription.id) },
      body: { quantity: 1 },
    }),
    bulkPauseSubscriptions: (f) => ({ body: { subscription_ids: [f.commerce.bSubscription.id] } }),
    bulkResumeSubscriptions: (f) => ({ body: { subscription_ids: [f.commerce.bSubscription.id] } }),
    createSubscriptionUpdate: (f) => ({
      path: { subscription_id: String(f.commerce.bSubscription.id) },
      body: { price: 10, effective: "next_period" },
    }),
    cancelSubscriptionUpdate: (f) => ({
      path: {
        subscription_id: String(f.commerce.bSubscription.id),
        update_id: String(f.commerce.bSubscription.update),
      },
    }),
    listMySubscriptions: (f) => ({ query: `?id=${f.commerce.bSubscription.id}` }),
    getMySubscription: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) } }),
    cancelMySubscriptionAutoRenewal: (f) => ({ path: { subscription_id: String(f.commerce.bSubscription.id) } }),
    getOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) } }),
    createOrder: (f) => ({ body: { customer_id: f.customers.b, items: [{ item_id: f.commerce.aItem, qty: 1 }] } }),
    updateOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) }, body: { notes: "Taken" } }),
    listMyOrders: (f) => ({ query: `?id=${f.commerce.bOrder}` }),
    getMyOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) } }),
    getCustomerOrderStatistics: (f) => ({ path: { customer_id: String(f.customers.b) } }),
    // A pay link to B's order, with B's app_id and a forged signature.
    openPayLink: (f) => ({
      path: { order_id: String(f.commerce.bOrder) },
      query: `?entity=order&app_id=${f.stores.b}&signature=${"x".repeat(43)}`,
    }),
    // Recurring purchases (MO5, CA11).
    listRecurringPurchases: (f) => ({ query: `?id=${f.commerce.bRecurring}` }),
    getRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.bRecurring) } }),
    updateRecurringPurchase: (f) => ({
      path: { recurring_purchase_id: String(f.commerce.bRecurring) },
      body: { status: "inactive" },
    }),
    listMyRecurringPurchases: (f) => ({ query: `?id=${f.commerce.bRecurring}` }),
    getMyRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.bRecurring) } }),
    deactivateMyRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.bRecurring) } }),
    // Invoices and refunds (MO6–MO8), transactions (MO9–MO11).
    getInvoiceConfig: () => ({}),
    updateInvoiceConfig: () => ({ body: { footer_en: "Mine" } }),
    listInvoices: (f) => ({ query: `?id=${f.commerce.bInvoice}` }),
    getInvoice: (f) => ({ path: { invoice_id: String(f.commerce.bInvoice) } }),
    downloadEInvoice: (f) => ({ path: { invoice_id: String(f.commerce.bInvoice) } }),
    refundInvoice: (f) => ({ path: { invoice_id: String(f.commerce.bInvoice) }, body: { refund_reason: "x" } }),
    // E-invoicing units: B's unit (onboarding, named with the marker); A registers one of its own.
    listEInvoicingUnits: (f) => ({ query: `?id=${f.commerce.bEInvoicingUnit}` }),
    getEInvoicingUnit: (f) => ({ path: { unit_id: String(f.commerce.bEInvoicingUnit) } }),
    renewEInvoicingUnit: (f) => ({ path: { unit_id: String(f.commerce.bEInvoicingUnit) }, body: { otp: "123456" } }),
    // Registering names no record: A's store has no seller details in the fixtures, so a well-formed
    // body is a 409; a malformed OTP gives the 400 the suite expects, and nothing of B's.
    registerEInvoicingUnit: () => ({ body: { otp: "12", name: "Mine", branch: "Main", industry: "Retail" } }),
    listTransactions: (f) => ({ query: `?id=${f.commerce.bTransaction}` }),
    getTransaction: (f) => ({ path: { transaction_id: String(f.commerce.bTransaction) } }),
    captureBankTransfer: (f) => ({ path: { transaction_id: String(f.commerce.bTransaction) } }),
    declineBankTransfer: (f) => ({ path: { transaction_id: String(f.commerce.bTransaction) }, body: { reason: "x" } }),
    // Payment methods (CA13): B's customer's saved card.
    listPaymentProviders: () => ({}),
    listPaymentMethods: (f) => ({ query: `?id=${f.commerce.bCard}` }),
    deletePaymentMethod: (f) => ({ path: { payment_method_id: String(f.commerce.bCard) } }),
  },
  otherCustomer: {
    createCart: (f) => ({
      body: { items: [{ item_id: f.commerce.aItem, qty: 1 }], location_id: f.app.aOtherLocation },
    }),
    getMyCart: (f) => ({ path: { cart_id: String(f.commerce.aOther.cart) } }),
    updateMyCart: (f) => ({ path: { cart_id: String(f.commerce.aOther.cart) }, body: { notes: "Taken" } }),
    checkoutCart: (f) => ({
      path: { cart_id: String(f.commerce.aOther.cart) },
      body: { payment_provider: "bank_transfer" },
    }),
    getMyCheckoutConfig: () => ({}),
    listMyOrders: (f) => ({ query: `?id=${f.commerce.aOther.order}` }),
    getMyOrder: (f) => ({ path: { order_id: String(f.commerce.aOther.order) } }),
    listMyRecurringPurchases: (f) => ({ query: `?id=${f.commerce.aOther.recurring}` }),
    getMyRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.aOther.recurring) } }),
    deactivateMyRecurringPurchase: (f) => ({ path: { recurring_purchase_id: String(f.commerce.aOther.recurring) } }),
    listPaymentProviders: () => ({}),
    listPaymentMethods: (f) => ({ query: `?id=${f.commerce.aOther.card}` }),
    deletePaymentMethod: (f) => ({ path: { payment_method_id: String(f.commerce.aOther.card) } }),
    listMySubscriptions: (f) => ({ query: `?id=${f.commerce.aOther.subscription}` }),
    getMySubscription: (f) => ({ path: { subscription_id: String(f.commerce.aOther.subscription) } }),
    cancelMySubscriptionAutoRenewal: (f) => ({ path: { subscription_id: String(f.commerce.aOther.subscription) } }),
    listMyFulfillments: (f) => ({ query: `?id=${f.commerce.aOther.fulfillment}` }),
    getMyFulfillment: (f) => ({ path: { fulfillment_id: String(f.commerce.aOther.fulfillment) } }),
    updateMyFulfillment: (f) => ({
      path: { fulfillment_id: String(f.commerce.aOther.fulfillment) },
      body: { notes: "Taken" },
    }),
  },
};
