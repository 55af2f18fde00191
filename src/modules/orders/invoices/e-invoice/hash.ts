/**
 * The invoice hash and the chain's first link (Security Features Implementation Standard, sections
 * 2.3.3 and 3): SHA-256 over the canonical form left after the three transforms, in base64.
 */
import { hashedForm } from "./canonical.js";
import { sha256Base64, utf8 } from "./encoding.js";

/**
 * The PIH of a unit's first document: base64 of the hex text of SHA-256("0"), the value the
 * standard's SDK ships as the starting PIH (not base64 of the digest's bytes, nor 32 zero bytes).
 */
export const FIRST_PIH = "NWZlY2ViNjZmZmM4NmYzOGQ5NTI3ODZjNmQ2OTZjNzljMmRiYzIzOWRkNGU5MWI0NjcyOWQ3M2EyN2ZiNTdlOQ==";

/** The invoice hash of a canonical form already written (ours: ubl.ts writes it directly). */
export const invoiceHashOfCanonical = (canonical: string): string => sha256Base64(utf8(canonical));

/** The invoice hash of any e-invoice's XML: the transforms and canonicalisation, then SHA-256. */
export const invoiceHash = (xml: string): string => invoiceHashOfCanonical(hashedForm(xml));
