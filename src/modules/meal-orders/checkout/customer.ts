import { z } from "@hono/zod-openapi";
import { serviceContext } from "../../../core/context";
import { ApiError, type ErrorCode } from "../../../core/errors";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { CheckoutResultSchema, linksOf } from "../../orders";
import { admitChannelCustomer, buyerOf } from "../channel-orders/admission";
import { addOnCartPrice, placeAddOnOrder } from "./add-on";
import { AddOnCartSchema, AddOnOrderSchema, MealCartSchema, MealPriceSchema, PlaceMealOrderSchema } from "./schemas";
import { type Discounts, mealCartPrice, placeMealOrder } from "./service";

const tags = ["Meals: checkout"];

/** The `city-id` header the public system sends with a channel's order (the city it listed providers in). */
const cityHeader = {
  "city-id": z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "Must be a positive integer.")
    .optional()
    .openapi({ description: "The city the app listed the provider in: only its delivery zones serve the order." }),
};

/** What pricing a meal cart can refuse (every calculator and Place Order). */
const CART_RULES: ErrorCode[] = [
  "plan_version_closed",
  "start_date_too_early",
  "start_date_too_late",
  "start_date_closed",
  "date_not_in_schedule",
  "delivery_not_supported",
  "pickup_not_supported",
  "location_not_served",
];

const CART_DOC =
  "The body is Place Order's: a plan version, its start date (on or after the first the version and the " +
  "restaurant's notice allow, not after `max_start_date`, on a delivery day), the meals of each delivery date " +
  "(checked against the plan day the menu cycle serves on it, its categories and `max_selected_options`), and a " +
  "subscription window of the restaurant with the customer's location inside one of its delivery zones, or a " +
  "pickup branch. Delivery dates are `num_of_days` open dates from the start (the version's and the " +
  "restaurant's off days and closed dates skipped, in the restaurant's time zone). The price is the version's " +
  "`original_price` less its `discount_percentage` (never on the delivery fee, the version's `delivery_price` " +
  "unless picked up), VAT included and split per line. A broken rule is a 409 naming it (dates: with " +
  "`first_valid_date`). A sales channel sends it with this provider's `app-id`, its own customer's token and " +
  "`channel_app_id` (403 `channel_connection_inactive` unless the stores are actively connected).";

const calculator = (specId: string, path: string, operationId: string, summary: string, what: string) =>
  customerRoute({
    tags,
    specId,
    method: "post",
    path,
    operationId,
    summary,
    channel: admitChannelCustomer,
    headers: cityHeader,
    description: `${what} Writes nothing. ${CART_DOC}`,
    request: { body: jsonBody(MealCartSchema) },
    errors: { 403: ["channel_connection_inactive"], 409: CART_RULES },
    responses: { 200: jsonContent(MealPriceSchema, "The price breakdown.") },
  });

export const voucheredCartRoute = calculator(
  "CA16",
  "/orders/vouchered-cart/",
  "getMealVoucheredCart",
  "Apply Voucher",
  "The meal order's price with the `voucher` (required) applied: its result says whether it applies and why not; the wallet is not used.",
);
export const redeemedCartRoute = calculator(
  "CA17",
  "/orders/redeemed-cart/",
  "getMealRedeemedCart",
  "Redeem",
  "The meal order's price with the customer's cashback redeemed (`wallet_discounts`, at most the balance and the total), without a voucher.",
);
export const discountedCartRoute = calculator(
  "CA18",
  "/orders/discounted-cart/",
  "getMealDiscountedCart",
  "Get Discount",
  "The meal order's price with the `voucher` and, with `is_redeeming`, the cashback: what Place Order charges.",
);

