/**
 * The unit's private key: generated here (secp256k1 is not in WebCrypto), never returned, stored
 * sealed (einvoices/sealing.ts: AES-256-GCM under a key derived from a Worker secret, bound to its row).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";

/** A new secp256k1 secret key (32 bytes, WebCrypto's random source). */
export const newUnitKey = (): Uint8Array => secp256k1.utils.randomSecretKey();

/** The uncompressed public key of a unit's secret key, for its CSR. */
export const publicKeyOf = (secretKey: Uint8Array): Uint8Array => secp256k1.getPublicKey(secretKey, false);

// Sealing is WebCrypto only and lives outside the core, where the API Worker can use it too.
export { openKey, sealKey } from "../../einvoices/sealing.js";
