/**
 * The prose of the OpenAPI document: its introduction and the description of every tag the
 * operations use. The document's lint test fails on a tag used without a description here.
 */

export const API_TITLE = "Commerce and Meals API";

export const API_INTRODUCTION = `Multi-tenant commerce and meal-subscription API.

Every request to a store names it with the \`app-id\` header (an integer). Errors are RFC 9457 problem details
(\`application/problem+json\`) with a stable snake_case \`code\`; each operation lists, per status, the codes
it can answer, and a problem's \`type\` is the address of its code's page on this service: every code is
listed at [/problems/](/problems/).

## Authentication

In the reference at [/docs](/docs), **Authorize** takes the store's \`app-id\` and a token once, and keeps
them across reloads. There are three kinds of token:

- **Merchant API key** (\`merchantToken\`): \`Authorization: Bearer cmk_…\`, carrying the permissions each
  operation names. The platform operator issues a store's first key (\`POST /platform/v1/stores/{store_id}/api-keys/\`);
  a key with \`can_manage_api_keys\` issues more (\`POST /api/v1/dashboard/admin/api-keys/\`). Locally: \`npm run
  token -- --app-id 1 --permissions can_read_order\` (comma-separate several permissions).
- **Customer access token** (\`customerToken\`): a JWT of 15 minutes from the OTP login. Send a code with
  \`POST /api/v1/customer/auth/otp/\` (a new customer registers with \`POST /api/v1/customer/register/\` and its
  \`confirm/\`), then exchange it with \`POST /api/v1/customer/auth/token/\` for \`access_token\` and \`refresh_token\`;
  renew with \`POST /api/v1/customer/auth/token/refresh/\`. Locally the code is printed by \`npm start\`.
- **Platform key** (\`platformKey\`): the operator's \`PLATFORM_API_KEY\` secret, for \`/platform/v1/...\` only
  (no \`app-id\`).

Public reads need no token, only \`app-id\`.

## Rate limits

Limited operations answer with \`RateLimit-Policy\` and \`RateLimit\` headers (IETF httpapi draft) saying the
quota, what is left and when it resets; over the limit, a 429 with \`Retry-After\` (seconds). Each limited
operation declares its 429. Every merchant and customer token has a ceiling of 600 requests a minute.

## Lists

Lists answer \`count\`, \`next\`, \`previous\` and \`results\`. They take \`page\` and \`page_size\` (default
20, at most 100), \`order_by\` (comma-separated fields, \`-field\` for descending), \`search\` (may repeat;
every term must match) and filters named after the fields, with the suffixes \`__in\` (comma-separated
values), \`__gte\`, \`__lte\`, \`__gt\`, \`__lt\` and \`__isnull\`. An unknown parameter is a 400 that names
the allowed ones.`;

/** Every tag with its description; TAG_GROUPS orders them. */
const TAG_DESCRIPTIONS = [
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
    name: "Meals admin: restaurants",
    description: "Merchant writes of restaurants, their branches, categories and variants.",
  },
  {
    name: "Meals admin: menus",
    description: "Merchant writes of menus, menu categories, meal products, combos, allergens and dislikes.",
  },
  {
    name: "Meals admin: plans",
    description: "Merchant writes of meal plans, their versions, days, categories, options and tags.",
  },
  {
    name: "Meals catalogue: restaurants",
    description: "Public reads of restaurants, their branches, menus, products and combos; cached with an `ETag`.",
  },
  { name: "Meals catalogue: plans", description: "Public reads of meal plans, their tags and menus." },
  { name: "Sales channel providers", description: "Providers that serve a customer's location." },
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
    name: "E-invoicing",
    description:
      "The store's ZATCA e-invoicing units: registered with an OTP from the Fatoora portal, onboarded and renewed; " +
      "an active unit signs every invoice and credit note.",
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
    name: "Meals admin: logistics",
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
    description:
      "The events a webhook receives, each a POST to the subscribed URL signed per Standard Webhooks: headers " +
      "`webhook-id` (stable across retries), `webhook-timestamp`, `webhook-signature`.",
  },
  { name: "Meta", description: "The service's own health." },
] as const;

type TagName = (typeof TAG_DESCRIPTIONS)[number]["name"];

/**
 * The tags by audience, in the order the reference shows them (`x-tagGroups`, which Redoc and
 * other readers show as sections; Swagger UI shows the tags in this order). Each tag is in one group.
 */
export const TAG_GROUPS: { name: string; tags: TagName[] }[] = [
  {
    name: "Merchant",
    tags: [
      "Items",
      "Item categories",
      "Item tags",
      "Modifier categories",
      "Bundle categories",
      "Tickets",
      "Customers",
      "Customer wallets",
      "Vouchers",
      "Carts",
      "Checkout",
      "Orders",
      "Subscriptions",
      "Recurring purchases",
      "Invoices",
      "E-invoicing",
      "Transactions",
      "Fulfillments",
      "Store wallet",
      "Couriers",
      "Shipping",
      "Pickup locations",
      "Shipments",
      "Notifications",
      "Geography",
      "Webhooks",
      "Merchant account",
      "Merchant API keys",
      "Meals admin: restaurants",
      "Meals admin: menus",
      "Meals admin: plans",
      "Meals admin: logistics",
      "Sales channel connections",
      "Sales channel plans",
      "Sales channel orders",
    ],
  },
  {
    name: "Customer app",
    tags: [
      "Customer app: login",
      "Customer app: profile",
      "Customer app: locations",
      "Customer app: notifications",
      "Customer app: catalogue",
      "Customer app: checkout",
      "Customer app: orders",
      "Customer app: subscriptions",
      "Customer app: payment methods",
      "Customer app: sales channels",
      "Meals: checkout",
      "Meals: subscriptions",
      "Meals: suborders",
      "Meals: complaints",
      "Meals: app",
    ],
  },
  {
    name: "Public and meals",
    tags: ["Meals catalogue: restaurants", "Meals catalogue: plans", "Sales channel providers", "Payments"],
  },
  { name: "Platform", tags: ["Platform"] },
  { name: "Events and meta", tags: ["Events", "Meta"] },
];

/** Every tag with its description, in the groups' order. */
export const API_TAGS = TAG_GROUPS.flatMap((g) => g.tags).map((name) => {
  const tag = TAG_DESCRIPTIONS.find((t) => t.name === name)!;
  return { name: tag.name, description: tag.description };
});

/** Tags described but in no group, or in more than one: empty (test/node/openapi-document.test.ts). */
export function ungroupedTags(): string[] {
  const grouped = TAG_GROUPS.flatMap((g) => g.tags);
  return TAG_DESCRIPTIONS.map((t) => t.name).filter((n) => grouped.filter((g) => g === n).length !== 1);
}
