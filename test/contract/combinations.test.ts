/**
 * Combinations the document allows that one parameter at a time never tries (the contract suite and
 * ranges.test.ts vary one): every list with every filter it declares at once, and every calling-code
 * field with known and unknown codes. A fixed list of cases, no random draw: cheap on every run.
 */
import { describe, expect, it } from "vitest";
import { APP_1, createCustomerFor, customerTokenFor, tokenFor } from "../helpers/factories";
import { everyFilter, filterParams, inRangeValue, isList, queryOf } from "../helpers/list-filters";
import { deref, type JsonSchema, minimalValue, type Operation, openApiDocument, operations } from "../helpers/openapi";
import { call } from "../helpers/request";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

const doc = await openApiDocument();
let ip = 0;

/** The operation's path with each parameter at its schema's example or simplest value. */
function concrete(path: string, op: Operation) {
  const values = Object.fromEntries(
    (op.parameters ?? [])
      .filter((p) => p.in === "path")
      .map((p) => [p.name, String(p.schema ? minimalValue(deref(doc, p.schema)) : 1)]),
  );
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? "1"));
}

/** Credentials as the other contract suites pick them: a customer of its own, or a merchant with every permission. */
async function credentials(op: Operation) {
  const org = (op.parameters ?? []).some((p) => p.in === "header" && p.name === "org-id");
  let token: string | null = null;
  if (op["x-audience"] === "customer") token = await customerTokenFor(APP_1, (await createCustomerFor(APP_1)).id);
  else if (op.security?.length) token = await tokenFor(APP_1);
  return { appId: APP_1, token, ...(org && { orgId: APP_1 }) };
}

const lists = operations(doc).filter((o) => o.method === "GET" && isList(o.op));

describe("every list refuses a parameter it does not declare, naming it", () => {
  it.each(lists)("$method $path", async ({ path, op }) => {
    // With the parameters it requires (a point, a provider), so that only the unknown one is wrong.
    const required = filterParams(doc, op).filter((p) =>
      (op.parameters ?? []).some((q) => q.name === p.name && q.required),
    );
    const given = queryOf(required, Object.fromEntries(required.map((p) => [p.name, inRangeValue(p.schema)])));
    const res = await call(`${concrete(path, op)}?${given}&not_a_parameter=1`, await credentials(op));
    const text = await res.text();
    if (res.status === 403 || res.status === 404) return;
    expect(res.status, `${op.operationId}: ${text.slice(0, 300)}`).toBe(400);
    expect(JSON.parse(text).errors?.not_a_parameter?.join(" "), op.operationId).toMatch(/Allowed: /);
  });
});

describe("every list with every filter it declares at once", () => {
  it.each(lists)("$method $path", async ({ path, op }) => {
    const { count, query } = everyFilter(doc, op);
    const res = await call(`${concrete(path, op)}?${query}`, await credentials(op));
    const text = await res.text();
    // Any answer but a 5xx, or a 400 refusing the combination: a list under a parent named by a
    // made-up id may be its 404, one this store may not read its 403.
    expect(
      res.status < 500 && res.status !== 400,
      `${op.operationId} with ${count} filters: ${res.status} ${text.slice(0, 300)}`,
    ).toBe(true);
  });
});

/** A calling code of a mobile number (customers, captains, the login): `^\+?\d{1,4}$`. */
const isCallingCode = (s: JsonSchema) => s.type === "string" && s.pattern === "^\\+?\\d{1,4}$";

const phoneOps = operations(doc).filter(({ op }) => {
  const body = op.requestBody?.content["application/json"]?.schema;
  const props = body ? ((deref(doc, body).properties ?? {}) as Record<string, JsonSchema>) : {};
  return props.country_code && isCallingCode(props.country_code);
});

/** Codes of countries, and codes of none (each was a 500 once: the parser throws on them). */
const KNOWN = ["966", "+966", "1", "971", "44"];
const UNKNOWN = ["999", "11", "0", "01", "8", "59", "3163", "+999"];

describe("every calling-code field with known and unknown codes", () => {
  it("finds the operations that take one", () => expect(phoneOps.length).toBeGreaterThanOrEqual(5));

  it.each(phoneOps)("$method $path", async ({ path, method, op }) => {
    const auth = await credentials(op);
    const base = minimalValue(deref(doc, op.requestBody!.content["application/json"]!.schema)) as object;
    const failures: string[] = [];
    for (const code of [...KNOWN, ...UNKNOWN]) {
      const res = await call(concrete(path, op), {
        ...auth,
        method,
        // The login's ceiling is per client address: each case comes from its own.
        headers: { "cf-connecting-ip": `10.77.${(ip >> 8) & 255}.${ip++ & 255}` },
        body: { ...base, country_code: code, mobile_number: "0512345678" },
      });
      const text = await res.text();
      const errors = res.status === 400 ? ((JSON.parse(text) as { errors?: object }).errors ?? {}) : {};
      const named = "country_code" in errors;
      if (res.status >= 500) failures.push(`${code}: ${res.status} ${text.slice(0, 200)}`);
      else if (UNKNOWN.includes(code) && !named)
        failures.push(`${code}: expected a 400 on country_code, got ${res.status}`);
      else if (KNOWN.includes(code) && named) failures.push(`${code}: a country's code refused: ${text.slice(0, 200)}`);
    }
    expect(failures.join("\n"), `${method} ${path}`).toBe("");
  });
});

const nullable = (s: JsonSchema): boolean =>
  s.type === "null" ||
  (Array.isArray(s.type) && s.type.includes("null")) ||
  (s.anyOf ?? s.oneOf ?? []).some((x: JsonSchema) => nullable(x));

const withBodies = operations(doc).filter(({ op }) => {
  const body = op.requestBody?.content["application/json"]?.schema;
  return body && deref(doc, body).type === "object" && deref(doc, body).properties;
});

/**
 * The body's fields all null at once (one request an operation): each field the document does not
 * let be null must be named in the 400, or the server accepts what the document refuses.
 */
describe("every body field null at once", () => {
  it.each(withBodies)("$method $path", async ({ path, method, op }) => {
    const schema = deref(doc, op.requestBody!.content["application/json"]!.schema);
    const props = Object.entries(schema.properties as Record<string, JsonSchema>);
    const res = await call(concrete(path, op), {
      ...(await credentials(op)),
      method,
      headers: { "cf-connecting-ip": `10.78.${(ip >> 8) & 255}.${ip++ & 255}` },
      body: Object.fromEntries(props.map(([k]) => [k, null])),
    });
    const text = await res.text();
    expect(res.status, `${op.operationId}: ${text.slice(0, 300)}`).toBeLessThan(500);
    if (res.status === 403 || res.status === 404 || res.status === 429) return;
    const errors = res.status === 400 ? ((JSON.parse(text) as { errors?: object }).errors ?? {}) : {};
    const accepted = props.filter(([k, s]) => !nullable(s) && !(k in errors)).map(([k]) => k);
    expect(accepted, `${op.operationId}: null accepted, not declared (${res.status})`).toEqual([]);
  });
});
