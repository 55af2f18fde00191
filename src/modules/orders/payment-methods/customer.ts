import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { PaymentProviderListSchema, SavedPaymentMethodListSchema } from "./schemas";
import { deleteSavedMethod, enabledProviderGroups, listSavedMethods, SAVED_METHOD_LIST } from "./service";

const tags = ["Customer app: payment methods"];
const METHODS = "/payment-methods/";
const common = { tags, specId: "CA13" } as const;

export const listPaymentProvidersRoute = customerRoute({
  ...common,
  method: "get",
  path: `${METHODS}providers/`,
  operationId: "listPaymentProviders",
  summary: "List Enabled Payment Providers",
  description:
    "The payment providers the store offers at checkout (its Checkout Config's `enabled_providers`), each " +
    "with its methods: what checkout takes as `payment_provider` and, for a card, `payment_method`. The " +
    "checkout result's `payment_methods` is this list. All of them on one page.",
  responses: { 200: jsonContent(PaymentProviderListSchema, "The store's payment providers.") },
});

export const listPaymentMethodsRoute = customerRoute({
  ...common,
  method: "get",
  path: METHODS,
  operationId: "listPaymentMethods",
  summary: "List Payment Methods",
  description: "The cards the customer saved with the store's card gateway, the default first. Never a card's token.",
  request: { query: listQuerySchema(SAVED_METHOD_LIST) },
  responses: { 200: jsonContent(SavedPaymentMethodListSchema, "A page of the customer's saved cards.") },
});

export const deletePaymentMethodRoute = customerRoute({
  ...common,
  method: "delete",
  path: `${METHODS}{payment_method_id}/`,
  operationId: "deletePaymentMethod",
  summary: "Delete Payment Method",
  description:
    "Removes one of the customer's saved cards; another customer's card is a 404. Emits `payment_method.deleted`.",
  request: { params: idParam("payment_method_id") },
  errors: { 404: ["payment_method_not_found"] },
  responses: { 204: { description: "Removed." } },
});

export const paymentMethodsCustomerRouter = createRouter()
  .openapi(listPaymentProvidersRoute, async (c) => {
    const results = await enabledProviderGroups(c.get("db"), c.get("appId"));
    return c.json({ count: results.length, next: null, previous: null, results }, 200);
  })
  .openapi(listPaymentMethodsRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listSavedMethods(serviceContext(c), customerOf(c).customerId, listQueryOf(c, SAVED_METHOD_LIST)),
      ),
      200,
    ),
  )
  .openapi(deletePaymentMethodRoute, async (c) => {
    await deleteSavedMethod(serviceContext(c), customerOf(c).customerId, c.req.valid("param").payment_method_id);
    return c.body(null, 204);
  });
