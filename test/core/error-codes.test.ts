import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/openapi-document";
import { deref, openApiDocument, operations } from "../helpers/openapi";

/** The codes of each operation's problem responses, per status, as the document declares them. */
async function declaredCodes() {
  const doc = await openApiDocument();
  const out: { where: string; status: string; codes: string[] }[] = [];
  for (const { path, method, op } of operations(doc)) {
    for (const [status, response] of Object.entries(op.responses)) {
      const schema = response.content?.["application/problem+json"]?.schema;
      if (!schema) continue;
      const parts = (deref(doc, schema).allOf ?? []) as { properties?: { code?: { enum?: string[] } } }[];
      const codes = parts.flatMap((p) => p.properties?.code?.enum ?? []);
      out.push({ where: `${method} ${path}`, status, codes });
    }
  }
  return { doc, out };
}

describe("error codes", async () => {
  it("every problem response of every operation narrows `code` to an enum", async () => {
    const { out } = await declaredCodes();
    expect(out.length).toBeGreaterThan(300);
    for (const { where, status, codes } of out) expect(codes.length, `${where} ${status}`).toBeGreaterThan(0);
  });

  it("404 codes name their resource, and every code is snake_case", async () => {
    const { out } = await declaredCodes();
    for (const { where, status, codes } of out) {
      for (const code of codes) {
        expect(code, where).toMatch(/^[a-z]+(_[a-z]+)*$/);
        if (status === "404") expect(code, `${where} 404`).toMatch(/_not_found$/);
      }
    }
  });

  it("every code of the catalogue is answered by some operation, and the document lists the catalogue", async () => {
    const { doc, out } = await declaredCodes();
    // A bulk operation answers 200 with one result per id: the codes an id can be refused with are the
    // enum of `code` in its error objects, in the component schemas.
    const perId = JSON.stringify((doc as { components?: unknown }).components ?? {}).matchAll(
      /"code":\{"type":"string","enum":\[([^\]]*)\]/g,
    );
    const used = new Set([
      ...out.flatMap((o) => o.codes),
      ...[...perId].flatMap((m) => JSON.parse(`[${m[1]}]`) as string[]),
    ]);
    // Answered by the app itself, before any operation matches.
    const appLevel = new Set(["route_not_found", "method_not_allowed"]);
    const unused = Object.keys(ERROR_CODES).filter((c) => !used.has(c) && !appLevel.has(c));
    expect(unused, "codes no operation declares: declare them where they are thrown, or remove them").toEqual([]);
    const listed = (doc as unknown as { "x-error-codes": Record<string, string> })["x-error-codes"];
    expect(Object.keys(listed).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
