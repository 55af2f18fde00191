/**
 * The unit's private key at rest: generated here (secp256k1 is not in WebCrypto), never returned,
 * stored sealed with AES-256-GCM under a key derived (HKDF-SHA-256) from a Worker secret. The
 * row's context (`<app_id>:<unit_id>`) is both the derivation's info and the cipher's additional
 * data, so a sealed key copied to another row does not open.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { fromBase64, toBase64, utf8 } from "./encoding.js";

const VERSION = "v1";

/** A new secp256k1 secret key (32 bytes, WebCrypto's random source). */
export const newUnitKey = (): Uint8Array => secp256k1.utils.randomSecretKey();

/** The uncompressed public key of a unit's secret key, for its CSR. */
export const publicKeyOf = (secretKey: Uint8Array): Uint8Array => secp256k1.getPublicKey(secretKey, false);

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
