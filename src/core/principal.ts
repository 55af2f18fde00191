import type { Permission } from "./permissions";

/** Who is calling, resolved once per request by `authenticate` from the bearer token. */
export type MerchantPrincipal = {
  kind: "merchant";
  tokenId: number;
  appId: number;
  /** The organization that owns the token's store. */
  orgId: number;
  permissions: ReadonlySet<Permission>;
};
export type CustomerPrincipal = { kind: "customer"; customerId: number; appId: number };
export type Principal = MerchantPrincipal | CustomerPrincipal;
