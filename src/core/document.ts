/**
 * The prose of the OpenAPI document: its introduction and the description of every tag the
 * operations use. The document's lint test fails on a tag used without a description here.
 */

export const API_TITLE = "Commerce and Meals API";

export const API_INTRODUCTION = `Multi-tenant commerce and meal-subscription API.

Every request names its store with the \`app-id\` header (an integer). Errors are RFC 9457 problem details
(\`application/problem+json\`) with a stable snake_case \`code\`; each operation lists, per status, the codes
it can answer.

## Authentication

- **Merchant operations** take a merchant API token, \`Authorization: Bearer cmk_…\`, that carries the
  permission each operation names. Locally, mint one with \`npm run token -- --app-id 1 --permissions
  can_read_order\` (comma-separate several permissions). In production, merchant API tokens are issued per
  store.
- **Customer operations** will take a customer's access token: the customer OTP login (\`POST
  /api/v1/customer/...\`) yields it as \`access_token\`, once the customers module ships.
- **Public reads** need no token, only \`app-id\`.

## Lists

Lists answer \`count\`, \`next\`, \`previous\` and \`results\`. They take \`page\` and \`page_size\` (default
20, at most 100), \`order_by\` (comma-separated fields, \`-field\` for descending), \`search\` (may repeat;
every term must match) and filters named after the fields, with the suffixes \`__in\` (comma-separated
values), \`__gte\`, \`__lte\`, \`__gt\`, \`__lt\` and \`__isnull\`. An unknown parameter is a 400 that names
the allowed ones.`;

/** The introduction, then every problem `code` with its meaning. */
export function apiDescription(errorCodes: Record<string, string>): string {
  const codes = Object.entries(errorCodes).map(([code, meaning]) => `- \`${code}\`: ${meaning}`);
  return `${API_INTRODUCTION}

## Error codes

Every \`code\` a problem can carry (each operation lists, per status, the ones it can answer; the document's
\`x-error-codes\` has the same list for tools):

${codes.join("\n")}`;
}

