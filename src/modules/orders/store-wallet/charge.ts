import { z } from "@hono/zod-openapi";
import type { ServiceContext } from "../../../core/context";
import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { placeOrderShown, readOrderInputs } from "../checkout/place";
import { CheckoutResultSchema } from "../checkout/schemas";
import { checkoutResult } from "../checkout/service";
import { linksOf } from "../http";
import type { LinkContext } from "../orders/views";
import type { Quote } from "../pricing/quote";
import { amountMinor } from "../shared";

export const ChargeWalletSchema = z
  .object({
    amount: amountMinor(1_000_000, 1).openapi({ example: 500 }),
    payment_provider: z.enum(["card", "bank_transfer"]).default("card"),
    success_url: z.string().url().max(2000).optional(),
    error_url: z.string().url().max(2000).optional(),
    lang: z.enum(["ar", "en"]).optional(),
  })
  .strict()
  .openapi("ChargeWallet");

type ChargeWallet = z.infer<typeof ChargeWalletSchema>;

/**
 * MA2 Charge Wallet (FOUND: charging the store wallet is a checkout): a pending order of kind
 * `wallet_topup` with one line, paid like any order; the wallet is credited when it is paid (once:
 * a unique ledger entry per order). A balance bought in advance is not a taxable supply: no VAT.
 */
export async function chargeWallet(ctx: ServiceContext, input: ChargeWallet, links: LinkContext) {
  // One round of reads (the store's rules and settings), then the order's batch, which reads it back.
  const inputs = await readOrderInputs(ctx, null);
  const { settings } = inputs;
  const amount = input.amount;
  const q: Quote = {
    currency: settings.currency,
    vatBp: 0,
    lines: [],
    subTotalMinor: amount,
    shippingMinor: 0,
    setupMinor: 0,
    subTotalDiscountsMinor: 0,
    shippingDiscountsMinor: 0,
    totalMinor: amount,
    walletRedeemMinor: 0,
    totalWithRedeemMinor: amount,
    taxMinor: 0,
    totalExcludingTaxMinor: amount,
    voucher: null,
  };
  const order = await placeOrderShown(
    ctx,
    q,
    {
      kind: "wallet_topup",
      customerId: null,
      cartId: null,
      provider: input.payment_provider,
      paymentMethod: null,
      cartProvider: "other",
    },
    [],
    inputs,
    links,
  );
  return checkoutResult(ctx, q, order, { priceUpdated: false, links, input, config: inputs.config });
}

export const chargeWalletRoute = merchantRoute({
  method: "post",
  path: "/merchant/wallet/charge/",
  operationId: "chargeWallet",
  summary: "Charge Wallet",
  tags: ["Store wallet"],
  specId: "MA2",
  permission: "can_update_app_config",
  idempotent: true,
  description:
    "Tops up the store wallet. As the reference found, charging is a checkout: it answers the checkout result " +
    "with a pending order (`kind: wallet_topup`) and, for `card`, the `payment_url` to pay it; the wallet is " +
    "credited once that order is paid (`merchant.wallet.charged`). No VAT: a balance bought in advance.",
  request: { body: jsonBody(ChargeWalletSchema) },
  responses: { 201: jsonContent(CheckoutResultSchema, "The checkout result with the pending top-up order.") },
});

export const chargeWalletRouter = createRouter();
chargeWalletRouter.openapi(chargeWalletRoute, async (c) =>
  c.json(await chargeWallet(serviceContext(c), c.req.valid("json"), linksOf(c)), 201),
);
