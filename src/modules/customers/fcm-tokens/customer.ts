import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { FcmTokenParam, FcmTokenSchema, RegisterFcmTokenSchema } from "./schemas";
import { registerFcmToken, removeFcmToken } from "./service";

const tags = ["Customer app: profile"];

export const registerFcmTokenRoute = customerRoute({
  method: "post",
  path: "/fcm-tokens/",
  operationId: "registerFcmToken",
  summary: "Activate/Create FCM Token",
  tags,
  specId: "CA7",
  description:
    "Registers the device's FCM token for pushes (201), or re-activates a known one (200), giving it to " +
    "this customer if another had it: a device changes hands. A customer keeps their 10 most recently " +
    "registered devices active.",
  request: { body: jsonBody(RegisterFcmTokenSchema) },
  errors: { 404: ["customer_not_found"] },
  responses: {
    200: jsonContent(FcmTokenSchema, "The token was known: active again, for this customer."),
    201: jsonContent(FcmTokenSchema, "The token is registered."),
  },
});

export const removeFcmTokenRoute = customerRoute({
  method: "delete",
  path: "/fcm-tokens/{token}/",
  operationId: "removeFcmToken",
  summary: "FCM Token",
  tags,
  specId: "CA7",
  description:
    "Stops pushes to the device (at logout): deactivates the customer's token. Removing it again is a " +
    "204 too; a token that is not the customer's is a 404.",
  request: { params: FcmTokenParam },
  errors: { 404: ["customer_not_found", "fcm_token_not_found"] },
  responses: { 204: { description: "The device gets no more pushes." } },
});

export const fcmTokensCustomerRouter = createRouter()
  .openapi(registerFcmTokenRoute, async (c) => {
    const { token, created } = await registerFcmToken(serviceContext(c), customerOf(c).customerId, c.req.valid("json"));
    return created ? c.json(token, 201) : c.json(token, 200);
  })
  .openapi(removeFcmTokenRoute, async (c) => {
    await removeFcmToken(serviceContext(c), customerOf(c).customerId, c.req.valid("param").token);
    return c.body(null, 204);
  });
