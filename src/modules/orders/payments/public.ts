import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { ApiError } from "../../../core/errors";
import { requireJsonBody } from "../../../core/middleware";
import {
  createRoute,
  createRouter,
  type ErrorsByStatus,
  jsonContent,
  mergeErrors,
  ProblemSchema,
  problemResponsesFor,
  type RouteConfig,
  z,
} from "../../../core/openapi";
import type { Db } from "../../../db/client";
import { storeShard } from "../../../db/shards";
import type { AppEnv } from "../../../env";
import { transactions } from "../tables";
import {
  FAKE_REFERENCE,
  fakeCallbackAction,
  fakeGateway,
  fakePageAmount,
  readFakeCallback,
  readFakePage,
} from "./gateways/fake";
import type { GatewayEnv } from "./gateways/index";
import { myFatoorahGateway, readMyFatoorahReturn } from "./gateways/myfatoorah";
import { fakePaymentPage, pageCsp, paymentResultPage } from "./gateways/pages";
import { type GatewayOutcome, GatewayUnavailable } from "./provider";
import { applyGatewayOutcome, type SettleDeps, type SettleResult } from "./settle";

/**
 * The card gateways' public routes: the development gateway's page and its callback, and
 * MyFatoorah's webhook and return. A browser or the provider calls them, so they take no token and
 * no `app-id`: what they act on is signed (by this Worker, or by MyFatoorah). Each names its store,
 * whose shard holds the transaction (docs/shards.md): the URLs this Worker makes carry a signed
 * `app_id` (db/session.ts sends the request to its shard); MyFatoorah's webhook, which carries no
 * query of ours, has it from the invoice's `UserDefinedField`. Every lookup is the store's.
 */

const tags = ["Payments"];
const PUBLIC_NOTE =
  "Public: no token and no `app-id` (a browser or the provider calls it); what it acts on is signed, " +
  "and an unsigned or changed request changes nothing.";

const html = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });
const redirect = (description: string) => ({
  description,
  headers: { Location: { description: "The checkout's success or error URL.", schema: { type: "string" as const } } },
});

/**
 * 503 with `Retry-After` (the core factories document statuses up to 500): the provider did not
 * answer. `code` narrowed like every problem response's, for any route that calls a gateway.
 */
export const PROVIDER_UNAVAILABLE_RESPONSE = {
  503: {
    description: "The payment provider did not answer; retry later. Nothing was changed.",
    headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" as const, minimum: 1 } } },
    content: {
      "application/problem+json": {
        schema: z.intersection(
          ProblemSchema,
          z.object({ status: z.literal(503), code: z.enum(["provider_unavailable"]) }),
        ),
      },
    },
  },
};

type GatewayRouteInput = Omit<RouteConfig, "security" | "tags"> & {
  beyondSpec: string;
  errors: ErrorsByStatus;
  unavailable?: boolean;
};

/** A tokenless gateway operation: documented like the others, with its problems per status. */
function gatewayRoute<const R extends GatewayRouteInput>(route: R) {
  const { beyondSpec, errors, unavailable, ...rest } = route;
  const problems = mergeErrors({ 400: ["validation_error"], 500: ["internal_error"] }, errors);
  return createRoute({
    ...rest,
    tags,
    security: [],
    middleware: [requireJsonBody()] as const,
    "x-beyond-spec": beyondSpec,
    "x-audience": "public",
    description: `${rest.description ?? ""}\n\n${PUBLIC_NOTE}`.trim(),
    responses: {
      ...rest.responses,
      ...problemResponsesFor(problems),
      ...(unavailable ? PROVIDER_UNAVAILABLE_RESPONSE : {}),
    },
  });
}

const invalidSignature = () =>
  new ApiError(
    400,
    "invalid_payment_signature",
    "The payment callback is not signed, or not as it was sent: nothing was changed.",
  );

/** The 503; what went wrong (a missing secret, say) is logged, never told to a public caller. */
function unavailable(error: GatewayUnavailable) {
  console.error(JSON.stringify({ msg: "payment provider unavailable", level: "error", error: error.message }));
  return new ApiError(503, "provider_unavailable", "The payment provider did not answer; retry later.", {
    headers: { "Retry-After": "30" },
  });
}

/** Runs a provider call, its silence as the 503. */
async function orUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GatewayUnavailable) throw unavailable(error);
    throw error;
  }
}

/** Settling for store `appId`, on `db` (its shard's: the request's, chosen from its signed `app_id`). */
const settleDeps = (c: Context<AppEnv>, appId: number, db: Db = c.get("db")): SettleDeps => ({
  db,
  appId,
  env: c.env,
  waitUntil: (p) => c.executionCtx.waitUntil(p),
});

/** Applies a verified outcome; a reference no transaction of the store has is a 404 (nothing changed). */
async function settle(c: Context<AppEnv>, appId: number, outcome: GatewayOutcome) {
  const result = await applyGatewayOutcome(settleDeps(c, appId), outcome);
  if (!result) throw ApiError.notFound("transaction_not_found", `The transaction of payment ${outcome.reference}`);
  return result;
}

