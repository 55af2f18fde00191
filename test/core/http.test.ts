import { describe, expect, it } from "vitest";
import { APP_1, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";

const TICKETS = "/order/v1/merchant/fulfillments/tickets/";

describe("HTTP conventions", () => {
  it("answers an unknown route with a problem+json 404", async () => {
    const res = await call("/order/v1/nowhere/");
    expect(res.status).toBe(404);
    const body = await problem(res);
    expect(body).toMatchObject({ status: 404, code: "route_not_found", title: "Not Found" });
    expect(body.type).toMatch(/^https:\/\//);
  });

  it("answers a known path with another method with 405 and Allow", async () => {
    const res = await call(TICKETS, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expect((await problem(res)).code).toBe("method_not_allowed");
  });

  it("refuses a body over 1 MiB with 413, before reading it whole", async () => {
    const token = await tokenFor(APP_1, ["can_write_order"]);
    const res = await call(`${TICKETS}bulk-update/`, {
      method: "POST",
      token,
      rawBody: JSON.stringify({ ids: [1], pad: "x".repeat(1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect((await problem(res)).code).toBe("payload_too_large");
  });

  // The documented order: no token is 401 before anything is said of the request (it was 415 first).
  it("answers a non-JSON body with 401 without a token, 415 with one, and 415 on a public operation", async () => {
    const text = { rawBody: "ids=1", headers: { "content-type": "text/plain" } };
    for (const path of [`${TICKETS}bulk-update/`, "/order/v1/carts/", "/api/v1/customer/profile/"]) {
      const res = await call(path, { method: path.endsWith("profile/") ? "PATCH" : "POST", ...text });
      expect(res.status, path).toBe(401);
      expect((await problem(res)).code).toBe("not_authenticated");
    }
    const token = await tokenFor(APP_1, ["can_write_order"]);
    const withToken = await call(`${TICKETS}bulk-update/`, { method: "POST", token, ...text });
    expect((await problem(withToken)).code).toBe("unsupported_media_type");
    const open = await call("/api/v1/customer/auth/otp/", { method: "POST", ...text });
    expect(open.status).toBe(415);
    expect((await problem(open)).code).toBe("unsupported_media_type");
  });

  it("sends a request id, secure headers and the D1 bookmark on every response", async () => {
    const res = await call("/health", { appId: null });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-d1-bookmark")).toBeTruthy();
    const miss = await call("/nowhere");
    expect(miss.headers.get("x-request-id")).toBeTruthy();
    expect((await problem(miss)).request_id).toBe(miss.headers.get("x-request-id"));
  });

  it("resumes a D1 session from the client's bookmark, and refuses a malformed one", async () => {
    const first = await call("/health", { appId: null });
    const bookmark = first.headers.get("x-d1-bookmark")!;
    const again = await call("/health", { appId: null, headers: { "x-d1-bookmark": bookmark } });
    expect(again.status).toBe(200);
    const bad = await call("/health", { appId: null, headers: { "x-d1-bookmark": "'; DROP TABLE tickets; --" } });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty(["x-d1-bookmark"]);
  });

  it("answers CORS preflights for browser apps", async () => {
    const res = await call(TICKETS, {
      method: "OPTIONS",
      appId: null,
      headers: {
        origin: "https://shop.example.com",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization,app-id",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("app-id");
  });

  it("serves the OpenAPI document and the interactive reference", async () => {
    const doc = await call("/openapi.json", { appId: null });
    expect(doc.status).toBe(200);
    expect((await json(doc)).openapi).toBe("3.1.0");
    const docs = await call("/docs", { appId: null });
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toContain("text/html");
    expect(await docs.text()).toContain("/openapi/merchant.json");
  });
});
