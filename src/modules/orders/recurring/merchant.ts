import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { RecurringPurchaseDetailsSchema, RecurringPurchaseListSchema, UpdateRecurringPurchaseSchema } from "./schemas";
import {
  deactivateRecurringPurchase,
  listRecurringPurchases,
  RECURRING_LIST,
  recurringPurchaseDetails,
} from "./service";

const tags = ["Recurring purchases"];
const common = { tags, specId: "MO5" } as const;
const param = idParam("recurring_purchase_id");

export const listRecurringPurchasesRoute = merchantRoute({
  ...common,
  method: "get",
  path: "/merchant/recurring-purchases/",
  operationId: "listRecurringPurchases",
  summary: "List Recurring Purchases",
  permission: "can_read_order",
  description:
    "The store's recurring purchases, newest first: saved carts that customers order again every `duration` " +
    "`duration_unit`s. Filters on status, customer, provider and the order and charge dates " +
    "(`next_order_date__lte=2026-03-01` for what is due by then). `total_cart_price` is the cart as last priced.",
  request: { query: listQuerySchema(RECURRING_LIST) },
  responses: { 200: jsonContent(RecurringPurchaseListSchema, "A page of recurring purchases.") },
});

export const getRecurringPurchaseRoute = merchantRoute({
  ...common,
  method: "get",
  path: "/merchant/recurring-purchases/{recurring_purchase_id}/",
  operationId: "getRecurringPurchase",
  summary: "Recurring Purchase Details",
  permission: "can_read_order",
  description:
    "One recurring purchase with its saved cart's lines priced now (`cart_items`), its charges per cycle " +
    "(`charge_history`: paid, or failed with `error_message`) and its orders.",
  request: { params: param },
  errors: { 404: ["recurring_purchase_not_found"] },
  responses: { 200: jsonContent(RecurringPurchaseDetailsSchema, "The recurring purchase.") },
});

export const updateRecurringPurchaseRoute = merchantRoute({
  ...common,
  method: "patch",
  path: "/merchant/recurring-purchases/{recurring_purchase_id}/",
  operationId: "updateRecurringPurchase",
  summary: "Update Recurring Purchase",
  permission: "can_write_order",
  description:
    'Stops a recurring purchase (FOUND body `{"status": "inactive"}`, the only change): no further cycle is ' +
    "ordered; its past orders stay as they are. Emits `recurring_purchase.updated`. An inactive purchase is " +
    "final: stopping it again is a 409 `invalid_state_transition` naming its status and `allowed_actions`.",
  request: { params: param, body: jsonBody(UpdateRecurringPurchaseSchema) },
  errors: { 404: ["recurring_purchase_not_found"], 409: ["invalid_state_transition", "concurrent_update"] },
  responses: { 200: jsonContent(RecurringPurchaseDetailsSchema, "The recurring purchase after the change.") },
});

/** MO5: the merchant's recurring purchases. */
export const recurringMerchantRouter = createRouter();
recurringMerchantRouter.openapi(listRecurringPurchasesRoute, async (c) =>
  c.json(envelopeOf(c, await listRecurringPurchases(serviceContext(c), listQueryOf(c, RECURRING_LIST))), 200),
);
recurringMerchantRouter.openapi(getRecurringPurchaseRoute, async (c) =>
  c.json(await recurringPurchaseDetails(serviceContext(c), c.req.valid("param").recurring_purchase_id), 200),
);
recurringMerchantRouter.openapi(updateRecurringPurchaseRoute, async (c) =>
  c.json(
    await deactivateRecurringPurchase(serviceContext(c), c.req.valid("param").recurring_purchase_id, {
      by: "merchant",
      alreadyDone: "conflict",
    }),
    200,
  ),
);
