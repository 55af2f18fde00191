/**
 * Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * keyed with the base64 part of a `whsec_` secret. Several signatures are space-separated (while a
 * rotated secret still signs).
 */
const encoder = new TextEncoder();

export const SECRET_PREFIX = "whsec_";

function base64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));
}

/** A new secret: `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return SECRET_PREFIX + base64(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * Imported keys, by secret, for this isolate: a batch of deliveries to one webhook imports its key
 * once. Bounded; the secrets are in memory anyway, in the webhook rows being delivered.
 */
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const raw = fromBase64(secret.slice(SECRET_PREFIX.length));
    key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]).catch((e) => {
      keys.delete(secret); // a key that failed to import is not kept
      throw e;
    });
    if (keys.size >= 1000) keys.delete(keys.keys().next().value!);
    keys.set(secret, key);
  }
  return key;
}

export async function sign(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyOf(secret), encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${base64(new Uint8Array(mac))}`;
}

/** The `webhook-signature` header value: one signature per secret that signs. */
export async function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): Promise<string> {
  return (await Promise.all(secrets.map((s) => sign(s, id, timestamp, body)))).join(" ");
}
