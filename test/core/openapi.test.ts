import { describe, expect, it } from "vitest";
import { call, json } from "../helpers/request";

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
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

  // Protected operations are checked in depth by the contract suite (test/contract/abuse.test.ts).
  it("gives every operation, protected or not, a unique operationId, a summary, tags and a 500 problem", async () => {
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
    }
  });

  it("serves the spec's operation T1 at its exact path with can_read_order", async () => {
    const op = (await document()).paths["/order/v1/merchant/fulfillments/tickets/"]?.get;
    expect(op).toMatchObject({ "x-spec-id": "T1", "x-permission": "can_read_order", summary: "List Tickets" });
  });
});
