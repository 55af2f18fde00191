/**
 * Verifying the API's webhook deliveries, for receivers: Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed
 * with the base64 part of the `whsec_` secret). WebCrypto only, so it runs in Workers, Node 20 and
 * browsers alike.
 */

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type VerifyOptions = {
  /** How far the timestamp may be from now, either way, in seconds (5 minutes unless told). */
  toleranceSeconds?: number;
  /** Now, in seconds since the epoch (the clock unless told). */
  now?: number;
};

const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(entry) ? entry.join(" ") : entry;
}

function fromBase64(s: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Equal bytes, in a time that depends on the length only (never on where they first differ). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Checks a delivery's signature and timestamp and answers its parsed payload, or throws a
 * WebhookVerificationError saying what was wrong. `body` is the raw body as received: parse it only
 * after it is verified (a re-serialized body no longer matches its signature).
 */
export async function verifyWebhook<T = unknown>(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array | ArrayBuffer,
  options: VerifyOptions = {},
): Promise<T> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError("The webhook-id, webhook-timestamp and webhook-signature headers are required.");
  }
  const sentAt = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(sentAt)) {
    throw new WebhookVerificationError("The webhook-timestamp header is not a number of seconds.");
  }
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - sentAt) > tolerance) {
    throw new WebhookVerificationError(
      `The timestamp is more than ${tolerance} s from now: a replayed or late delivery.`,
    );
  }
  const key = fromBase64(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
  if (!key?.length) throw new WebhookVerificationError("The secret is not a whsec_ secret (base64 after the prefix).");
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const expected = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, encoder.encode(`${id}.${timestamp}.${text}`)));
  // Several signatures while a rotated secret still signs: any v1 that matches will do.
  const matched = signatures.split(" ").some((entry) => {
    const [version, value] = entry.split(",", 2);
    const given = version === "v1" && value ? fromBase64(value) : undefined;
    return given !== undefined && sameBytes(given, expected);
  });
  if (!matched) throw new WebhookVerificationError("No signature matches: a wrong secret or an altered body.");
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new WebhookVerificationError("The body is not JSON.");
  }
}
