import type { CardPaymentRequest } from "../../src/modules/orders/payments/provider";

/** The Worker's origin in tests (test/helpers/request.ts BASE). */
export const ORIGIN = "https://api.test";

/** A card payment request as checkout makes one. */
export const paymentRequest = (over: Partial<CardPaymentRequest> = {}): CardPaymentRequest => ({
  transactionId: 41,
  orderId: 7,
  appId: 1,
  amountMinor: 12_550,
  currency: "SAR",
  lang: "en",
  customer: { name: "Sara", mobile: "966534501056", countryCode: "966", email: "sara@example.com" },
  successUrl: "https://shop.example.com/paid?order=7",
  errorUrl: "https://shop.example.com/failed?order=7",
  origin: ORIGIN,
  ...over,
});
