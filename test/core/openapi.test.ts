import { beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_ORIGIN_PLACEHOLDER } from "../../src/core/docs";
import { OUTBOX_ROUTE_TYPES } from "../../src/core/events/outbox";
import type { EventType } from "../../src/core/events/registry";
import { EVENT_CATALOGUE, eventEnvelopeSchema } from "../../src/modules/webhooks/catalogue";
import { buildOpenApiDocument } from "../../src/openapi-document";
import { inlineSharedParts } from "../../src/openapi-shared-parts";
import { APP_1, createPlainItem, createTicketsFor, shardFor, tokenFor } from "../helpers/factories";
import { BASE, call, json } from "../helpers/request";

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
  "x-permission"?: string;
  "x-spec-id"?: string;
};

async function document() {
  return inlineSharedParts(
    await json<{
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown> };
    }>(await call("/openapi.json", { appId: null })),
  );
}

function operations(doc: Awaited<ReturnType<typeof document>>) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
}

describe("OpenAPI document", () => {
  it("is served as the routers build it, whichever routers earlier requests loaded", async () => {
    // Routers load on their first request: one loaded first must not change the document's order.
    expect((await call("/api/v1/restaurants/1/", { appId: APP_1 })).status).toBeLessThan(500);
    const served = await call("/openapi.json", { appId: null });
    expect(served.status).toBe(200);
    const built = JSON.stringify(await buildOpenApiDocument(OPENAPI_ORIGIN_PLACEHOLDER));
    expect(await served.text()).toBe(built.replaceAll(OPENAPI_ORIGIN_PLACEHOLDER, BASE));
  });

  it("declares the merchant and customer bearer schemes", async () => {
    const schemes = (await document()).components.securitySchemes;
    expect(schemes.merchantToken).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
    expect(schemes.customerToken).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "JWT" }),
    );
  });

  // Protected operations are checked in depth by the contract suite (test/<module>/contract.test.ts).
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
      // Every operation says how it is secured: an empty list is a deliberate public one.
      expect(Array.isArray(op.security), `${where} declares no security`).toBe(true);
    }
  });

  it("serves the spec's operation T1 at its exact path with can_read_order", async () => {
    const op = (await document()).paths["/order/v1/merchant/fulfillments/tickets/"]?.get;
    expect(op).toMatchObject({ "x-spec-id": "T1", "x-permission": "can_read_order", summary: "List Tickets" });
  });
});

describe("event catalogue", () => {
  beforeAll(async () => {
    // Emit one of each ticket event through the API.
    const item = await createPlainItem(APP_1);
    const [a, b] = await createTicketsFor(APP_1, item.id, 2);
    const token = await tokenFor(APP_1, ["can_write_order"]);
    await call("/order/v1/merchant/fulfillments/tickets/bulk-update/", {
      method: "POST",
      token,
      body: { ids: [a!.id], status: "confirmed", time: null },
    });
    await call("/order/v1/merchant/fulfillments/tickets/check-in/", {
      method: "POST",
      token,
      body: { token: b!.token },
    });
  });

  it("lists every event under `webhooks` with its delivery envelope", async () => {
    const doc = await json<{
      webhooks: Record<
        string,
        {
          post: {
            requestBody: { content: Record<string, { schema: { allOf: { $ref?: string; required?: string[] }[] } }> };
          };
        }
      >;
      components: { schemas: Record<string, { required: string[] }> };
    }>(await call("/openapi.json", { appId: null }));
    expect(Object.keys(doc.webhooks).sort()).toEqual(Object.keys(EVENT_CATALOGUE).sort());
    for (const [name, w] of Object.entries(doc.webhooks)) {
      // The envelope's own fields are said once (EventEnvelope); each event adds its type and data.
      const [envelope, own] = w.post.requestBody.content["application/json"]!.schema.allOf;
      expect(envelope?.$ref, name).toBe("#/components/schemas/EventEnvelope");
      const required = [...doc.components.schemas.EventEnvelope!.required, ...own!.required!];
      expect(required.sort(), name).toEqual(["app_id", "data", "event", "id", "timestamp", "type"]);
    }
  });

  it("the events the services emit match their documented schemas", async () => {
    const rows = await shardFor(APP_1).prepare("SELECT type, payload FROM outbox_events").all<{
      type: string;
      payload: string;
    }>();
    // The seed's ticket events at least, and whatever the files run before this one emitted (they
    // share the database): every one of them must match its documented schema.
    const types = new Set(rows.results.map((r) => r.type));
    for (const t of ["ticket.created", "ticket.updated", "ticket.checked_in"]) expect(types).toContain(t);
    // Outbox messages that are not webhook events (the e-invoice signer's wake-up) have no schema here.
    for (const { type, payload } of rows.results.filter(
      (r) => !(OUTBOX_ROUTE_TYPES as readonly string[]).includes(r.type),
    )) {
      const parsed = eventEnvelopeSchema(type as EventType).safeParse(JSON.parse(payload));
      expect(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });
});
