/**
 * The SDK's client against a fake API (a fetch function that answers as the Worker does): the
 * headers it sets once, the customer's token refresh (one for calls that expire together), the
 * Idempotency-Key it makes and repeats on its retries, paging by `next`, and problem errors. The
 * whole purchase against the Worker itself is test/sdk/purchase.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ApiProblem, createClient, isProblem, unwrap } from "../../sdk/src/index.js";

const BASE = "https://api.test";
const problem = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  Response.json(
    { type: `${BASE}/problems/${code}`, title: "Refused", status, detail: `It was ${code}.`, code, ...extra },
    { status, headers: { "content-type": "application/problem+json", "x-request-id": "req-1" } },
  );

/** A fake API: `answer` gets each request (a copy) in turn; every request is kept in `sent`. */
function fakeApi(answer: (req: Request, n: number) => Response | Promise<Response>) {
  const sent: Request[] = [];
  const fetch = async (req: Request) => {
    sent.push(req.clone());
    return answer(req, sent.length);
  };
  return { sent, fetch };
}

const CHECKOUT = "/order/v1/carts/{cart_id}/checkout/" as const;

describe("headers set once", () => {
  it("sends app-id on every call and each operation's own credential (merchant, customer, platform, none)", async () => {
    const api = fakeApi(() => Response.json({}));
    const client = createClient({
      baseUrl: BASE,
      appId: 7,
      orgId: 3,
      merchantToken: "cmk_merchant",
      platformKey: "platform-key",
      customer: { accessToken: "access-1", refreshToken: "crt_1" },
      fetch: api.fetch,
    });
    await client.GET("/order/v1/merchant/orders/");
    await client.GET("/order/v1/orders/");
    await client.GET("/platform/v1/organizations/");
    await client.GET("/order/v1/items/");
    expect(
      api.sent.map((r) => [r.headers.get("app-id"), r.headers.get("org-id"), r.headers.get("authorization")]),
    ).toEqual([
      ["7", "3", "Bearer cmk_merchant"],
      ["7", "3", "Bearer access-1"],
      ["7", "3", "Bearer platform-key"],
      ["7", "3", null],
    ]);
  });
});

describe("customer token refresh", () => {
  /** A fake that takes only `access-2`, and rotates the pair on refresh (once: a second refresh is a reuse). */
  function expiringApi() {
    let refreshes = 0;
    const api = fakeApi(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/api/v1/customer/auth/token/refresh/") {
        refreshes += 1;
        const { refresh_token } = (await req.json()) as { refresh_token: string };
        if (refresh_token !== "crt_1" || refreshes > 1) return problem(401, "token_revoked");
        return Response.json({
          access_token: "access-2",
          refresh_token: "crt_2",
          token_type: "Bearer",
          expires_in: 900,
          refresh_expires_in: 2592000,
        });
      }
      if (req.headers.get("authorization") !== "Bearer access-2") return problem(401, "token_expired");
      return Response.json({ id: 1, body: req.method === "POST" ? await req.json() : null });
    });
    return { api, refreshes: () => refreshes };
  }

  it("refreshes once for calls that expire together, replays each with the new token, and reports the new pair", async () => {
    const { api, refreshes } = expiringApi();
    const reported: unknown[] = [];
    const client = createClient({
      baseUrl: BASE,
      appId: 1,
      customer: { accessToken: "access-1", refreshToken: "crt_1", onTokens: (t) => void reported.push(t) },
      fetch: api.fetch,
    });
    const [profile, orders, cart] = await Promise.all([
      client.GET("/api/v1/customer/profile/"),
      client.GET("/order/v1/orders/"),
      client.POST("/order/v1/carts/", { body: { items: [{ item_id: 4, qty: 2 }] } }),
    ]);
    expect([profile.response.status, orders.response.status, cart.response.status]).toEqual([200, 200, 200]);
    // The replayed POST carried its body again.
    expect(cart.data).toMatchObject({ body: { items: [{ item_id: 4, qty: 2 }] } });
    expect(refreshes()).toBe(1);
    expect(reported).toEqual([{ accessToken: "access-2", refreshToken: "crt_2" }]);
    expect(client.customerTokens()).toEqual({ accessToken: "access-2", refreshToken: "crt_2" });
    // Later calls go straight out with the new token.
    const before = api.sent.length;
    await client.GET("/order/v1/orders/");
    expect(api.sent.length).toBe(before + 1);
  });

  it("a refused refresh answers the call with the refusal, and is not tried again within the call", async () => {
    const { api, refreshes } = expiringApi();
    const client = createClient({
      baseUrl: BASE,
      appId: 1,
      customer: { accessToken: "access-1", refreshToken: "crt_old" },
      fetch: api.fetch,
    });
    const result = await client.GET("/order/v1/orders/");
    expect(result.response.status).toBe(401);
    expect(() => unwrap(result)).toThrowError(expect.objectContaining({ code: "token_revoked" }));
    expect(refreshes()).toBe(1);
  });

  it("a merchant token's 401 is answered as it is: only customer tokens are refreshed", async () => {
    const api = fakeApi(() => problem(401, "token_expired"));
    const client = createClient({ baseUrl: BASE, appId: 1, merchantToken: "cmk_old", fetch: api.fetch });
    const result = await client.GET("/order/v1/merchant/orders/");
    expect(result.error).toMatchObject({ code: "token_expired" });
    expect(api.sent).toHaveLength(1);
  });
});

