import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { makeServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit } from "../../../core/events/outbox";
import { createRoute, createRouter, idParam, problemResponsesFor, z } from "../../../core/openapi";
import { appSuspended, apps } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import type { AppEnv } from "../../../env";
import { loadCustomers } from "../../customers";
import { transactionEventSql } from "../events-sql";
import { orders, transactions } from "../tables";
import { cardGateway } from "./gateways/index";
import { verifiedQuery } from "./gateways/links";
import { GatewayRefused, GatewayUnavailable } from "./provider";
import { PROVIDER_UNAVAILABLE_RESPONSE } from "./public";

const PAY_FIELDS = ["entity", "app_id", "lang", "success_url", "error_url"] as const;

export const payLinkRoute = createRoute({
  method: "get",
  path: "/checkout/{order_id}/",
  operationId: "openPayLink",
  summary: "Pay Link",
  tags: ["Payments"],
  security: [],
  "x-spec-id": "CA14",
  "x-audience": "public",
  description:
    "The pay link of a pending card order (FOUND: `/order/v1/checkout/{id}/?entity=order&lang=&success_url=" +
    "&error_url=`), as Order Details and the checkout result give it, signed (`signature`, with `app_id`). " +
    "Opening it starts a payment with the store's card gateway and redirects (303) to the gateway's page; " +
    "after paying, the gateway sends the customer to `success_url` or `error_url`. A changed or unsigned " +
    "link is a 403, and so is a link of a suspended store (`app_suspended`: no new payment starts; one " +
    "already started still completes through the gateway's callback); an order that is no longer pending is " +
    "a 409. Public: a browser follows it.",
  request: {
    params: idParam("order_id"),
    query: z.object({
      entity: z.enum(["order"]),
      app_id: z.string().openapi({ example: "1" }),
      lang: z.enum(["ar", "en"]).optional(),
      success_url: z.string().max(2000).optional(),
      error_url: z.string().max(2000).optional(),
      signature: z.string().max(200),
    }),
  },
  responses: {
    303: {
      description: "To the gateway's payment page.",
      headers: { Location: { description: "The gateway's page.", schema: { type: "string" } } },
    },
    ...problemResponsesFor({
      400: ["validation_error"],
      403: ["invalid_payment_signature", "app_suspended"],
      404: ["order_not_found"],
      409: ["invalid_state_transition", "payment_failed"],
      500: ["internal_error"],
    }),
    ...PROVIDER_UNAVAILABLE_RESPONSE,
  },
});

async function openPayLink(c: Context<AppEnv>, orderId: number) {
  const url = new URL(c.req.url);
  const signed = await verifiedQuery(c.env.LINK_SIGNING_SECRET, `pay:${orderId}`, url.searchParams, PAY_FIELDS);
  if (!signed)
    throw new ApiError(
      403,
      "invalid_payment_signature",
      "This pay link was changed or is not signed; ask for a new one.",
    );
  const appId = Number(signed.app_id);
  const ctx = makeServiceContext(c.get("db"), appId, c.env, (p) => c.executionCtx.waitUntil(p));
  // The link names its store instead of `app-id`, so knownApp() never sees it: its suspension is
  // read with the order. Payments already started still settle (the gateway's callbacks ignore it).
  const row = await ctx.db
    .select({ suspendedAt: apps.suspendedAt, order: orders })
    .from(apps)
    .leftJoin(orders, and(eq(orders.id, orderId), eq(orders.appId, apps.id)))
    .where(eq(apps.id, appId))
    .get();
  if (row?.suspendedAt) throw appSuspended(appId);
  const order = row?.order;
  if (!order) throw ApiError.notFound("order_not_found", `Order ${orderId}`);
  if (order.status !== "pending" || order.paymentProvider !== "card")
    throw ApiError.invalidTransition(`Order ${orderId}`, order.status, "paid by card", []);
  // Past its deadline the order is about to release its stock: no new payment may start.
  if (order.expiresAt && order.expiresAt <= nowIso())
    throw ApiError.invalidTransition(`Order ${orderId}`, "expired", "paid by card", []);
  const gateway = cardGateway(c.env);
  const at = nowIso();
  const owed = order.totalMinor - order.walletRedeemMinor;
  // The transaction first: its id is the reference the gateway echoes back.
  const [created] = await ctx.db
    .insert(transactions)
    .values({
      appId,
      orderId,
      // The order's one invoice of type 'invoice' (placeOrder writes it; a refund's is of type 'refund').
      invoiceId: sql`(SELECT id FROM invoices WHERE order_id = ${orderId} AND type = 'invoice' ORDER BY id LIMIT 1)`,
      type: "payment",
      status: "pending",
      amountMinor: owed,
      currency: order.currency,
      paymentProvider: "card",
      paymentMethod: order.paymentMethod,
      gateway: gateway.id,
      createdAt: at,
      modifiedAt: at,
    })
    .returning({ id: transactions.id });
  const customer = order.customerId ? (await loadCustomers(ctx, [order.customerId])).get(order.customerId) : undefined;
  try {
    const started = await gateway.createPayment({
      transactionId: created!.id,
      orderId,
      appId,
      amountMinor: owed,
      currency: order.currency,
      lang: signed.lang === "en" ? "en" : "ar",
      customer: {
        name: customer?.name ?? null,
        mobile: customer?.mobile_number ?? null,
        countryCode: customer?.country_code ?? null,
        email: customer?.email ?? null,
      },
      successUrl: signed.success_url,
      errorUrl: signed.error_url,
      origin: url.origin,
    });
    await emit(
      ctx.db,
      ctx.events,
      [
        ctx.db
          .update(transactions)
          .set({
            providerReference: started.reference,
            paymentUrl: started.paymentUrl,
            providerDetails: started.details,
          })
          .where(eq(transactions.id, created!.id)),
      ],
      transactionEventSql("transaction.created", sql`id = ${created!.id}`),
    );
    return c.redirect(started.paymentUrl, 303);
  } catch (error) {
    await ctx.db
      .update(transactions)
      .set({ status: "failed", declineReason: (error as Error).message.slice(0, 500) })
      .where(eq(transactions.id, created!.id));
    if (error instanceof GatewayUnavailable)
      throw new ApiError(503, "provider_unavailable", "The payment provider did not answer; retry in a minute.", {
        headers: { "Retry-After": "30" },
      });
    if (error instanceof GatewayRefused)
      throw ApiError.conflict("payment_failed", "The payment provider refused to start this payment.", {
        provider_message: error.message,
      });
    throw error;
  }
}

export const payLinkRouter = createRouter();
payLinkRouter.openapi(payLinkRoute, (c) => openPayLink(c, c.req.valid("param").order_id) as never);
