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

export async function sign(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase64(secret.slice(SECRET_PREFIX.length)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${base64(new Uint8Array(mac))}`;
}

/** The `webhook-signature` header value: one signature per secret that signs. */
export async function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): Promise<string> {
  return (await Promise.all(secrets.map((s) => sign(s, id, timestamp, body)))).join(" ");
}
