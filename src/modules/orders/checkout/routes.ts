import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute, merchantRoute } from "../../../core/routes";
import {
  CheckoutConfigSchema,
  checkoutConfigView,
  readCheckoutConfig,
  UpdateCheckoutConfigSchema,
  updateCheckoutConfig,
} from "./config";

const PATH = "/merchant/checkout/config/";
const WHAT =
  "The payment providers customers may choose, delivery and pickup, wallet redemption, the minimum order, and " +
  "how long unpaid orders hold their stock (card: `payment_ttl_minutes`; bank transfer: `bank_transfer_ttl_hours`).";

export const getCheckoutConfigRoute = merchantRoute({
  method: "get",
  path: PATH,
  operationId: "getCheckoutConfig",
  summary: "Checkout Config",
  tags: ["Checkout"],
  specId: "MO3",
  permission: "can_read_order",
  description: `How the store takes orders. ${WHAT} The defaults until the store changes them.`,
  responses: { 200: jsonContent(CheckoutConfigSchema, "The checkout configuration.") },
});

export const updateCheckoutConfigRoute = merchantRoute({
  method: "post",
  path: PATH,
  operationId: "updateCheckoutConfig",
  summary: "Update Checkout Config",
  tags: ["Checkout"],
  specId: "MO3",
  permission: "can_update_app_config",
  description: `Changes the fields given (as Update Item Config does). ${WHAT} Emits \`merchant.settings.updated\`.`,
  request: { body: jsonBody(UpdateCheckoutConfigSchema) },
  responses: { 200: jsonContent(CheckoutConfigSchema, "The configuration after the change.") },
});

export const myCheckoutConfigRoute = customerRoute({
  method: "get",
  path: "/checkout/config/",
  operationId: "getMyCheckoutConfig",
  summary: "Checkout Config (customer app)",
  tags: ["Customer app: checkout"],
  specId: "CA14",
  description: `What the customer app needs to build a checkout. ${WHAT}`,
  responses: { 200: jsonContent(CheckoutConfigSchema, "The store's checkout configuration.") },
});

export const checkoutMerchantRouter = createRouter();
checkoutMerchantRouter.openapi(getCheckoutConfigRoute, async (c) =>
  c.json(checkoutConfigView(await readCheckoutConfig(c.get("db"), c.get("appId"))), 200),
);
checkoutMerchantRouter.openapi(updateCheckoutConfigRoute, async (c) =>
  c.json(await updateCheckoutConfig(serviceContext(c), c.req.valid("json")), 200),
);

export const checkoutCustomerRouter = createRouter();
checkoutCustomerRouter.openapi(myCheckoutConfigRoute, async (c) =>
  c.json(checkoutConfigView(await readCheckoutConfig(c.get("db"), c.get("appId"))), 200),
);
