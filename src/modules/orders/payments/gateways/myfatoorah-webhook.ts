import type { GatewayOutcome } from "../provider";

/**
 * MyFatoorah's Webhook V2 (docs.myfatoorah.com "Webhook V2", "Webhook Signature"): a POST of
 * `{Event: {Code, Name, …}, Data: {…}}` with the header `MyFatoorah-Signature`, the base64 of an
 * HMAC-SHA256 under the portal's webhook secret of the event's documented fields, in their
 * documented order, as `Name=value` joined by commas (null as the empty string):
 *
 * - 1 PAYMENT_STATUS_CHANGED: Invoice.Id, Invoice.Status, Transaction.Status, Transaction.PaymentId,
 *   Invoice.ExternalIdentifier;
 * - 2 REFUND_STATUS_CHANGED: Refund.Id, Refund.Status, Amount.ValueInBaseCurrency, ReferencedInvoice.Id.
 *
 * Other events are acknowledged and ignored: nothing of ours changes on them.
 */

/** A verified event, before the payment's status is asked of the API. */
export type WebhookEvent =
  | { kind: "payment"; invoiceId: string }
  | { kind: "refund"; refundId: string; refundStatus: string; invoiceId: string; amount: string }
  | { kind: "ignored"; event: string };

/**
 * A webhook as the adapter hands it to the route: a payment's confirmed outcome with its store (null
 * when the invoice names none of ours), or an event that changes nothing now.
 */
export type MyFatoorahWebhook =
  | { kind: "payment"; outcome: GatewayOutcome; appId: number | null }
  | Exclude<WebhookEvent, { kind: "payment" }>;

export const SIGNATURE_HEADER = "MyFatoorah-Signature";

/** The signed fields of each event code, in the documented order. */
const SIGNED_FIELDS: Record<number, readonly string[]> = {
  1: ["Invoice.Id", "Invoice.Status", "Transaction.Status", "Transaction.PaymentId", "Invoice.ExternalIdentifier"],
  2: ["Refund.Id", "Refund.Status", "Amount.ValueInBaseCurrency", "ReferencedInvoice.Id"],
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** `Data`'s value at a dotted path, as the signature writes it: text or number as sent, anything else empty. */
function field(data: Json, path: string): string {
  let v: unknown = data;
  for (const key of path.split(".")) v = isObject(v) ? v[key] : undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return "";
}

/** The string MyFatoorah signs for an event of `code` (exported for tests, which sign like MyFatoorah). */
export function signedString(code: number, data: Json): string | null {
  const fields = SIGNED_FIELDS[code];
  return fields ? fields.map((f) => `${f}=${field(data, f)}`).join(",") : null;
}

const encoder = new TextEncoder();

/** Base64 (standard alphabet, padded) of HMAC-SHA256: the signature's own encoding. */
export async function hmacBase64(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  let s = "";
  for (const b of mac) s += String.fromCharCode(b);
  return btoa(s);
}

async function signatureMatches(secret: string, message: string, given: string): Promise<boolean> {
  const expected = encoder.encode(await hmacBase64(secret, message));
  const actual = encoder.encode(given.trim());
  return actual.length === expected.length && crypto.subtle.timingSafeEqual(actual, expected);
}

/**
 * Reads and verifies a webhook request: null when it is not signed by MyFatoorah (no secret set, no
 * or a wrong signature, a body that is not an event). The body is read from a clone.
 */
export async function readWebhookEvent(request: Request, secret: string | undefined): Promise<WebhookEvent | null> {
  const signature = request.headers.get(SIGNATURE_HEADER);
  if (!secret || !signature) return null;
  let body: unknown;
  try {
    body = await request.clone().json();
  } catch {
    return null;
  }
  if (!isObject(body) || !isObject(body.Event) || !isObject(body.Data)) return null;
  const code = body.Event.Code;
  const name = typeof body.Event.Name === "string" ? body.Event.Name : `code ${String(code)}`;
  const message = typeof code === "number" ? signedString(code, body.Data) : null;
  if (message === null) return { kind: "ignored", event: name };
  if (!(await signatureMatches(secret, message, signature))) return null;
  const data = body.Data;
  if (code === 1) {
    const invoiceId = field(data, "Invoice.Id");
    return /^\d{1,20}$/.test(invoiceId) ? { kind: "payment", invoiceId } : null;
  }
  return {
    kind: "refund",
    refundId: field(data, "Refund.Id"),
    refundStatus: field(data, "Refund.Status"),
    invoiceId: field(data, "ReferencedInvoice.Id"),
    amount: field(data, "Amount.ValueInBaseCurrency"),
  };
}
