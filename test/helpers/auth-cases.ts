import { describe, expect, it } from "vitest";
import { PERMISSIONS, type Permission } from "../../src/core/auth";
import { APP_1, APP_2, revokedTokenFor, tokenFor } from "./factories";
import { call, problem } from "./request";

export type ProtectedRoute = {
  method: string;
  path: string;
  permission: Permission;
  /** A body that would pass validation, so that only auth decides the outcome. */
  body?: unknown;
  /** The operation takes `org-id` too (the organization must own the app). */
  org?: boolean;
};

/**
 * The auth cases every protected route must pass: no token 401, malformed, unknown, expired and
 * revoked tokens 401, missing or malformed app-id 400, wrong permission 403 naming it, and a
 * tenant-1 token sent with tenant 2's app-id 403; with `org`, a missing org-id 400 and an org that
 * does not own the app 403. (Tenant n is organization n with app n.)
 */
export function sharedAuthCases(route: ProtectedRoute) {
  describe(`auth: ${route.method} ${route.path}`, () => {
    const send = (
      token: string | null,
      appId: number | string | null = APP_1,
      orgId: number | string | undefined = route.org ? (appId ?? APP_1) : undefined,
    ) => call(route.path, { method: route.method, token, appId, orgId, body: route.body });

    it("401 without a token", async () => {
      const res = await send(null);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
      expect((await problem(res)).code).toBe("not_authenticated");
    });

    it("401 with a malformed Authorization header", async () => {
      const res = await call(route.path, {
        method: route.method,
        headers: { authorization: "Token abc" },
        orgId: route.org ? APP_1 : undefined,
        body: route.body,
      });
      expect(res.status).toBe(401);
      expect((await problem(res)).code).toBe("malformed_token");
    });

    it("401 with an unknown token", async () => {
      const res = await send("cmk_thisTokenWasNeverIssued0000000000000000000");
      expect(res.status).toBe(401);
      expect((await problem(res)).code).toBe("invalid_token");
    });

    it("401 with an expired token", async () => {
      const res = await send(await tokenFor(APP_1, [route.permission], { expiresAt: "2020-01-01T00:00:00.000Z" }));
      expect(res.status).toBe(401);
      expect((await problem(res)).code).toBe("token_expired");
    });

    it("401 with a revoked token", async () => {
      const res = await send(await revokedTokenFor(APP_1, [route.permission]));
      expect(res.status).toBe(401);
      expect((await problem(res)).code).toBe("token_revoked");
    });

    it("400 without app-id, and with a malformed one", async () => {
      const token = await tokenFor(APP_1, [route.permission]);
      for (const appId of [null, "abc", "1.5", "-1", "99999999999999999999"]) {
        const res = await send(token, appId);
        expect(res.status, `app-id ${appId}`).toBe(400);
        expect((await problem(res)).errors).toHaveProperty("app-id");
      }
    });

    it(`403 naming ${route.permission} when the token lacks it`, async () => {
      const others = PERMISSIONS.filter((p) => p !== route.permission);
      const res = await send(await tokenFor(APP_1, others));
      expect(res.status).toBe(403);
      const body = await problem(res);
      expect(body.code).toBe("missing_permission");
      expect(body.permission).toBe(route.permission);
      expect(body.detail).toContain(route.permission);
    });

    if (route.org) {
      it("400 without org-id, 403 when org-id does not own the app", async () => {
        const token = await tokenFor(APP_1, [route.permission]);
        const missing = await call(route.path, { method: route.method, token, appId: APP_1, body: route.body });
        expect(missing.status).toBe(400);
        expect((await problem(missing)).errors).toHaveProperty(["org-id"]);
        const other = await send(token, APP_1, APP_2);
        expect(other.status).toBe(403);
        expect((await problem(other)).code).toBe("wrong_organization");
      });
    }

    it("403 when a tenant-1 token is sent with tenant 2's app-id", async () => {
      const res = await send(await tokenFor(APP_1, [route.permission]), APP_2);
      expect(res.status).toBe(403);
      expect((await problem(res)).code).toBe("wrong_tenant");
    });
  });
}
