import {
  type CardGateway,
  type CardPaymentRequest,
  type CardPaymentStarted,
  type CardRefundRequest,
  type CardRefundResult,
  type GatewayOutcome,
  GatewayRefused,
  GatewayUnavailable,
} from "../provider";
import { majorDecimal } from "./amounts";
import { PAYMENTS_PATH, signedQuery, verifiedQuery } from "./links";
import { type MyFatoorahWebhook, readWebhookEvent } from "./myfatoorah-webhook";

/**
 * MyFatoorah's API v2 (docs.myfatoorah.com), as a hosted card gateway:
 *
 * - create: POST `/v2/SendPayment` with `NotificationOption: "LNK"` → `Data.InvoiceURL` (where the
 *   customer pays) and `Data.InvoiceId` (our reference). `CustomerReference` is our transaction id,
 *   `UserDefinedField` our store's id. `CallBackUrl` and `ErrorUrl` are this Worker's return route,
 *   which MyFatoorah calls with `paymentId` added; it carries the store and the checkout's own URLs
 *   in a signed query.
 * - verify: the Webhook V2 event (signed with `MyFatoorah-Signature`) or the return route's
 *   `paymentId`; in both cases the outcome is what POST `/v2/GetPaymentStatus` says, never what the
 *   callback claims: InvoiceStatus `Paid` → captured, anything else → failed.
 * - refund: POST `/v2/MakeRefund` by InvoiceId → a refund request MyFatoorah executes later, so
 *   `pending` with its `RefundId`.
 *
 * Every call has the API key as a bearer token and a 10 s timeout; no answer, a 5xx, a refused key
 * or a body that is not JSON is `GatewayUnavailable`; `IsSuccess: false` is `GatewayRefused` with
 * MyFatoorah's words.
 */

export const MYFATOORAH_GATEWAY_ID = "myfatoorah";
export const MYFATOORAH_RETURN_PATH = `${PAYMENTS_PATH}/myfatoorah/return/`;
export const MYFATOORAH_WEBHOOK_PATH = `${PAYMENTS_PATH}/myfatoorah/webhook/`;
const DEFAULT_BASE_URL = "https://apitest.myfatoorah.com";
export const MYFATOORAH_TIMEOUT_MS = 10_000;

/** The settings the adapter reads: vars, and its two optional secrets (a missing one fails at request time). */
export type MyFatoorahEnv = {
  LINK_SIGNING_SECRET: string;
  MYFATOORAH_BASE_URL?: string;
  /** The portal's API token (a secret: `wrangler secret put MYFATOORAH_API_KEY`). */
  MYFATOORAH_API_KEY?: string;
  /** The portal's Webhook V2 secret key (a secret: `wrangler secret put MYFATOORAH_WEBHOOK_SECRET`). */
  MYFATOORAH_WEBHOOK_SECRET?: string;
};

type Answer<T> = {
  IsSuccess?: boolean;
  Message?: string | null;
  ValidationErrors?: { Name?: string | null; Error?: string | null }[] | null;
  Data?: T | null;
};

type SendPaymentData = { InvoiceId: number | string; InvoiceURL: string; CustomerReference?: string | null };

type InvoiceTransaction = {
  PaymentGateway?: string | null;
  PaymentId?: string | null;
  TransactionStatus?: string | null;
  TransactionId?: string | null;
  ReferenceId?: string | null;
  TrackId?: string | null;
  AuthorizationId?: string | null;
  PaidCurrency?: string | null;
  PaidCurrencyValue?: string | number | null;
  Error?: string | null;
  ErrorCode?: string | null;
};

export type PaymentStatusData = {
  InvoiceId: number | string;
  InvoiceStatus: string;
  InvoiceReference?: string | null;
  CustomerReference?: string | null;
  UserDefinedField?: string | null;
  InvoiceValue?: number | null;
  InvoiceTransactions?: InvoiceTransaction[] | null;
};

type RefundData = { RefundId: number | string; RefundReference?: string | null; Amount?: number | null };

