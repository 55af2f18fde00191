/**
 * Secrets at rest on an e-invoicing unit (docs/zatca.md, "Keys, onboarding and renewal"): its
 * private key, its CSIDs' secrets and the merchant's one-use OTP, sealed with AES-256-GCM under a
 * key derived (HKDF-SHA-256) from the Worker secret `EINVOICE_KEY_SECRET`. The row's context
 * (`<app_id>:<unit_id>`) is both the derivation's info and the cipher's additional data, so a
 * sealed value copied to another row does not open. WebCrypto only, and outside the e-invoice
 * core: the API Worker seals the OTP with it, and the core's curves must stay out of its bundle.
 */

const VERSION = "v1";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

const fromBase64 = (b64: string): Uint8Array => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

// Its type from WebCrypto itself: the node project (scripts, test/node) type-checks this file without the DOM lib.
async function sealingKey(secret: string, context: string): ReturnType<typeof crypto.subtle.deriveKey> {
  const base = await crypto.subtle.importKey("raw", utf8(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: utf8("einvoice-unit-key"), info: utf8(context) },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** `v1.` + base64(iv ‖ ciphertext ‖ tag). */
export async function sealKey(secret: string, context: string, secretKey: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: utf8(context) },
    await sealingKey(secret, context),
    secretKey,
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return `${VERSION}.${toBase64(out)}`;
}

/** The secret key back; throws when the secret, the context or the sealed text is not the one sealed. */
export async function openKey(secret: string, context: string, sealed: string): Promise<Uint8Array> {
  const [version, body] = sealed.split(".");
  if (version !== VERSION || !body) throw new RangeError("not a sealed unit key");
  const bytes = fromBase64(body);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.subarray(0, 12), additionalData: utf8(context) },
    await sealingKey(secret, context),
    bytes.subarray(12),
  );
  return new Uint8Array(plain);
}

/** A text secret (a CSID's secret, an OTP) sealed as a key is. */
export const sealText = (secret: string, context: string, text: string): Promise<string> =>
  sealKey(secret, context, utf8(text));

export const openText = async (secret: string, context: string, sealed: string): Promise<string> =>
  new TextDecoder().decode(await openKey(secret, context, sealed));

/** The sealing context of a unit's secrets. */
export const unitContext = (appId: number, unitId: number): string => `${appId}:${unitId}`;
