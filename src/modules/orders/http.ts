import type { Context } from "hono";
import type { AppEnv } from "../../env";

/** Links without a token (pay links) point at this Worker's origin, signed with LINK_SIGNING_SECRET. */
export const linksOf = (c: Context<AppEnv>) => ({
  origin: new URL(c.req.url).origin,
  secret: c.env.LINK_SIGNING_SECRET,
});
