import { describe, expect, it } from "vitest";
import { PERMISSIONS, type Permission } from "../../src/core/auth";
import { APP_1, APP_2, customerTokenFor, revokedTokenFor, tokenFor } from "./factories";
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
export function sharedAuthCases(route: ProtectedRoute, fetcher: typeof call = call) {
  describe(`auth: ${route.method} ${route.path}`, () => {
    const send = (
      token: string | null,
      appId: number | string | null = APP_1,
      orgId: number | string | undefined = route.org ? (appId ?? APP_1) : undefined,
    ) => fetcher(route.path, { method: route.method, token, appId, orgId, body: route.body });

    it("401 without a token", async () => {
      const res = await send(null);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
      expect((await problem(res)).code).toBe("not_authenticated");
    });

    it("401 with a malformed Authorization header", async () => {
      const res = await fetcher(route.path, {
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

    it("403 for a customer's access token", async () => {
      const res = await send(await customerTokenFor(APP_1, 1));
      expect(res.status).toBe(403);
      expect((await problem(res)).code).toBe("wrong_principal");
    });

    if (route.org) {
      it("400 without org-id, 403 when org-id does not own the app", async () => {
        const token = await tokenFor(APP_1, [route.permission]);
        const missing = await fetcher(route.path, { method: route.method, token, appId: APP_1, body: route.body });
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

export type CustomerRoute = {
  method: string;
  path: string;
  /** The operation also admits a sales channel's customers (`x-channel-customers`). */
  channelCustomers?: boolean;
  /** A body that would pass validation, so that only auth decides the outcome. */
  body?: unknown;
};

/**
 * The auth cases every customer route must pass: no token 401, malformed 401, a forged, expired or
 * wrongly typed access token 401, missing or malformed app-id 400, an app-id naming no store 404,
 * a merchant token on a customer path 403 `wrong_principal`, and another store's customer 403
 * `wrong_tenant`. `send` defaults to the Worker; a test of the auth path may give its own app.
 */
export function sharedCustomerAuthCases(route: CustomerRoute, send: typeof call = call) {
  describe(`customer auth: ${route.method} ${route.path}`, () => {
    const as = (token: string | null, appId: number | string | null = APP_1) =>
      send(route.path, { method: route.method, token, appId, body: route.body });

    it("401 without a token, and with a malformed Authorization header", async () => {
      const res = await as(null);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
      expect((await problem(res)).code).toBe("not_authenticated");
      const malformed = await send(route.path, {
        method: route.method,
        headers: { authorization: "Basic abc" },
        body: route.body,
      });
      expect(malformed.status).toBe(401);
      expect((await problem(malformed)).code).toBe("malformed_token");
    });

    it("401 with a forged, expired or non-customer access token", async () => {
      const cases = [
        [await customerTokenFor(APP_1, 1, { secret: "not-the-server-secret-000000000000" }), "invalid_token"],
        [await customerTokenFor(APP_1, 1, { expiresIn: -60 }), "token_expired"],
        [await customerTokenFor(APP_1, 1, { kind: "merchant" }), "invalid_token"],
        ["eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", "invalid_token"],
      ] as const;
      for (const [token, code] of cases) {
        const res = await as(token);
        expect(res.status, code).toBe(401);
        expect((await problem(res)).code).toBe(code);
      }
    });

    it("400 without app-id or with a malformed one, 404 when it names no store", async () => {
      const token = await customerTokenFor(APP_1, 1);
      for (const appId of [null, "abc", "-1"]) {
        const res = await as(token, appId);
        expect(res.status, `app-id ${appId}`).toBe(400);
        expect((await problem(res)).errors).toHaveProperty("app-id");
      }
      const unknown = await as(token, 987654);
      expect(unknown.status).toBe(404);
      expect((await problem(unknown)).code).toBe("app_not_found");
    });

    it("403 for a merchant token, and for another store's customer", async () => {
      const merchant = await as(await tokenFor(APP_1, [...PERMISSIONS]));
      expect(merchant.status).toBe(403);
      expect((await problem(merchant)).code).toBe("wrong_principal");
      const other = await as(await customerTokenFor(APP_2, 1));
      expect(other.status).toBe(403);
      // A route that admits sales channel customers says why another store's customer is refused.
      expect((await problem(other)).code).toBe(route.channelCustomers ? "channel_connection_inactive" : "wrong_tenant");
    });
  });
}
