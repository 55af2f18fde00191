import type { EventMessage } from "../../core/events/outbox";
import { signatureHeader } from "./signing";
import type { WebhookRow } from "./tables";
import { refuseTarget, type TargetPolicy } from "./target";

export const DELIVERY_TIMEOUT_MS = 15_000;
export const RESPONSE_BODY_MAX = 20 * 1024;
export const USER_AGENT = "CommerceMeals-Webhooks/1.0";

export type ErrorClass = "http" | "timeout" | "dns" | "tls" | "network" | "blocked" | "redirect";
export type DeliveryResult = {
  ok: boolean;
  /** 410 Gone: the receiver asks us to stop. */
  gone: boolean;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  errorClass: ErrorClass | null;
  /** Seconds, from a `Retry-After` header. */
  retryAfterS: number | null;
};

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_BODY_MAX) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all.subarray(0, RESPONSE_BODY_MAX));
}

function retryAfterSeconds(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - Date.now()) / 1000));
}

function classify(error: unknown): ErrorClass {
  const text = `${(error as Error)?.name ?? ""} ${(error as Error)?.message ?? String(error)}`.toLowerCase();
  if (text.includes("timeout") || text.includes("abort")) return "timeout";
  if (text.includes("dns") || text.includes("getaddrinfo") || text.includes("resolve") || text.includes("not found"))
    return "dns";
  if (text.includes("tls") || text.includes("ssl") || text.includes("certificate")) return "tls";
  return "network";
}

/** The secrets that sign now: the current one, and a rotated-out one for its last 24 hours. */
export function signingSecrets(webhook: WebhookRow, at = new Date().toISOString()): string[] {
  const previous =
    webhook.previousSecretKey && webhook.previousSecretExpiresAt && at < webhook.previousSecretExpiresAt
      ? [webhook.previousSecretKey]
      : [];
  return [webhook.secretKey, ...previous];
}

/**
 * POSTs one event to one webhook, signed per Standard Webhooks, with the webhook's own headers
 * (which cannot override ours), a 15 s timeout and no redirect following. The target is checked
 * again before sending: an address refused since the webhook was saved is not contacted.
 */
export async function deliver(
  webhook: WebhookRow,
  event: EventMessage,
  deliveryId: string,
  policy: TargetPolicy,
): Promise<DeliveryResult> {
  const started = Date.now();
  const result = (r: Partial<DeliveryResult>): DeliveryResult => ({
    ok: false,
    gone: false,
    statusCode: null,
    responseBody: null,
    errorClass: null,
    retryAfterS: null,
    durationMs: Date.now() - started,
    ...r,
  });
  const refused = refuseTarget(webhook.url, policy);
  if (refused) return result({ errorClass: "blocked", responseBody: refused });

  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = new Headers(webhook.headers);
  headers.set("content-type", "application/json");
  headers.set("user-agent", USER_AGENT);
  headers.set("webhook-id", deliveryId);
  headers.set("webhook-timestamp", String(timestamp));
  headers.set("webhook-signature", await signatureHeader(signingSecrets(webhook), deliveryId, timestamp, body));
  try {
    const res = await fetch(webhook.url, {
      method: "POST",
      body,
      headers,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const text = await readCapped(res);
    const redirect = res.status >= 300 && res.status < 400;
    return result({
      ok: res.status >= 200 && res.status < 300,
      gone: res.status === 410,
      statusCode: res.status,
      responseBody: text,
      errorClass: res.ok ? null : redirect ? "redirect" : "http",
      retryAfterS: retryAfterSeconds(res.headers.get("retry-after")),
    });
  } catch (error) {
    return result({
      errorClass: classify(error),
      responseBody: String((error as Error)?.message ?? error).slice(0, 500),
    });
  }
}
