/**
 * The payment provider interface (DESIGN.md "Money"). An order is paid through one provider:
 *
 * - `wallet`: the customer's cashback, taken in the checkout's own guarded batch;
 * - `cash_on_delivery`: nothing is taken now; the merchant captures it when delivered;
 * - `bank_transfer`: the customer transfers, the merchant captures or declines (MO10, MO11);
 * - `card`: a hosted card checkout through a `CardGateway` (redirect, then a signed callback);
 * - `free`: nothing is owed (a 100% voucher, or the wallet covered it all).
 *
 * Card gateways are adapters of one shape: the development fake (a page served by this Worker
 * with Pay and Fail buttons) and MyFatoorah (its documented HTTP API).
 */

export type CardPaymentRequest = {
  /** Our transaction id: the gateway echoes it back (`CustomerReference`, a hidden field). */
  transactionId: number;
  orderId: number;
  /** The store: every URL the gateway is given carries it, signed, or the gateway echoes it (`UserDefinedField`). */
  appId: number;
  amountMinor: number;
  currency: string;
  lang: "ar" | "en";
  /** `mobile` in E.164 digits without "+", `countryCode` its calling code ("966"), as customers store them. */
  customer: { name: string | null; mobile: string | null; countryCode: string | null; email: string | null };
  /** Where the gateway sends the customer after paying, and after failing. */
  successUrl: string;
  errorUrl: string;
  /**
   * The base URL of this Worker (`https://api.example.com`, no trailing slash): the fake serves its
   * page there, and MyFatoorah returns the customer to this Worker's return route under it.
   */
  origin: string;
};

export type CardPaymentStarted = {
  /** The gateway's id of the payment: unique per gateway, so a callback applies to one transaction. */
  reference: string;
  /** Where to redirect the customer. */
  paymentUrl: string;
  details: Record<string, unknown>;
};

/** What a gateway says happened to a payment, once its callback is verified. */
export type GatewayOutcome = {
  gateway: string;
  reference: string;
  status: "captured" | "failed";
  /** mada, visa_master, apple_pay … as the gateway names the method used. */
  paymentMethod: string | null;
  /** The gateway's own message when it failed. */
  message: string | null;
  details: Record<string, unknown>;
};

export type CardRefundRequest = {
  /** The reference of the captured payment being refunded. */
  paymentReference: string;
  amountMinor: number;
  currency: string;
  reason: string;
};

export type CardRefundResult = {
  reference: string;
  status: "refunded" | "pending" | "failed";
  details: Record<string, unknown>;
};

export interface CardGateway {
  readonly id: string;
  createPayment(request: CardPaymentRequest): Promise<CardPaymentStarted>;
  /**
   * Reads a callback: null when it is not correctly signed (nothing may change then). Where the
   * gateway has a status API, the outcome is what that API says, not what the callback claims.
   */
  verifyCallback(request: Request): Promise<GatewayOutcome | null>;
  refund(request: CardRefundRequest): Promise<CardRefundResult>;
}

/** A gateway that did not answer, or answered with an error we cannot act on: retry later. */
export class GatewayUnavailable extends Error {
  override name = "GatewayUnavailable";
}

/** The gateway refused (a declined card, a refund over what it holds): `message` is its words. */
export class GatewayRefused extends Error {
  override name = "GatewayRefused";
}
