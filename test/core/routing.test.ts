import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { isFixedPath } from "../../src/core/routing";
import { APP_1, createPlainItem, createWebhookFor, tokenFor } from "../helpers/factories";
import { call, problem } from "../helpers/request";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

const ITEMS = "/order/v1/merchant/items/";
const TAGS = `${ITEMS}tags/`;
const WEBHOOKS = "/api/v1/dashboard/admin/integrations/webhooks/";
const MEALS_RESTAURANTS = "/order/v1/merchant/meals/restaurants/";
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The route table as the Worker registers it: method and Hono path (`:param`), in registration order. */
const routes = createApp().routes.filter((r) => r.method !== "ALL");

/** A Hono path pattern as a regular expression over request paths. */
const patternOf = (path: string) => new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`);

/** What a fixed path answers: its registered methods, HEAD with GET, and OPTIONS (the CORS middleware). */
function registeredMethods(path: string): Set<string> {
  const methods = new Set<string>();
  for (const r of routes.filter((r) => r.path === path)) {
    methods.add(r.method);
    if (r.method === "GET") methods.add("HEAD");
  }
  return methods.add("OPTIONS");
}

const fixedPaths = [...new Set(routes.map((r) => r.path).filter(isFixedPath))];
/** Fixed paths that a `{param}` route also matches: the ones a router could take for an id. */
const shadowed = fixedPaths
  .map((path) => ({ path, params: routes.filter((r) => !isFixedPath(r.path) && patternOf(r.path).test(path)) }))
  .filter((f) => f.params.length > 0);

const allowOf = (res: Response) => new Set((res.headers.get("allow") ?? "").split(",").map((m) => m.trim()));

async function expect405(path: string, method: string, allow: Set<string> | string) {
  const res = await call(path, { method });
  expect(res.status, `${method} ${path}`).toBe(405);
  if (typeof allow === "string") expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
  else expect(allowOf(res), `${method} ${path}`).toEqual(allow);
  if (method === "HEAD") return;
  const body = await problem(res);
  expect(body).toMatchObject({ status: 405, code: "method_not_allowed", title: "Method Not Allowed" });
  expect(body.detail).toContain(method);
}

describe("A method a fixed path lacks is 405, never its {param} sibling's 400 or 404", () => {
  it("answers DELETE and PATCH on the item tags collection with 405 and its own methods", async () => {
    for (const path of [TAGS, TAGS.slice(0, -1)]) {
      for (const method of ["DELETE", "PATCH", "PUT"]) await expect405(path, method, "GET, HEAD, POST, OPTIONS");
    }
  });

  it("does the same for the item config and for POST-only collections, HEAD included", async () => {
    await expect405(`${ITEMS}config/`, "PATCH", "GET, HEAD, POST, OPTIONS");
    await expect405(`${ITEMS}config`, "DELETE", "GET, HEAD, POST, OPTIONS");
    for (const path of [`${ITEMS}bulk-update/`, `${ITEMS}bulk-update-prices`]) {
      for (const method of ["GET", "HEAD", "DELETE"]) await expect405(path, method, "POST, OPTIONS");
    }
  });

  it("answers the webhook logs and the meals collections with their own methods", async () => {
    for (const path of [`${WEBHOOKS}logs/`, `${WEBHOOKS}logs`]) {
      for (const method of ["PATCH", "DELETE", "POST"]) await expect405(path, method, "GET, HEAD, OPTIONS");
    }
    await expect405(WEBHOOKS, "PATCH", "GET, HEAD, POST, DELETE, OPTIONS");
    for (const path of [MEALS_RESTAURANTS, MEALS_RESTAURANTS.slice(0, -1)]) {
      for (const method of ["GET", "PATCH", "DELETE"]) await expect405(path, method, "POST, OPTIONS");
    }
  });

  it("answers 405 before auth, tenant headers, body checks and the D1 session", async () => {
    const res = await call(TAGS, {
      method: "DELETE",
      appId: null,
      rawBody: "not json",
      headers: { "content-type": "text/plain", "x-d1-bookmark": "bad bookmark" },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await problem(res)).request_id).toBe(res.headers.get("x-request-id"));
  });

  it("still answers CORS preflights on fixed paths, for methods they have and lack", async () => {
    for (const method of ["POST", "DELETE"]) {
      const res = await call(TAGS, {
        method: "OPTIONS",
        appId: null,
        headers: {
          origin: "https://shop.example.com",
          "access-control-request-method": method,
          "access-control-request-headers": "authorization,app-id",
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toContain(method);
    }
  });

  it("gives the same Allow shape on a param path that lacks the method (Hono's own 405)", async () => {
    await expect405(`${ITEMS}5/`, "PUT", "GET, HEAD, PATCH, DELETE, OPTIONS");
    await expect405(`${WEBHOOKS}5`, "GET", "PATCH, DELETE, OPTIONS");
  });
});

describe("Id routes next to fixed paths still work", () => {
  let token: string;
  let webhookToken: string;
  beforeAll(async () => {
    token = await tokenFor(APP_1, ["can_read_item", "can_write_item"]);
    webhookToken = await tokenFor(APP_1, ["can_update_app_config", "can_retrieve_app_config"]);
  });

  it("answers a fixed path with 405 for a token that may use the id route too", async () => {
    for (const method of ["DELETE", "PATCH"]) {
      const res = await call(TAGS, { method, token, body: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    }
  });

  it("answers a non-integer that is no fixed path with the id route's 400", async () => {
    for (const path of [`${ITEMS}tagz/`, `${ITEMS}tagz`]) {
      const res = await call(path, { method: "DELETE", token });
      expect(res.status).toBe(400);
      expect((await problem(res)).errors).toHaveProperty(["item_id"]);
    }
  });

  it("serves the fixed path's own methods and a real id", async () => {
    expect((await call(TAGS, { token })).status).toBe(200);
    expect((await call(`${ITEMS}config`, { token })).status).toBe(200);
    const item = await createPlainItem(APP_1);
    expect((await call(`${ITEMS}${item.id}/`, { token })).status).toBe(200);
    expect((await call(`${ITEMS}${item.id}`, { method: "DELETE", token })).status).toBe(204);
    expect((await call(`${ITEMS}${item.id}/`, { token })).status).toBe(404);
    const hook = await createWebhookFor(APP_1);
    const del = await call(`${WEBHOOKS}${hook.id}/`, { method: "DELETE", token: webhookToken, orgId: 1 });
    expect(del.status).toBeLessThan(300);
    expect((await call(`${WEBHOOKS}logs/`, { token: webhookToken, orgId: 1 })).status).toBe(200);
  });
});

describe("Every fixed path of the route table", () => {
  it("finds the fixed paths a {param} route would take", () => {
    const paths = shadowed.map((f) => f.path);
    for (const path of [TAGS, `${ITEMS}config/`, `${ITEMS}bulk-update/`, `${WEBHOOKS}logs/`]) {
      expect(paths).toContain(path);
    }
  });

  it("registers each fixed path before a {param} route that matches it with the same method", () => {
    // Routes are tried in registration order: a param route first would take the fixed path for an id.
    const index = (r: (typeof routes)[number]) => routes.indexOf(r);
    for (const { path, params } of shadowed) {
      for (const fixed of routes.filter((r) => r.path === path)) {
        for (const param of params.filter((p) => p.method === fixed.method)) {
          expect(index(fixed), `${fixed.method} ${path} is shadowed by ${param.path}`).toBeLessThan(index(param));
        }
      }
    }
  });

  it(
    "answers every method a fixed path lacks with 405 and exactly its methods, with and " + "without the slash",
    async () => {
      let checked = 0;
      for (const path of fixedPaths) {
        const allow = registeredMethods(path);
        const forms = path.endsWith("/") ? [path, path.slice(0, -1)] : [path];
        for (const method of METHODS.filter((m) => !allow.has(m))) {
          for (const form of forms) {
            await expect405(form, method, allow);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(50);
    },
  );

  it("answers every method a shadowed fixed path lacks with 405, which its {param} sibling has", async () => {
    const cases = shadowed.flatMap(({ path, params }) =>
      params
        .map((p) => p.method)
        .filter((m) => !registeredMethods(path).has(m))
        .map((method) => ({ path, method })),
    );
    expect(cases.map((c) => `${c.method} ${c.path}`)).toContain(`DELETE ${TAGS}`);
    for (const { path, method } of cases) await expect405(path, method, registeredMethods(path));
  });
});