export const placeMealOrderRoute = customerRoute({
  tags,
  specId: "CA19",
  method: "post",
  path: "/orders/",
  operationId: "placeMealOrder",
  summary: "Place Order",
  // Nothing leaves the Worker before the order's batch: the key's claim goes with the cart's reads.
  idempotent: "with-first-read",
  channel: admitChannelCustomer,
  headers: cityHeader,
  description:
    "Places the meal order as an order of the store (kind `meal`), priced as Get Discount prices it, in one " +
    "guarded batch: the pending order, its invoice, the voucher use and the cashback redeemed. Answers the " +
    "checkout result (totals, vouchers, payment methods, the order with its `payment_url` for `card`). A zero " +
    "total or `wallet` is paid at once. When the order is paid (here, by the card callback or a captured " +
    "transfer) the meal subscription starts, active, with one suborder per delivery date, in the paying batch " +
    "(`meal_subscription.created`, `meal_subscription.activated`); an order that expires or is cancelled unpaid " +
    `leaves none. Emits \`order.created\`, \`invoice.created\`. ${CART_DOC}`,
  request: { body: jsonBody(PlaceMealOrderSchema) },
  errors: {
    403: ["channel_connection_inactive"],
    409: [
      ...CART_RULES,
      "insufficient_balance",
      "below_minimum_order",
      "payment_provider_disabled",
      "voucher_usage_limit_reached",
      "concurrent_update",
    ],
  },
  responses: { 201: jsonContent(CheckoutResultSchema, "The checkout result with the pending (or paid) order.") },
});

const ADD_ON_DOC =
  "Add-ons are menu products of the subscription's restaurant (at their price after their own discount) added " +
  "to suborders of an active subscription of the customer's, each still before the provider's cutoff (409 " +
  "`suborder_past_cutoff` with `first_valid_date`).";
const ADD_ON_RULES: ErrorCode[] = ["meal_subscription_not_active", "suborder_past_cutoff"];

export const addOnCartRoute = customerRoute({
  tags,
  specId: "MM5",
  method: "post",
  path: "/orders/add-on/redeemed-cart/",
  operationId: "getMealAddOnRedeemedCart",
  summary: "Redeemed Add-Ons Cart",
  description: `The add-on order's price with the \`voucher\` and, with \`is_redeeming\`, the cashback. Writes nothing. ${ADD_ON_DOC}`,
  request: { body: jsonBody(AddOnCartSchema) },
  errors: { 404: ["meal_subscription_not_found"], 409: ADD_ON_RULES },
  responses: { 200: jsonContent(MealPriceSchema, "The price breakdown.") },
});

export const addOnOrderRoute = customerRoute({
  tags,
  specId: "MM5",
  method: "post",
  path: "/orders/add-on/",
  operationId: "placeMealAddOnOrder",
  summary: "Add-On Order",
  idempotent: true,
  description:
    "Places an order (type `add_on`) of menu products for suborders of the customer's subscription, priced as its " +
    "cart. When it is paid, the products join the suborders' `add_ons` in the paying batch (`suborder.updated`). " +
    `Answers the checkout result. ${ADD_ON_DOC}`,
  request: { body: jsonBody(AddOnOrderSchema) },
  errors: {
    404: ["meal_subscription_not_found"],
    409: [
      ...ADD_ON_RULES,
      "insufficient_balance",
      "below_minimum_order",
      "payment_provider_disabled",
      "voucher_usage_limit_reached",
      "concurrent_update",
    ],
  },
  responses: { 201: jsonContent(CheckoutResultSchema, "The checkout result with the pending (or paid) order.") },
});

export const checkoutCustomerRouter = createRouter();

const calculate = (route: typeof voucheredCartRoute, d: Discounts | "voucher_required") =>
  checkoutCustomerRouter.openapi(route, async (c) => {
    const body = c.req.valid("json");
    if (d === "voucher_required" && !body.voucher) throw ApiError.validation({ voucher: ["Required."] });
    const discounts: Discounts = d === "voucher_required" ? { voucher: true, wallet: "never" } : d;
    return c.json(await mealCartPrice(serviceContext(c), await buyerOf(c), body, discounts), 200);
  });
calculate(voucheredCartRoute, "voucher_required");
calculate(redeemedCartRoute, { voucher: false, wallet: "always" });
calculate(discountedCartRoute, { voucher: true, wallet: "asked" });

checkoutCustomerRouter.openapi(placeMealOrderRoute, async (c) =>
  c.json(await placeMealOrder(serviceContext(c), await buyerOf(c), c.req.valid("json"), linksOf(c)), 201),
);
checkoutCustomerRouter.openapi(addOnCartRoute, async (c) =>
  c.json(await addOnCartPrice(serviceContext(c), (await buyerOf(c)).customerId, c.req.valid("json")), 200),
);
checkoutCustomerRouter.openapi(addOnOrderRoute, async (c) =>
  c.json(await placeAddOnOrder(serviceContext(c), await buyerOf(c), c.req.valid("json"), linksOf(c)), 201),
);