describe("Idempotency-Key", () => {
  const checkout = (client: ReturnType<typeof createClient>, headers?: { "Idempotency-Key": string }) =>
    client.POST(CHECKOUT, {
      params: { path: { cart_id: 5 }, ...(headers && { header: headers }) },
      body: { payment_provider: "cash_on_delivery" },
    });

  it("is made for an operation that takes one, kept when given, and absent from the others", async () => {
    const api = fakeApi(() => Response.json({}, { status: 201 }));
    const client = createClient({
      baseUrl: BASE,
      appId: 1,
      customer: { accessToken: "a", refreshToken: "r" },
      fetch: api.fetch,
    });
    await checkout(client);
    await checkout(client);
    await checkout(client, { "Idempotency-Key": "mine-1" });
    await client.POST("/order/v1/carts/", { body: { items: [{ item_id: 1, qty: 1 }] } });
    const keys = api.sent.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(2)).toEqual(["mine-1", null]);
  });

  it("is the same on every retry of one call (a 503, a key still in flight, a dropped connection)", async () => {
    const api = fakeApi((_req, n) => {
      if (n === 1) return problem(503, "service_unavailable");
      if (n === 2) return problem(409, "idempotency_key_in_flight");
      if (n === 3) throw new TypeError("connection reset");
      return Response.json({ ok: true }, { status: 201 });
    });
    const client = createClient({
      baseUrl: BASE,
      appId: 1,
      customer: { accessToken: "a", refreshToken: "r" },
      fetch: api.fetch,
      retry: { attempts: 3, delayMs: () => 0 },
    });
    const result = await checkout(client);
    expect(result.response.status).toBe(201);
    expect(api.sent).toHaveLength(4);
    expect(new Set(api.sent.map((r) => r.headers.get("idempotency-key"))).size).toBe(1);
    expect(await Promise.all(api.sent.map((r) => r.json()))).toEqual(
      Array(4).fill({ payment_provider: "cash_on_delivery" }),
    );
  });

  it("a write without a key is never repeated: its 503 is the answer", async () => {
    const api = fakeApi(() => problem(503, "service_unavailable"));
    const client = createClient({
      baseUrl: BASE,
      appId: 1,
      customer: { accessToken: "a", refreshToken: "r" },
      fetch: api.fetch,
      retry: { attempts: 3, delayMs: () => 0 },
    });
    const result = await client.POST("/order/v1/carts/", { body: { items: [{ item_id: 1, qty: 1 }] } });
    expect(result.response.status).toBe(503);
    expect(api.sent).toHaveLength(1);
  });
});