/** Every tag, in the order the reference shows them. */
export const API_TAGS = [
  {
    name: "Items",
    description: "The store's catalogue items, their variants, discounts, images and stock reservations.",
  },
  { name: "Item categories", description: "Categories that group the catalogue's items." },
  { name: "Item tags", description: "Labels on catalogue items." },
  {
    name: "Modifier categories",
    description: "Modifier categories and their values, chosen with an item (sizes, extras).",
  },
  {
    name: "Bundle categories",
    description: "Groups of a bundle item's choices, each with how many of them a customer selects.",
  },
  {
    name: "Tickets",
    description:
      "Tickets, each the fulfillment of one invoice line: list them, update them in bulk, check " +
      "them in by their token.",
  },
  {
    name: "Webhooks",
    description: "Subscriptions of URLs to the store's events, and the log of their deliveries.",
  },
  {
    name: "Meals: restaurants",
    description: "Merchant writes of restaurants, their branches, categories and variants.",
  },
  {
    name: "Meals: menus",
    description: "Merchant writes of menus, menu categories, meal products, combos, allergens and dislikes.",
  },
  {
    name: "Meals: plans",
    description: "Merchant writes of meal plans, their versions, days, categories, options and tags.",
  },
  {
    name: "Restaurants",
    description: "Public reads of restaurants, their branches, menus, products and combos; cached with an `ETag`.",
  },
  { name: "Meal plans", description: "Public reads of meal plans, their tags and menus." },
  { name: "Sales channels", description: "Providers that serve a customer's location." },
  {
    name: "Customers",
    description: "The store's customers, their saved locations and their memberships.",
  },
  {
    name: "Customer wallets",
    description: "A customer's points and cashback: balances from an append-only ledger, deposits and redemptions.",
  },
  {
    name: "Geography",
    description: "Countries, regions, cities and districts (shared reference data), and the cities a store serves.",
  },
  {
    name: "Notifications",
    description: "Notifications the store sends to its customers: in the app and as pushes (FCM).",
  },
  {
    name: "Customer app: login",
    description:
      "Register and log in with a code sent by SMS; access tokens of 15 minutes, refresh tokens rotated on every use.",
  },
  {
    name: "Customer app: profile",
    description: "The customer's own account: profile, language, avatar, devices for pushes, account deletion.",
  },
  { name: "Customer app: locations", description: "The customer's own saved locations." },
  { name: "Customer app: notifications", description: "The notifications the customer received." },
  {
    name: "Merchant account",
    description: "The store's settings (currency, VAT, the seller on tax invoices), bank accounts, organization.",
  },
  {
    name: "Merchant API keys",
    description:
      "The store's merchant API keys: issue one with some of the caller's permissions (its secret shown once), list, " +
      "revoke, rotate with a grace period.",
  },
  {
    name: "Platform",
    description:
      "The platform operator's operations (the `PLATFORM_API_KEY` secret, no `app-id`): organizations, stores, their " +
      "suspension and first merchant key. Never reachable with a merchant or customer token.",
  },
  {
    name: "Store wallet",
    description: "The store's own balance, from an append-only ledger; topped up through a checkout.",
  },
  { name: "Vouchers", description: "Discount codes: their rules, what they take off a cart, and their uses." },
  { name: "Carts", description: "The customers' carts, as the merchant sees them." },
  { name: "Checkout", description: "How the store takes orders: payment providers, minimum order, payment deadlines." },
  {
    name: "Orders",
    description: "Orders with their lines, totals and VAT split; phone orders with a pay link; the status machine.",
  },
  {
    name: "Subscriptions",
    description:
      "Plans customers subscribe to at checkout: renewal each period, pause and resume, usage, changes, cancellation.",
  },
  {
    name: "Recurring purchases",
    description: "Carts a customer orders again every period, charged automatically.",
  },
  {
    name: "Invoices",
    description: "Tax invoices (VAT-inclusive, with the ZATCA QR and PDFs in Arabic and English) and refunds.",
  },
  {
    name: "Transactions",
    description: "Every payment, capture, decline and refund with its provider reference; bank transfer review.",
  },
  {
    name: "Fulfillments",
    description: "What paid order lines still have to get to the customer (tickets are one kind), and their status.",
  },
  {
    name: "Couriers",
    description:
      "Custom couriers (the merchant's own delivery) and integrated carriers; who serves a destination, at what price.",
  },
  { name: "Shipping", description: "The store's shipping config: default origin, package defaults, enabled couriers." },
  { name: "Pickup locations", description: "Where shipments leave from and customers collect orders." },
  {
    name: "Shipments",
    description:
      "Shipments of fulfillments with a courier, their carrier-normalised statuses, cancellations and returns.",
  },
  { name: "Customer app: catalogue", description: "The store's items and categories as the customer app shows them." },
  {
    name: "Customer app: checkout",
    description: "Carts, their totals, vouchers and checkout: the order and how to pay it.",
  },
  { name: "Customer app: orders", description: "The customer's own orders and recurring purchases." },
  { name: "Customer app: subscriptions", description: "The customer's own subscriptions." },
  { name: "Customer app: payment methods", description: "The payment providers the store offers, and saved cards." },
  { name: "Meals: checkout", description: "Meal plan carts and orders: vouchers, wallet, place order, add-ons." },
  {
    name: "Meals: subscriptions",
    description: "The customer's meal subscriptions: pause, resume, postpone, location, renewal, invoices.",
  },
  { name: "Meals: suborders", description: "The customer's daily deliveries: meals, location, window, pickup branch." },
  { name: "Meals: complaints", description: "Complaints about a suborder, their reasons and resolution." },
  { name: "Meals: app", description: "The meals app's configs, featured vouchers and corporate locations." },
  {
    name: "Meals logistics",
    description: "Cities and zones, captains, branches, delivery windows, and the suborders of a day.",
  },
  {
    name: "Sales channel connections",
    description: "Connections between a marketplace store and provider stores, and the channel's profile.",
  },
  { name: "Sales channel plans", description: "The provider plans a connected channel may list, and its listings." },
  { name: "Sales channel orders", description: "Meal orders and subscriptions placed through a sales channel." },
  {
    name: "Customer app: sales channels",
    description: "The customer's subscriptions and orders placed through a channel.",
  },
  {
    name: "Payments",
    description: "Pay links and the payment gateways' callbacks; none takes a token (a callback is signed).",
  },
  {
    name: "Events",
    description: "The events a webhook receives, each a signed POST to the subscribed URL (Standard Webhooks).",
  },
  { name: "Meta", description: "The service's own health." },
];