/** Whether the transaction is paid now: a repeated callback ("unchanged") is told by the row itself. */
async function isPaid(c: Context<AppEnv>, result: SettleResult) {
  if (result.status !== "unchanged") return result.status === "captured";
  const [row] = await c
    .get("db")
    .select({ status: transactions.status })
    .from(transactions)
    .where(and(eq(transactions.appId, result.appId), eq(transactions.id, result.transactionId)))
    .limit(1);
  return row?.status === "captured";
}

type Return = { lang: "ar" | "en"; successUrl: string; errorUrl: string };

/** Sends the customer on: 303 to the checkout's URL for the outcome, or a small result page when it gave none. */
function finish(c: Context<AppEnv>, paid: boolean, to: Return) {
  const url = paid ? to.successUrl : to.errorUrl;
  if (url) return c.redirect(url, 303);
  c.header("Content-Security-Policy", pageCsp());
  c.header("Cache-Control", "no-store");
  return c.html(paymentResultPage(to.lang, paid), 200);
}

const notInProduction = (c: Context<AppEnv>) => {
  if (c.env.ENVIRONMENT === "production") {
    throw new ApiError(404, "route_not_found", "The development card gateway is not served in production.");
  }
};

const bounded = (max: number, description: string) => z.string().max(max).optional().openapi({ description });

export const fakePaymentPageRoute = gatewayRoute({
  method: "get",
  path: "/payments/fake/{reference}/",
  operationId: "fakePaymentPage",
  summary: "Development Payment Page",
  beyondSpec: "The development card gateway's page: checkout redirects here when CARD_GATEWAY is fake.",
  description:
    "An HTML page with the payment's order and amount, and two buttons: **Pay** captures the payment, " +
    "**Fail** fails it (each posts to the development callback). The query is the one checkout put in " +
    "`payment_url`, signed: a changed amount or URL is a 400. Not served in production.",
  request: {
    params: z.object({ reference: z.string().regex(FAKE_REFERENCE).openapi({ example: "fake_3Jc0aZQ9mWl1x8Rt" }) }),
    query: z.object({
      app_id: bounded(16, "The store (its database is chosen from it)."),
      transaction_id: bounded(16, "The transaction being paid."),
      order_id: bounded(16, "Its order."),
      amount_minor: bounded(16, "The amount in minor units."),
      currency: bounded(3, "ISO 4217."),
      lang: bounded(2, "ar or en."),
      success_url: bounded(2048, "Where to send the customer when paid."),
      error_url: bounded(2048, "Where to send the customer when it failed."),
      signature: bounded(128, "This Worker's signature of the above."),
    }),
  },
  errors: { 400: ["invalid_payment_signature"], 404: ["route_not_found"] },
  responses: { 200: html("The payment page.") },
});

export const fakePaymentCallbackRoute = gatewayRoute({
  method: "post",
  path: "/payments/fake/callback/",
  operationId: "fakePaymentCallback",
  summary: "Development Payment Callback",
  beyondSpec: "The development card gateway's callback: its page's Pay and Fail buttons post here.",
  description:
    "Applies the outcome the page's button carries (signed; no body) to the payment's transaction: " +
    "`paid` captures it (the order is paid), `failed` fails it. A second callback for the same payment " +
    "changes nothing. Then 303 to the checkout's success or error URL, or a small result page.",
  request: {
    query: z.object({
      app_id: bounded(16, "The store (its database is chosen from it)."),
      reference: bounded(64, "The payment's reference."),
      outcome: z.enum(["paid", "failed"]).optional(),
      lang: bounded(2, "ar or en."),
      success_url: bounded(2048, "Where to send the customer when paid."),
      error_url: bounded(2048, "Where to send the customer when it failed."),
      signature: bounded(128, "This Worker's signature of the above."),
    }),
  },
  errors: { 400: ["invalid_payment_signature"], 404: ["route_not_found", "transaction_not_found"] },
  responses: {
    200: html("The result page (the checkout gave no URL for this outcome)."),
    303: redirect("To the checkout's success or error URL."),
  },
});

const WebhookAnswerSchema = z
  .object({
    received: z.literal(true),
    result: z.enum(["captured", "failed", "unchanged", "unknown_payment", "ignored"]).openapi({
      description: "What the event did: a payment captured or failed, nothing (a repeat), or nothing of ours.",
    }),
  })
  .openapi("GatewayWebhookAnswer");