describe("paginate", () => {
  const ids = Array.from({ length: 5 }, (_, i) => i + 1);
  /** Pages of 2 of five orders, `next` an absolute URL of the same request, as the API answers. */
  const api = () =>
    fakeApi((req) => {
      const url = new URL(req.url);
      const page = Number(url.searchParams.get("page") ?? 1);
      const results = ids.slice((page - 1) * 2, page * 2).map((id) => ({ id }));
      const at = (p: number) => {
        const u = new URL(url);
        u.searchParams.set("page", String(p));
        return u.href;
      };
      return Response.json({
        count: 5,
        next: page < 3 ? at(page + 1) : null,
        previous: page > 1 ? at(page - 1) : null,
        results,
      });
    });

  it("yields every item of every page, following next, with the caller's query on each page", async () => {
    const fake = api();
    const client = createClient({ baseUrl: BASE, appId: 1, merchantToken: "t", fetch: fake.fetch });
    const seen: number[] = [];
    for await (const order of client.paginate("/order/v1/merchant/orders/", { params: { query: { page_size: 2 } } })) {
      seen.push(order.id);
    }
    expect(seen).toEqual(ids);
    expect(fake.sent.map((r) => new URL(r.url).search)).toEqual([
      "?page_size=2",
      "?page_size=2&page=2",
      "?page_size=2&page=3",
    ]);
    const pages = [];
    for await (const page of client
      .paginate("/order/v1/merchant/orders/", { params: { query: { page_size: 2 } } })
      .pages()) {
      pages.push(page.results.length);
    }
    expect(pages).toEqual([2, 2, 1]);
  });

  it("throws the page's problem", async () => {
    const fake = fakeApi(() => problem(400, "validation_error", { errors: { page_size: ["At most 100."] } }));
    const client = createClient({ baseUrl: BASE, appId: 1, merchantToken: "t", fetch: fake.fetch });
    const iterate = async () => {
      for await (const _ of client.paginate("/order/v1/merchant/orders/", { params: { query: { page_size: 500 } } })) {
        // none
      }
    };
    await expect(iterate()).rejects.toMatchObject({
      status: 400,
      code: "validation_error",
      errors: { page_size: ["At most 100."] },
    });
  });
});

describe("problems", () => {
  it("unwrap answers the data, or throws an ApiProblem with the status, code, title, detail, fields and request id", async () => {
    const fake = fakeApi((_r, n) =>
      n === 1
        ? Response.json({ count: 0, next: null, previous: null, results: [] })
        : problem(400, "validation_error", { errors: { status: ["Must be one of: pending, paid."] } }),
    );
    const client = createClient({ baseUrl: BASE, appId: 1, merchantToken: "t", fetch: fake.fetch });
    expect(unwrap(await client.GET("/order/v1/merchant/orders/")).results).toEqual([]);
    let caught: unknown;
    try {
      unwrap(await client.GET("/order/v1/merchant/orders/"));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiProblem);
    expect(isProblem(caught, "validation_error")).toBe(true);
    expect(isProblem(caught, "order_not_found")).toBe(false);
    expect(caught).toMatchObject({
      status: 400,
      code: "validation_error",
      title: "Refused",
      detail: "It was validation_error.",
      type: `${BASE}/problems/validation_error`,
      errors: { status: ["Must be one of: pending, paid."] },
      requestId: "req-1",
      message: "It was validation_error.",
    });
  });

  it("a response that is not a problem body is still an ApiProblem, with the code unexpected_response", async () => {
    const fake = fakeApi(
      () => new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
    );
    const client = createClient({ baseUrl: BASE, appId: 1, fetch: fake.fetch, retry: { attempts: 0 } });
    expect(() => unwrap({ response: new Response(null, { status: 502 }), error: undefined })).toThrowError(ApiProblem);
    const result = await client.GET("/order/v1/items/");
    expect(() => unwrap(result)).toThrowError(expect.objectContaining({ status: 502, code: "unexpected_response" }));
  });
});
