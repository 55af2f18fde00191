/**
 * The encodings the standards mix: base64 of bytes (the invoice hash, signatures), base64 of the
 * hex text of a digest (the PIH's first value, XAdES digests, Security Features Implementation
 * Standard and the SDK's samples), and UTF-8.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export const fromBase64 = (b64: string): Uint8Array => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/** base64(SHA-256(bytes)): the invoice hash's form. */
export const sha256Base64 = (data: Uint8Array): string => toBase64(sha256(data));

/** base64 of the lowercase hex text of SHA-256: the XAdES digests' (and the first PIH's) form. */
export const sha256Base64OfHex = (data: Uint8Array): string => btoa(bytesToHex(sha256(data)));
