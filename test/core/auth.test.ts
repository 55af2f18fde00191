/**
 * The one auth path with both principals, on a small app of its own: a customer route and a
 * merchant route built by the same factories as the service's, so that the customer cases run
 * before the first customer operation ships (the contract suite runs them on every one that does).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type CustomerStanding, checkCustomerStanding, customerOf, forgetCustomerStanding } from "../../src/core/auth";
import { renderProblem } from "../../src/core/errors";
import { createRouter, jsonContent, z } from "../../src/core/openapi";
import { customerRoute, merchantRoute } from "../../src/core/routes";
import { dbSession } from "../../src/db/session";
import { sharedAuthCases, sharedCustomerAuthCases } from "../helpers/auth-cases";
import { APP_1, customerTokenFor } from "../helpers/factories";
import { BASE, type Call, problem } from "../helpers/request";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

const Me = z.object({ customer_id: z.number().int(), app_id: z.number().int() });

// The customers module answers in the service (createApp registers it); here the test decides.
const standings = new Map<number, CustomerStanding>();
checkCustomerStanding(async (_db, _appId, id) => standings.get(id) ?? "active");

const app = createRouter();
app.use(dbSession());
app.openapi(
  customerRoute({
    method: "get",
    path: "/me/",
    operationId: "testMe",
    summary: "Me",
    beyondSpec: "A test route.",
    responses: { 200: jsonContent(Me, "The caller.") },
  }),
  (c) => {
    const me = customerOf(c);
    return c.json({ customer_id: me.customerId, app_id: me.appId }, 200);
  },
);
app.openapi(
  merchantRoute({
    method: "get",
    path: "/merchant/",
    operationId: "testMerchant",
    summary: "Merchant",
    beyondSpec: "A test route.",
    permission: "can_read_order",
    responses: { 200: jsonContent(z.object({ ok: z.boolean() }), "Allowed.") },
  }),
  (c) => c.json({ ok: true }, 200),
);
app.onError((err, c) => renderProblem(err, c));

async function send(path: string, opts: Call = {}): Promise<Response> {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.appId !== null) headers.set("app-id", String(opts.appId ?? 1));
  if (opts.orgId !== undefined) headers.set("org-id", String(opts.orgId));
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(BASE + path, { method: opts.method ?? "GET", headers }), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

sharedCustomerAuthCases({ method: "GET", path: "/me/" }, send);

describe("a customer's access token", () => {
  it("resolves to the customer principal of its store", async () => {
    const res = await send("/me/", { token: await customerTokenFor(APP_1, 42) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ customer_id: 42, app_id: APP_1 });
  });

  it("is accepted with the scheme in any case (RFC 9110)", async () => {
    const token = await customerTokenFor(APP_1, 7);
    const res = await send("/me/", { headers: { authorization: `bearer ${token}` } });
    expect(res.status).toBe(200);
  });

  it("is refused on a merchant route with 403 wrong_principal", async () => {
    const res = await send("/merchant/", { token: await customerTokenFor(APP_1, 42) });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("wrong_principal");
  });

  it("of a blocked customer is 403 customer_blocked, of a deleted one 401 token_revoked, though it verifies", async () => {
    standings.set(13, "blocked");
    standings.set(14, "gone");
    const blocked = await send("/me/", { token: await customerTokenFor(APP_1, 13) });
    expect(blocked.status).toBe(403);
    expect((await problem(blocked)).code).toBe("customer_blocked");
    const gone = await send("/me/", { token: await customerTokenFor(APP_1, 14) });
    expect(gone.status).toBe(401);
    expect((await problem(gone)).code).toBe("token_revoked");
    // On a merchant route the token is refused for what it is, whatever its customer's standing.
    const merchant = await send("/merchant/", { token: await customerTokenFor(APP_1, 13) });
    expect((await problem(merchant)).code).toBe("wrong_principal");
  });

  it("stops at once when the isolate that blocks forgets the customer's held standing", async () => {
    const token = await customerTokenFor(APP_1, 15);
    expect((await send("/me/", { token })).status).toBe(200);
    standings.set(15, "blocked");
    forgetCustomerStanding(APP_1, 15);
    expect((await send("/me/", { token })).status).toBe(403);
    standings.set(15, "active");
    forgetCustomerStanding(APP_1, 15);
    expect((await send("/me/", { token })).status).toBe(200);
  });

  it("with a tampered payload is a 401", async () => {
    const [h, , s] = (await customerTokenFor(APP_1, 42)).split(".");
    const forged = `${h}.${btoa(JSON.stringify({ sub: "1", app_id: APP_1, kind: "customer", exp: 9e9 })).replace(/=+$/, "")}.${s}`;
    const res = await send("/me/", { token: forged });
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe("invalid_token");
  });
});

// The merchant cases on the same small app: the two principals share one auth path.
sharedAuthCases({ method: "GET", path: "/merchant/", permission: "can_read_order" }, send);
