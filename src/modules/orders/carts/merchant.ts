import { z } from "@hono/zod-openapi";
import { serviceContext } from "../../../core/context";
import { envelopeOf, envelopeSchema, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { CART_PROVIDERS, CART_STATUSES } from "../tables";
import { cartDetails } from "./details";
import { CartSchema } from "./schemas";
import { CART_LIST, listCarts } from "./service";

const tags = ["Carts"];

export const CartSummarySchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    customer_id: z.number().int(),
    status: z.enum(CART_STATUSES),
    cart_provider: z.enum(CART_PROVIDERS),
    items_count: z.number().int(),
    total_cart_price: z.number().openapi({ description: "The total as the customer last saw it." }),
    voucher_code: z.string().nullable(),
    is_recurring: z.boolean(),
    order_id: z.number().int().nullable(),
    checked_out_at: z.string().nullable(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("CartSummary");

export const listCartsRoute = merchantRoute({
  method: "get",
  path: "/merchant/carts/",
  operationId: "listCarts",
  summary: "List Carts",
  tags,
  specId: "MO1",
  permission: "can_read_order",
  description:
    "The store's carts (open, checked out, abandoned), each as last priced; Cart Details prices one now. " +
    "Filters on status, customer, recurrence, dates.",
  request: { query: listQuerySchema(CART_LIST) },
  responses: { 200: jsonContent(envelopeSchema(CartSummarySchema, "CartList"), "A page of carts.") },
});

export const getCartRoute = merchantRoute({
  method: "get",
  path: "/merchant/carts/{cart_id}/",
  operationId: "getCart",
  summary: "Cart Details",
  tags,
  specId: "MO2",
  permission: "can_read_order",
  description: "One cart with its lines, the customer, and its totals priced now.",
  request: { params: idParam("cart_id") },
  errors: { 404: ["cart_not_found"] },
  responses: { 200: jsonContent(CartSchema, "The cart.") },
});

export const cartsMerchantRouter = createRouter();
cartsMerchantRouter.openapi(listCartsRoute, async (c) =>
  c.json(envelopeOf(c, await listCarts(serviceContext(c), listQueryOf(c, CART_LIST))), 200),
);
cartsMerchantRouter.openapi(getCartRoute, async (c) =>
  c.json(await cartDetails(serviceContext(c), c.req.valid("param").cart_id), 200),
);
