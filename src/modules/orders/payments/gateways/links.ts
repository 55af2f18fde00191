import { signLink, verifyLink } from "../../../../core/crypto";

/**
 * Signed query strings: the gateways' pages and return routes carry what they need (an amount,
 * where to send the customer) in their URL, signed with LINK_SIGNING_SECRET so that nobody can
 * change a value, or move it to another purpose, without the signature failing.
 */

/** Where the orders module's public router is mounted (app.ts `PREFIXES.customerCommerce`). */
export const PAYMENTS_PATH = "/order/v1/payments";

/** The signature's query parameter. */
export const SIGNATURE = "signature";

/** The signed message: the purpose and each field as `[name, value]`, JSON so no value can shift into another. */
const messageOf = (purpose: string, fields: Record<string, string>) =>
  JSON.stringify([purpose, ...Object.entries(fields).map(([k, v]) => [k, v])]);

/** `fields` (in this order) and their signature, as a query string without `?`. */
export async function signedQuery(secret: string, purpose: string, fields: Record<string, string>): Promise<string> {
  const query = new URLSearchParams(fields);
  query.set(SIGNATURE, await signLink(secret, messageOf(purpose, fields)));
  return query.toString();
}

/**
 * The fields `names` of `params` when its signature is theirs for `purpose`; null otherwise (a
 * missing or changed value, a missing signature, a signature of another purpose). An absent field
 * counts as the empty string, as `signedQuery` writes an empty value.
 */
export async function verifiedQuery<N extends string>(
  secret: string,
  purpose: string,
  params: URLSearchParams,
  names: readonly N[],
): Promise<Record<N, string> | null> {
  const signature = params.get(SIGNATURE);
  if (!signature) return null;
  const fields = {} as Record<N, string>;
  for (const name of names) {
    // A repeated parameter is ambiguous (which one did the signer mean?): refused.
    if (params.getAll(name).length > 1) return null;
    fields[name] = params.get(name) ?? "";
  }
  return (await verifyLink(secret, signature, messageOf(purpose, fields))) ? fields : null;
}