/** MyFatoorah's words for a refusal: its message and each validation error. */
function refusalOf(answer: Answer<unknown>): string {
  const errors = (answer.ValidationErrors ?? []).map((e) => `${e.Name ?? "?"}: ${e.Error ?? ""}`.trim());
  return [answer.Message || "MyFatoorah refused the request", ...errors].join("; ");
}

/** Our name of the method MyFatoorah says was used ("VISA/MASTER" → visa_master, "Apple Pay" → apple_pay). */
export function paymentMethodOf(gateway: string | null | undefined): string | null {
  if (!gateway) return null;
  const g = gateway.toLowerCase();
  if (g.includes("apple")) return "apple_pay";
  if (g.includes("mada")) return "mada";
  if (g.includes("visa") || g.includes("master")) return "visa_master";
  return g.replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "") || null;
}

/**
 * A mobile number as MyFatoorah takes it: `+966` and at most 11 national digits; null when unusable.
 * The customer's record keeps the calling code beside the E.164 number, so no numbering plan is needed.
 */
function mobileOf(
  mobile: string | null,
  countryCode: string | null,
): { MobileCountryCode: string; CustomerMobile: string } | null {
  const digits = mobile?.replace(/\D/g, "") ?? "";
  const cc = countryCode?.replace(/\D/g, "") ?? "";
  if (!cc || !digits.startsWith(cc)) return null;
  const national = digits.slice(cc.length);
  if (!national || national.length > 11) return null;
  return { MobileCountryCode: `+${cc}`, CustomerMobile: national };
}

/** The invoice's transaction the outcome is about: the one of `paymentId`, else a successful one, else the last. */
function transactionOf(data: PaymentStatusData, paymentId: string | null): InvoiceTransaction | undefined {
  const all = data.InvoiceTransactions ?? [];
  if (paymentId) {
    const exact = all.find((t) => t.PaymentId === paymentId);
    if (exact) return exact;
  }
  // MyFatoorah spells a successful transaction "Succss".
  return all.find((t) => /^succ?ess$|^succss$/i.test(t.TransactionStatus ?? "")) ?? all[all.length - 1];
}

/** A GetPaymentStatus answer as an outcome: the invoice's status decides, the transaction names the method. */
export function outcomeOfStatus(data: PaymentStatusData, paymentId: string | null = null): GatewayOutcome {
  const paid = data.InvoiceStatus === "Paid";
  const tx = transactionOf(data, paymentId);
  return {
    gateway: MYFATOORAH_GATEWAY_ID,
    reference: String(data.InvoiceId),
    status: paid ? "captured" : "failed",
    paymentMethod: paymentMethodOf(tx?.PaymentGateway),
    message: paid ? null : tx?.Error || `The MyFatoorah invoice is ${data.InvoiceStatus}.`,
    // What a merchant reconciles with; never the masked card number.
    details: {
      invoice_id: String(data.InvoiceId),
      invoice_status: data.InvoiceStatus,
      invoice_reference: data.InvoiceReference ?? null,
      customer_reference: data.CustomerReference ?? null,
      invoice_value: data.InvoiceValue ?? null,
      payment_id: tx?.PaymentId ?? null,
      transaction_status: tx?.TransactionStatus ?? null,
      payment_gateway: tx?.PaymentGateway ?? null,
      transaction_id: tx?.TransactionId ?? null,
      reference_id: tx?.ReferenceId ?? null,
      track_id: tx?.TrackId ?? null,
      authorization_id: tx?.AuthorizationId ?? null,
      paid_currency: tx?.PaidCurrency ?? null,
      paid_currency_value: tx?.PaidCurrencyValue ?? null,
      error_code: paid ? null : (tx?.ErrorCode ?? null),
    },
  };
}

/**
 * The store of an invoice, from the `UserDefinedField` SendPayment gave it. MyFatoorah echoes that
 * field in GetPaymentStatus and in Webhook V2's `Data.Invoice.UserDefinedField` (docs.myfatoorah.com
 * "Payment Status Data Model"); Webhook V2 is configured once per portal account, so it cannot carry
 * a query of ours. Read from GetPaymentStatus's answer: the webhook's signature does not cover it.
 */
