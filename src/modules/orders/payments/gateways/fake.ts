import { randomToken } from "../../../../core/crypto";
import {
  type CardGateway,
  type CardPaymentRequest,
  type CardPaymentStarted,
  type GatewayOutcome,
  GatewayUnavailable,
} from "../provider";
import { majorDecimal } from "./amounts";
import { PAYMENTS_PATH, signedQuery, verifiedQuery } from "./links";

/**
 * The development card gateway: a page served by this Worker with Pay and Fail buttons, so that a
 * checkout can be paid (or fail) locally and in tests without a provider. Its page carries the
 * payment in a signed query string (no amount can be changed); its buttons post to a callback whose
 * query is signed too. Refused in production: a deployed store pays through a real gateway.
 */

export const FAKE_GATEWAY_ID = "fake";
/** A reference this gateway makes: `fake_` and 16 random base64url characters. */
export const FAKE_REFERENCE = /^fake_[A-Za-z0-9_-]{16}$/;
export const FAKE_OUTCOMES = ["paid", "failed"] as const;
export type FakeOutcome = (typeof FAKE_OUTCOMES)[number];

export const FAKE_PAGE_PATH = `${PAYMENTS_PATH}/fake/`;
export const FAKE_CALLBACK_PATH = `${PAYMENTS_PATH}/fake/callback/`;

export type FakeEnv = { ENVIRONMENT: string; LINK_SIGNING_SECRET: string };

const isProduction = (env: FakeEnv) => env.ENVIRONMENT === "production";

/** What the page shows and passes on, as the checkout signed it. */
export type FakePage = {
  reference: string;
  appId: number;
  transactionId: number;
  orderId: number;
  amountMinor: number;
  currency: string;
  lang: "ar" | "en";
  successUrl: string;
  errorUrl: string;
};

// `app_id` names the store, whose shard the request is sent to (db/session.ts); signed with the rest.
const PAGE_FIELDS = [
  "app_id",
  "transaction_id",
  "order_id",
  "amount_minor",
  "currency",
  "lang",
  "success_url",
  "error_url",
] as const;
const CALLBACK_FIELDS = ["app_id", "reference", "outcome", "lang", "success_url", "error_url"] as const;

// The page's signature names its reference: a page's query cannot be moved to another payment.
const pagePurpose = (reference: string) => `fake-page:${reference}`;
const CALLBACK_PURPOSE = "fake-callback";

const INTEGER = /^[1-9]\d{0,15}$/;
const lang = (s: string): "ar" | "en" => (s === "ar" ? "ar" : "en");

/** The payment of a page URL's query, or null when its signature is not this Worker's for that reference. */
export async function readFakePage(env: FakeEnv, reference: string, query: URLSearchParams): Promise<FakePage | null> {
  if (isProduction(env) || !FAKE_REFERENCE.test(reference)) return null;
  const f = await verifiedQuery(env.LINK_SIGNING_SECRET, pagePurpose(reference), query, PAGE_FIELDS);
  const integers = [f?.app_id, f?.transaction_id, f?.order_id, f?.amount_minor];
  if (!f || !integers.every((v) => INTEGER.test(v ?? ""))) return null;
  return {
    reference,
    appId: Number(f.app_id),
    transactionId: Number(f.transaction_id),
    orderId: Number(f.order_id),
    amountMinor: Number(f.amount_minor),
    currency: f.currency,
    lang: lang(f.lang),
    successUrl: f.success_url,
    errorUrl: f.error_url,
  };
}

/** The page's amount as shown: "12.50 SAR". */
export const fakePageAmount = (p: FakePage) => `${majorDecimal(p.amountMinor)} ${p.currency}`;

/** A button's form action: the callback, with the outcome and where to go next, signed. */
export async function fakeCallbackAction(env: FakeEnv, page: FakePage, outcome: FakeOutcome): Promise<string> {
  const query = await signedQuery(env.LINK_SIGNING_SECRET, CALLBACK_PURPOSE, {
    app_id: String(page.appId),
    reference: page.reference,
    outcome,
    lang: page.lang,
    success_url: page.successUrl,
    error_url: page.errorUrl,
  });
  return `${FAKE_CALLBACK_PATH}?${query}`;
}

export type FakeCallback = {
  appId: number;
  reference: string;
  outcome: FakeOutcome;
  lang: "ar" | "en";
  successUrl: string;
  errorUrl: string;
};

/** A callback's signed query, or null when it is not this Worker's (forged, changed, or without signature). */
export async function readFakeCallback(env: FakeEnv, query: URLSearchParams): Promise<FakeCallback | null> {
  if (isProduction(env)) return null;
  const f = await verifiedQuery(env.LINK_SIGNING_SECRET, CALLBACK_PURPOSE, query, CALLBACK_FIELDS);
  if (!f || !INTEGER.test(f.app_id) || !FAKE_REFERENCE.test(f.reference)) return null;
  if (!(FAKE_OUTCOMES as readonly string[]).includes(f.outcome)) return null;
  return {
    appId: Number(f.app_id),
    reference: f.reference,
    outcome: f.outcome as FakeOutcome,
    lang: lang(f.lang),
    successUrl: f.success_url,
    errorUrl: f.error_url,
  };
}

export function fakeGateway(env: FakeEnv): CardGateway {
  return {
    id: FAKE_GATEWAY_ID,

    async createPayment(request: CardPaymentRequest): Promise<CardPaymentStarted> {
      if (isProduction(env)) {
        throw new GatewayUnavailable("CARD_GATEWAY is fake in production: set it to a real gateway");
      }
      const reference = randomToken("fake_", 12);
      const query = await signedQuery(env.LINK_SIGNING_SECRET, pagePurpose(reference), {
        app_id: String(request.appId),
        transaction_id: String(request.transactionId),
        order_id: String(request.orderId),
        amount_minor: String(request.amountMinor),
        currency: request.currency,
        lang: request.lang,
        success_url: request.successUrl,
        error_url: request.errorUrl,
      });
      return {
        reference,
        paymentUrl: `${request.origin}${FAKE_PAGE_PATH}${reference}/?${query}`,
        details: { reference },
      };
    },

    async verifyCallback(request: Request): Promise<GatewayOutcome | null> {
      const callback = await readFakeCallback(env, new URL(request.url).searchParams);
      if (!callback) return null;
      const paid = callback.outcome === "paid";
      return {
        gateway: FAKE_GATEWAY_ID,
        reference: callback.reference,
        status: paid ? "captured" : "failed",
        paymentMethod: null,
        message: paid ? null : "The test payment was failed on the development gateway's page.",
        details: { outcome: callback.outcome },
      };
    },

    // Always succeeds at once: a test that needs a refused refund uses a gateway double.
    async refund(request) {
      return {
        reference: randomToken("fake_rf_", 12),
        status: "refunded",
        details: { payment_reference: request.paymentReference, amount_minor: request.amountMinor },
      };
    },
  };
}
