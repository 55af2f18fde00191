import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { nowIso } from "../../../core/time";
import {
  type CheckoutProvider,
  type CheckoutResult,
  checkoutResult,
  type LinkContext,
  type OrderInputs,
  type OrderStep,
  placeOrderShown,
  type Quote,
} from "../../orders";
import { mealOrders } from "../tables";
import type { Buyer } from "./cart";

/**
 * A meal order is an order of the orders module (kind `meal`): its money, invoice, voucher use,
 * wallet redemption, payment and `order.*` events are the orders module's, placed by its one
 * guarded batch; the `meal_orders` row that says what it buys is inserted in that same batch.
 */

export type MealOrderValues = Omit<
  typeof mealOrders.$inferInsert,
  "id" | "appId" | "orderId" | "customerId" | "channelAppId" | "channelCustomerId" | "createdAt" | "modifiedAt"
>;

export type Payment = {
  payment_provider: CheckoutProvider;
  payment_method?: "mada" | "visa_master" | "apple_pay";
  success_url?: string;
  error_url?: string;
  lang?: "ar" | "en";
  reference?: string;
};

/** A channel order is sent with the channel customer's token, and only that: `channel_app_id` must name its store. */
export function checkChannel(buyer: Buyer, channelAppId: number | undefined): void {
  const mine = buyer.channel?.appId;
  if (channelAppId === mine) return;
  throw ApiError.validation({
    channel_app_id: [
      mine === undefined
        ? "Send the access token of a customer of that channel store with it."
        : `Must be ${mine}: the store of the customer's access token.`,
    ],
  });
}

/** A voucher sent to an order must apply (the calculators show why it does not). */
export function requireVoucher(q: Quote, code: string | undefined): void {
  if (code && !q.voucher?.isSuccess)
    throw ApiError.validation({ voucher: [q.voucher?.errorReason ?? "The voucher does not apply."] });
}

/**
 * Places the meal order (pending, or paid at once when free or paid by the wallet) and answers the
 * checkout result, read back by the order's own batch; `inputs` were read with the price (`readMealPricing`).
 */
export async function placeMeal(
  ctx: ServiceContext,
  buyer: Buyer,
  q: Quote,
  values: MealOrderValues,
  payment: Payment,
  links: LinkContext,
  inputs: OrderInputs,
): Promise<CheckoutResult> {
  const at = nowIso();
  const mealOrderRow: OrderStep = (plan, { order }) =>
    plan.add(
      ctx.db.insert(mealOrders).values({
        ...values,
        appId: ctx.appId,
        orderId: order.id,
        customerId: buyer.customerId,
        channelAppId: buyer.channel?.appId ?? null,
        channelCustomerId: buyer.channel?.customerId ?? null,
        createdAt: at,
        modifiedAt: at,
      }),
    );
  const order = await placeOrderShown(
    ctx,
    q,
    {
      kind: "meal",
      customerId: buyer.customerId,
      cartId: null,
      provider: payment.payment_provider,
      paymentMethod: payment.payment_method ?? null,
      cartProvider: buyer.channel ? "other" : "app",
      reference: payment.reference ?? null,
      notes: values.notes ?? null,
      location: values.location ?? null,
    },
    [mealOrderRow],
    inputs,
    links,
  ).catch((error: unknown) => {
    if (
      error instanceof Error &&
      /orders_app_reference_idx|UNIQUE.*orders\.reference/.test(String(error.cause ?? error.message))
    )
      throw ApiError.conflict("conflict", `Another order of the store has the reference ${payment.reference}.`);
    throw error;
  });
  return checkoutResult(ctx, q, order, { priceUpdated: false, links, input: payment, config: inputs.config });
}