export function storeOfStatus(data: Pick<PaymentStatusData, "UserDefinedField">): number | null {
  const field = data.UserDefinedField?.trim() ?? "";
  return /^[1-9]\d{0,15}$/.test(field) ? Number(field) : null;
}

/** The return route's signed query: which store and transaction, and the checkout's own URLs. */
export type MyFatoorahReturn = {
  appId: number;
  transactionId: number;
  lang: "ar" | "en";
  successUrl: string;
  errorUrl: string;
};

const RETURN_PURPOSE = "myfatoorah-return";
// `app_id` names the store, whose shard the request is sent to (db/session.ts); signed with the rest.
const RETURN_FIELDS = ["app_id", "transaction_id", "lang", "success_url", "error_url"] as const;

/** The return route's signed data (MyFatoorah adds `paymentId` beside it), or null when not this Worker's. */
export async function readMyFatoorahReturn(
  env: Pick<MyFatoorahEnv, "LINK_SIGNING_SECRET">,
  query: URLSearchParams,
): Promise<MyFatoorahReturn | null> {
  const f = await verifiedQuery(env.LINK_SIGNING_SECRET, RETURN_PURPOSE, query, RETURN_FIELDS);
  const id = /^[1-9]\d{0,15}$/;
  if (!f || !id.test(f.app_id) || !id.test(f.transaction_id)) return null;
  return {
    appId: Number(f.app_id),
    transactionId: Number(f.transaction_id),
    lang: f.lang === "ar" ? "ar" : "en",
    successUrl: f.success_url,
    errorUrl: f.error_url,
  };
}

/** What MyFatoorah puts in the return URL: its payment id. */
const PAYMENT_ID = /^[A-Za-z0-9-]{1,64}$/;

export type MyFatoorahGateway = CardGateway & {
  /** GetPaymentStatus by invoice or payment id, as an outcome. */
  paymentStatus(key: string, keyType: "InvoiceId" | "PaymentId"): Promise<GatewayOutcome>;
  /** A webhook request read and verified: a payment outcome, a refund event, an event we ignore, or null when unsigned. */
  readWebhook(request: Request): Promise<MyFatoorahWebhook | null>;
};

