import type { EventMessage } from "../../core/events/outbox";
import { signatureHeader } from "./signing";
import type { WebhookRow } from "./tables";
import { refuseTarget, type TargetPolicy } from "./target";

/**
 * How long one attempt may take, from when it has a connection (see gate.ts). The fast lane (first
 * attempts to receivers that answer) waits no longer than what makes a receiver slow (a second,
 * `SLOW_ATTEMPT_MS`): a batch is not over, nor the next one started, until its last attempt ends, so
 * a receiver that stops answering costs every store's deliveries queued meanwhile this wait, once,
 * before it moves to the slow lane, where slow receivers get the longer wait they need.
 */
export const ATTEMPT_TIMEOUT_MS = { fast: 1_000, slow: 15_000 } as const;
export type Lane = keyof typeof ATTEMPT_TIMEOUT_MS;
/** Test Webhook's wait: a merchant waits for the answer, and one request holds no one else up. */
export const TEST_TIMEOUT_MS = 5_000;
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

const DNS_WORDS = /dns|getaddrinfo|enotfound|eai_again|name resolution|name or service not known|nxdomain/;

/** What a thrown fetch error says of itself. */
function classify(error: unknown): ErrorClass {
  const text = `${(error as Error)?.name ?? ""} ${(error as Error)?.message ?? String(error)}`.toLowerCase();
  if (text.includes("timeout") || text.includes("abort")) return "timeout";
  if (DNS_WORDS.test(text)) return "dns";
  if (text.includes("tls") || text.includes("ssl") || text.includes("certificate")) return "tls";
  return "network";
}

/**
 * Whether a host name has an address, asked of a DNS-over-HTTPS resolver: the runtime hides why a
 * connection failed (workerd reports a failed lookup as an opaque "internal error"), and a name that
 * does not resolve is worth telling apart from a receiver that is down. Null when unknown.
 */
export function nameResolves(host: string): Promise<boolean | null> {
  // Asked once a minute per name and isolate: a batch of failures to one receiver asks once.
  const known = lookups.get(host);
  if (known && known.until > Date.now()) return known.answer;
  const answer = lookup(host);
  lookups.set(host, { answer, until: Date.now() + 60_000 });
  if (lookups.size > 1000) lookups.delete(lookups.keys().next().value!);
  return answer;
}
const lookups = new Map<string, { answer: Promise<boolean | null>; until: number }>();

async function lookup(host: string): Promise<boolean | null> {
  try {
    const answers = await Promise.all(
      ["A", "AAAA"].map(async (type) => {
        const res = await fetch(`https://cloudflare-dns.com/dns-query?name=${encodeURIComponent(host)}&type=${type}`, {
          headers: { accept: "application/dns-json" },
          signal: AbortSignal.timeout(2_000),
        });
        if (!res.ok) return null;
        const body = (await res.json()) as { Status?: number; Answer?: unknown[] };
        return body.Status === 3 ? false : (body.Answer?.length ?? 0) > 0;
      }),
    );
    if (answers.includes(true)) return true;
    return answers.includes(null) ? null : false;
  } catch {
    return null;
  }
}

/** Cloudflare answers a Worker's fetch to a name that does not resolve with 530 and error 1016 (or 1001). */
const isOriginDnsError = (status: number, body: string) => status === 530 && /error code: 10(16|01)\b/.test(body);

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
 * (which cannot override ours), a timeout and no redirect following. The target is checked again
 * before sending: an address refused since the webhook was saved is not contacted.
 */
export async function deliver(
  webhook: WebhookRow,
  event: EventMessage,
  deliveryId: string,
  policy: TargetPolicy,
  timeoutMs: number,
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
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await readCapped(res);
    const redirect = res.status >= 300 && res.status < 400;
    const dns = isOriginDnsError(res.status, text);
    return result({
      ok: res.status >= 200 && res.status < 300,
      gone: res.status === 410,
      statusCode: dns ? null : res.status,
      responseBody: text,
      errorClass: res.ok ? null : dns ? "dns" : redirect ? "redirect" : "http",
      retryAfterS: retryAfterSeconds(res.headers.get("retry-after")),
    });
  } catch (error) {
    let errorClass = classify(error);
    const host = new URL(webhook.url).hostname;
    // Only names can fail to resolve; only an unexplained failure is worth the lookup.
    const lookable = policy.resolveNames && !host.startsWith("[") && /[a-z]/.test(host);
    if (errorClass === "network" && lookable && (await nameResolves(host)) === false) errorClass = "dns";
    return result({
      errorClass,
      responseBody:
        errorClass === "dns"
          ? `The host name ${host} does not resolve.`
          : errorClass === "timeout"
            ? `No answer within ${timeoutMs / 1000} s.`
            : String((error as Error)?.message ?? error).slice(0, 500),
    });
  }
}
