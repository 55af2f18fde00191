import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

/**
 * A request that carries a body must say it is JSON: anything else is 415, not a confusing 400.
 * Each route runs it (the route factories, core/routes.ts), after its auth: the documented order
 * is 401 before anything is said of the request.
 */
export const requireJsonBody = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const m = c.req.method;
  if (m === "POST" || m === "PUT" || m === "PATCH" || m === "DELETE") {
    const length = c.req.header("content-length");
    const hasBody =
      (length !== undefined && length !== "0") ||
      c.req.header("transfer-encoding") !== undefined ||
      (length === undefined && c.req.raw.body !== null);
    const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim();
    if (hasBody && !JSON_MEDIA.test(type)) {
      throw new ApiError(
        415,
        "unsupported_media_type",
        "Send the body as JSON with `Content-Type: application/json`.",
        {
          headers: { Accept: "application/json" },
        },
      );
    }
  }
  await next();
};
