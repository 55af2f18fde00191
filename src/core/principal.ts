import type { Permission } from "./permissions";

/** Who is calling, resolved once per request by `authenticate` from the bearer token. */
export type MerchantPrincipal = {
  kind: "merchant";
  tokenId: number;
  appId: number;
  /** The organization that owns the token's store. */
  orgId: number;
  permissions: ReadonlySet<Permission>;
  /** When the token expires (null: never); a key it creates may not outlive it. */
  expiresAt: string | null;
};
export type CustomerPrincipal = {
  kind: "customer";
  customerId: number;
  appId: number;
  /**
   * Set only on a route that admits sales-channel customers (`customerRoute({ channel })`): the token
   * was a customer's of this channel store, and `customerId` is this store's customer for them.
   */
  channel?: { appId: number; customerId: number };
};
/** The platform operator (`authenticatePlatform`): no store, no permissions; every platform route is theirs. */
export type PlatformPrincipal = { kind: "platform" };
export type Principal = MerchantPrincipal | CustomerPrincipal | PlatformPrincipal;
