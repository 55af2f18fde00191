// Every table, for drizzle-kit: a module's tables live in its own tables.ts.

export * from "../core/auth";
export * from "../core/batch-plan";
export * from "../core/events/outbox";
export * from "../core/guards";
export * from "../core/idempotency-table";
export * from "../core/tenancy";
export * from "../modules/account/tables";
export * from "../modules/customers/tables";
export * from "../modules/items/tables";
export * from "../modules/meal-orders/complaints/tables";
export * from "../modules/meal-orders/logistics/tables";
export * from "../modules/meal-orders/tables";
export * from "../modules/meals/app-configs/tables";
export * from "../modules/meals/corporate-locations/tables";
export * from "../modules/meals/tables";
export * from "../modules/orders/fulfillments/tables";
export * from "../modules/orders/payment-methods/tables";
export * from "../modules/orders/recurring/tables";
export * from "../modules/orders/subscriptions/tables";
export * from "../modules/orders/tables";
export * from "../modules/sales-channels/tables";
export * from "../modules/shipping/labels/tables";
export * from "../modules/shipping/tables";
export * from "../modules/tickets/tables";
export * from "../modules/vouchers/tables";
export * from "../modules/webhooks/tables";