export const myFatoorahWebhookRoute = gatewayRoute({
  method: "post",
  path: "/payments/myfatoorah/webhook/",
  operationId: "myFatoorahWebhook",
  summary: "MyFatoorah Webhook",
  beyondSpec: "MyFatoorah's Webhook V2 endpoint: set it as the endpoint URL in the MyFatoorah portal.",
  description:
    "Receives MyFatoorah's Webhook V2 events, signed with `MyFatoorah-Signature` (HMAC-SHA256 of the " +
    "event's documented fields under the portal's webhook secret). `PAYMENT_STATUS_CHANGED` is confirmed " +
    "with MyFatoorah's GetPaymentStatus and applied to the payment's transaction in the store the " +
    "invoice's `UserDefinedField` names (paid → captured, otherwise failed); other events, and invoices " +
    "of no store of ours, are acknowledged. Unsigned or wrongly signed: 400, nothing changes. " +
    "MyFatoorah unreachable: 503, and MyFatoorah retries.",
  errors: {
    400: ["invalid_payment_signature", "malformed_request"],
    415: ["unsupported_media_type"],
    413: ["payload_too_large"],
  },
  unavailable: true,
  responses: { 200: jsonContent(WebhookAnswerSchema, "The event was received.") },
});

export const myFatoorahReturnRoute = gatewayRoute({
  method: "get",
  path: "/payments/myfatoorah/return/",
  operationId: "myFatoorahReturn",
  summary: "MyFatoorah Return",
  beyondSpec: "Where MyFatoorah sends the customer back (its CallBackUrl and ErrorUrl), with `paymentId`.",
  description:
    "Confirms the payment MyFatoorah names by `paymentId` with its GetPaymentStatus, applies it to the " +
    "transaction the signed query names (they must agree), then 303 to the checkout's success or error URL " +
    "(or a small result page when it gave none).",
  request: {
    query: z.object({
      paymentId: bounded(64, "Added by MyFatoorah."),
      Id: bounded(64, "Added by MyFatoorah (the same payment id)."),
      app_id: bounded(16, "The store (its database is chosen from it)."),
      transaction_id: bounded(16, "The transaction being paid."),
      lang: bounded(2, "ar or en."),
      success_url: bounded(2048, "Where to send the customer when paid."),
      error_url: bounded(2048, "Where to send the customer when it failed."),
      signature: bounded(128, "This Worker's signature of the above."),
    }),
  },
  errors: { 400: ["invalid_payment_signature"], 404: ["transaction_not_found"] },
  unavailable: true,
  responses: {
    200: html("The result page (the checkout gave no URL for this outcome)."),
    303: redirect("To the checkout's success or error URL."),
  },
});

export const paymentsPublicRouter = createRouter()
  .openapi(fakePaymentCallbackRoute, async (c) => {
    notInProduction(c);
    const callback = await readFakeCallback(c.env, new URL(c.req.url).searchParams);
    const outcome = callback && (await fakeGateway(c.env).verifyCallback(c.req.raw));
    if (!callback || !outcome) throw invalidSignature();
    const result = await settle(c, callback.appId, outcome);
    return finish(c, await isPaid(c, result), callback);
  })
  .openapi(fakePaymentPageRoute, async (c) => {
    notInProduction(c);
    const page = await readFakePage(c.env, c.req.valid("param").reference, new URL(c.req.url).searchParams);
    if (!page) throw invalidSignature();
    const [payAction, failAction] = await Promise.all([
      fakeCallbackAction(c.env, page, "paid"),
      fakeCallbackAction(c.env, page, "failed"),
    ]);
    c.header("Content-Security-Policy", pageCsp([page.successUrl, page.errorUrl]));
    c.header("Cache-Control", "no-store");
    return c.html(
      fakePaymentPage({ lang: page.lang, orderId: page.orderId, amount: fakePageAmount(page), payAction, failAction }),
      200,
    );
  })
  .openapi(myFatoorahWebhookRoute, async (c) => {
    const event = await orUnavailable(() => myFatoorahGateway(c.env as GatewayEnv).readWebhook(c.req.raw));
    if (!event) throw invalidSignature();
    if (event.kind !== "payment") {
      console.log(JSON.stringify({ msg: "myfatoorah webhook acknowledged", event }));
      return c.json({ received: true as const, result: "ignored" as const }, 200);
    }
    // The request names no store (it ran on the first shard); the invoice does, and its shard holds the transaction.
    const appId = event.appId;
    const store = appId === null ? null : await storeShard(c.env, appId);
    const result =
      appId === null || !store ? null : await applyGatewayOutcome(settleDeps(c, appId, store.db), event.outcome);
    // An invoice no transaction of ours has (made in the portal, say): acknowledged, so it is not retried.
    return c.json({ received: true as const, result: result?.status ?? ("unknown_payment" as const) }, 200);
  })
  .openapi(myFatoorahReturnRoute, async (c) => {
    const back = await readMyFatoorahReturn(c.env, new URL(c.req.url).searchParams);
    if (!back) throw invalidSignature();
    const outcome = await orUnavailable(() => myFatoorahGateway(c.env as GatewayEnv).verifyCallback(c.req.raw));
    // The payment must be the one of the signed transaction (MyFatoorah echoes it as CustomerReference).
    if (!outcome || outcome.details.customer_reference !== String(back.transactionId)) throw invalidSignature();
    const result = await settle(c, back.appId, outcome);
    return finish(c, await isPaid(c, result), back);
  });