export function myFatoorahGateway(
  env: MyFatoorahEnv,
  fetcher: typeof fetch = fetch,
  opts: { timeoutMs?: number } = {},
): MyFatoorahGateway {
  const base = (env.MYFATOORAH_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = opts.timeoutMs ?? MYFATOORAH_TIMEOUT_MS;

  async function post<T>(path: string, body: Record<string, unknown>): Promise<T> {
    const key = env.MYFATOORAH_API_KEY;
    if (!key) throw new GatewayUnavailable("CARD_GATEWAY is myfatoorah but the MYFATOORAH_API_KEY secret is not set");
    let res: Response;
    try {
      res = await fetcher(`${base}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const what = (error as Error)?.name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : String(error);
      throw new GatewayUnavailable(`MyFatoorah ${path}: ${what}`);
    }
    // A refused key or a server error is not the payment's fault: nothing to tell the customer but "later".
    if (res.status >= 500 || res.status === 401 || res.status === 403 || res.status === 429) {
      throw new GatewayUnavailable(`MyFatoorah ${path} answered ${res.status}`);
    }
    let answer: Answer<T>;
    try {
      answer = (await res.json()) as Answer<T>;
    } catch {
      throw new GatewayUnavailable(`MyFatoorah ${path} answered ${res.status} without JSON`);
    }
    if (answer?.IsSuccess !== true || !answer.Data) throw new GatewayRefused(refusalOf(answer ?? {}));
    return answer.Data;
  }

  const statusData = (key: string, keyType: "InvoiceId" | "PaymentId") =>
    post<PaymentStatusData>("/v2/GetPaymentStatus", { Key: key, KeyType: keyType });

  async function paymentStatus(key: string, keyType: "InvoiceId" | "PaymentId"): Promise<GatewayOutcome> {
    return outcomeOfStatus(await statusData(key, keyType), keyType === "PaymentId" ? key : null);
  }

  async function readWebhook(request: Request): Promise<MyFatoorahWebhook | null> {
    const event = await readWebhookEvent(request, env.MYFATOORAH_WEBHOOK_SECRET);
    if (event?.kind !== "payment") return event;
    try {
      const data = await statusData(event.invoiceId, "InvoiceId");
      return { kind: "payment", outcome: outcomeOfStatus(data), appId: storeOfStatus(data) };
    } catch (error) {
      // A signed event for an invoice the API does not know: nothing of ours to change.
      if (error instanceof GatewayRefused)
        return { kind: "ignored", event: "PAYMENT_STATUS_CHANGED (unknown invoice)" };
      throw error;
    }
  }

  return {
    id: MYFATOORAH_GATEWAY_ID,
    paymentStatus,
    readWebhook,

    async createPayment(request: CardPaymentRequest): Promise<CardPaymentStarted> {
      const returnQuery = await signedQuery(env.LINK_SIGNING_SECRET, RETURN_PURPOSE, {
        app_id: String(request.appId),
        transaction_id: String(request.transactionId),
        lang: request.lang,
        success_url: request.successUrl,
        error_url: request.errorUrl,
      });
      const returnUrl = `${request.origin}${MYFATOORAH_RETURN_PATH}?${returnQuery}`;
      const { name, email, mobile, countryCode } = request.customer;
      const data = await post<SendPaymentData>("/v2/SendPayment", {
        NotificationOption: "LNK",
        // A JSON number of major units; from the exact decimal, so it prints without float noise.
        InvoiceValue: Number(majorDecimal(request.amountMinor)),
        DisplayCurrencyIso: request.currency,
        CustomerName: name?.trim().slice(0, 100) || (request.lang === "ar" ? "عميل" : "Customer"),
        ...(email && { CustomerEmail: email }),
        ...mobileOf(mobile, countryCode),
        CallBackUrl: returnUrl,
        ErrorUrl: returnUrl,
        Language: request.lang,
        CustomerReference: String(request.transactionId),
        // The store, for the webhook, which names no store of its own (storeOfStatus).
        UserDefinedField: String(request.appId),
      });
      if (!data.InvoiceURL || data.InvoiceId === undefined || data.InvoiceId === null) {
        throw new GatewayUnavailable("MyFatoorah /v2/SendPayment answered without InvoiceURL or InvoiceId");
      }
      return {
        reference: String(data.InvoiceId),
        paymentUrl: data.InvoiceURL,
        details: { invoice_id: String(data.InvoiceId), customer_reference: String(request.transactionId) },
      };
    },

    async verifyCallback(request: Request): Promise<GatewayOutcome | null> {
      if (request.method === "POST") {
        const event = await readWebhook(request);
        return event?.kind === "payment" ? event.outcome : null;
      }
      // The return route: MyFatoorah adds `paymentId`; only its status API says what happened.
      const paymentId = new URL(request.url).searchParams.get("paymentId") ?? "";
      if (!PAYMENT_ID.test(paymentId)) return null;
      try {
        return await paymentStatus(paymentId, "PaymentId");
      } catch (error) {
        if (error instanceof GatewayRefused) {
          console.warn(JSON.stringify({ msg: "myfatoorah return with an unknown paymentId", error: error.message }));
          return null;
        }
        throw error;
      }
    },

    async refund(request: CardRefundRequest): Promise<CardRefundResult> {
      const data = await post<RefundData>("/v2/MakeRefund", {
        Key: request.paymentReference,
        KeyType: "InvoiceId",
        ServiceChargeOnCustomer: false,
        Amount: Number(majorDecimal(request.amountMinor)),
        Comment: request.reason.slice(0, 255),
      });
      return {
        reference: String(data.RefundId),
        // MyFatoorah's finance team executes the request later (its REFUND_STATUS_CHANGED webhook says when).
        status: "pending",
        details: {
          RefundId: data.RefundId,
          RefundReference: data.RefundReference ?? null,
          Amount: data.Amount ?? null,
          InvoiceId: request.paymentReference,
        },
      };
    },
  };
}
