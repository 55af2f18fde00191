import { describe, expect, it } from "vitest";
import { call, json } from "../helpers/request";

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
  "x-permission"?: string;
  "x-spec-id"?: string;
};

async function document() {
  return json<{ paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } }>(
    await call("/openapi.json", { appId: null }),
  );
}

function operations(doc: Awaited<ReturnType<typeof document>>) {
  return Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
}

describe("OpenAPI document", () => {
  it("declares the bearer scheme", async () => {
    expect((await document()).components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
  });

  it("gives every operation an operationId, summary, tags, and problem responses; every protected one its permission and spec id", async () => {
    const ops = operations(await document());
    expect(ops.length).toBeGreaterThan(0);
    const ids = new Set<string>();
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toBeTruthy();
      expect(ids.has(op.operationId!), `${where} duplicates ${op.operationId}`).toBe(false);
      ids.add(op.operationId!);
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBeGreaterThan(0);
      expect(op.responses["500"]?.content, where).toHaveProperty(["application/problem+json"]);
      if (op.security?.length) {
        expect(op["x-permission"], where).toMatch(/^can_/);
        expect(op["x-spec-id"], where).toBeTruthy();
        for (const s of ["400", "401", "403", "429"]) expect(op.responses[s]?.content, `${where} ${s}`).toHaveProperty(["application/problem+json"]);
      }
    }
  });

  it("serves the spec's operation T1 at its exact path with can_read_order", async () => {
    const op = (await document()).paths["/order/v1/merchant/fulfillments/tickets/"]?.get;
    expect(op).toMatchObject({ "x-spec-id": "T1", "x-permission": "can_read_order", summary: "List Tickets" });
  });
});
