import type { Hono } from "hono";
import type { AppEnv } from "./env";

/** Where each family is mounted: the one place that knows the prefixes. */
export const PREFIXES = {
  /** Merchant operations, including the spec's relative paths of section 4.8. */
  merchant: "/order/v1",
  /** The customer app's account: register, OTP login, tokens, profile, locations, notifications. */
  /** The customer app's commerce: carts, checkout, orders (told from the merchant's by `/merchant/`). */
  customerCommerce: "/order/v1",
  customerAccount: "/api/v1/customer",
  publicApi: "/public-api/v1",
  api: "/api/v1",
  /** Plans v3 of the meals app (MM4): the spec names the version. */
  apiV3: "/api/v3",
  /** The platform operator's: organizations, stores, their suspension and first key. */
  platform: "/platform/v1",
} as const;

// biome-ignore lint/suspicious/noExplicitAny: routers differ in their schema and base-path types
export type AnyRouter = Hono<AppEnv, any, any>;

/**
 * Every router, in the order the app mounts them (when two paths match a request, the first
 * mounted wins), with the module it belongs to and how to load it. Each is loaded when a request first needs it: a dynamic
 * import inside the one bundle is evaluated on its first call, so a cold isolate builds no route
 * definition and no zod schema before a request asks for one (docs/benchmarks.md, start-up).
 * The paths each one serves are in route-table.ts, generated from these routers.
 */
export const ROUTERS = [
  {
    name: "catalogueMerchant",
    module: "items",
    prefix: PREFIXES.merchant,
    load: async () => (await import("./modules/items/merchant")).catalogueMerchantRouter,
  },
  {
    name: "ticketsMerchant",
    module: "tickets",
    prefix: PREFIXES.merchant,
    load: async () => (await import("./modules/tickets/merchant")).ticketsMerchantRouter,
  },
  {
    name: "mealsMerchant",
    module: "meals",
    prefix: PREFIXES.merchant,
    load: async () => (await import("./modules/meals/merchant")).mealsMerchantRouter,
  },
  {
    name: "customersMerchant",
    module: "customers",
    prefix: PREFIXES.merchant,
    load: async () => (await import("./modules/customers/merchant")).customersMerchantRouter,
  },
  {
    name: "vouchersMerchant",
    module: "vouchers",
    prefix: PREFIXES.merchant,
    load: async () => (await import("./modules/vouchers/merchant")).vouchersMerchantRouter,
  },
  {
    name: "ordersMerchant",
    module: "orders",
    prefix: PREFIXES.merchant,
    load: async () => (await import("./modules/orders/merchant")).ordersMerchantRouter,
  },
  {
    name: "shippingMerchant",
    module: "shipping",
    prefix: PREFIXES.merchant,
    load: async () => (await import("./modules/shipping/merchant")).shippingMerchantRouter,
  },
  {
    name: "vouchersCustomer",
    module: "vouchers",
    prefix: PREFIXES.customerCommerce,
    load: async () => (await import("./modules/vouchers/customer")).vouchersCustomerRouter,
  },
  {
    name: "ordersCustomer",
    module: "orders",
    prefix: PREFIXES.customerCommerce,
    load: async () => (await import("./modules/orders/customer")).ordersCustomerRouter,
  },
  {
    name: "ordersPublic",
    module: "orders",
    prefix: PREFIXES.customerCommerce,
    load: async () => (await import("./modules/orders/public")).ordersPublicRouter,
  },
  {
    name: "shippingCustomer",
    module: "shipping",
    prefix: PREFIXES.customerCommerce,
    load: async () => (await import("./modules/shipping/customer")).shippingCustomerRouter,
  },
  {
    name: "shippingPublic",
    module: "shipping",
    prefix: PREFIXES.customerCommerce,
    load: async () => (await import("./modules/shipping/public")).shippingPublicRouter,
  },
  {
    name: "catalogueCustomer",
    module: "items",
    prefix: PREFIXES.customerCommerce,
    load: async () => (await import("./modules/items/customer")).catalogueCustomerRouter,
  },
  {
    name: "customerAccount",
    module: "customers",
    prefix: PREFIXES.customerAccount,
    load: async () => (await import("./modules/customers/customer")).customerAccountRouter,
  },
  {
    name: "accountMerchant",
    module: "account",
    prefix: PREFIXES.api,
    load: async () => (await import("./modules/account/merchant")).accountMerchantRouter,
  },
  {
    name: "webhooksMerchant",
    module: "webhooks",
    prefix: PREFIXES.api,
    load: async () => (await import("./modules/webhooks/merchant")).webhooksMerchantRouter,
  },
  {
    name: "restaurantsPublic",
    module: "meals",
    prefix: PREFIXES.api,
    load: async () => (await import("./modules/meals/public")).restaurantsPublicRouter,
  },
  {
    name: "mealOrdersCustomer",
    module: "meal-orders",
    prefix: PREFIXES.api,
    load: async () => (await import("./modules/meal-orders/customer")).mealOrdersCustomerRouter,
  },
  {
    name: "mealOrdersMerchant",
    module: "meal-orders",
    prefix: PREFIXES.api,
    load: async () => (await import("./modules/meal-orders/merchant")).mealOrdersMerchantRouter,
  },
  {
    name: "salesChannelsMerchant",
    module: "sales-channels",
    prefix: PREFIXES.api,
    load: async () => (await import("./modules/sales-channels/merchant")).salesChannelsMerchantRouter,
  },
  {
    name: "plansPublic",
    module: "meals",
    prefix: PREFIXES.publicApi,
    load: async () => (await import("./modules/meals/public")).plansPublicRouter,
  },
  {
    name: "plansV3Public",
    module: "meals",
    prefix: PREFIXES.apiV3,
    load: async () => (await import("./modules/meals/plans-v3/public")).plansV3PublicRouter,
  },
  {
    name: "planPurchasesCustomer",
    module: "meal-orders",
    prefix: PREFIXES.apiV3,
    load: async () => (await import("./modules/meal-orders/purchases/customer")).planPurchasesCustomerRouter,
  },
  {
    name: "platform",
    module: "platform",
    prefix: PREFIXES.platform,
    load: async () => (await import("./modules/platform/platform")).platformRouter,
  },
] as const satisfies readonly { name: string; module: string; prefix: string; load: () => Promise<AnyRouter> }[];

export type RouterName = (typeof ROUTERS)[number]["name"];
