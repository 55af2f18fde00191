const encoder = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** An unguessable token: `prefix` + base64url of `bytes` random bytes. */
export function randomToken(prefix: string, bytes = 32): string {
  return prefix + base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

const hmacKeys = new Map<string, ReturnType<typeof crypto.subtle.importKey>>();

/** HMAC-SHA256 of `message` under `secret`, base64url; keys are imported once per isolate. */
export async function hmacSha256(secret: string, message: string): Promise<string> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    hmacKeys.set(secret, key);
  }
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(message))));
}

/**
 * A signature for a link that carries no token (a pay link, an invoice PDF, a fake gateway's
 * callback): HMAC of its parts under LINK_SIGNING_SECRET, so that only this Worker can make one.
 */
export const signLink = (secret: string, ...parts: (string | number)[]) => hmacSha256(secret, parts.join("\n"));

/** Whether `signature` is the link's; compared in constant time. */
export async function verifyLink(secret: string, signature: string, ...parts: (string | number)[]): Promise<boolean> {
  const expected = encoder.encode(await signLink(secret, ...parts));
  const given = encoder.encode(signature);
  if (given.length !== expected.length) return false;
  // Constant time: every byte is compared whatever the first difference.
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given[i]! ^ expected[i]!;
  return diff === 0;
}
