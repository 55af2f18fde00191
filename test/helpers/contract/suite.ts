/**
 * The contract and abuse suite, one module at a time: `contractSuite(module, probes)` walks the
 * operations of the OpenAPI document that the module serves (./modules.ts) and tries each the way a
 * careless or hostile client would. It grows by itself as routes land; a route without its
 * permission, its declared responses or its probes (in test/<module>/probes.ts) fails here, and
 * test/contract/probes.test.ts fails when an operation has probes in no module or in two.
 *
 * Each contract file builds the records its probes name (./fixtures.ts) in three stores of its own
 * (A, B, X: APP_1, APP_2, APP_3), so the files share a runtime and database and run in parallel.
 *
 * What is checked, per operation: its declarations; the shared auth cases; a tenant probe (A's
 * request naming B's records: never B's data); for customer operations, a probe naming another
 * customer of A (their rows unchanged); malformed bodies and query strings (./faults.ts: a fixed list
 * of single faults on every run, the random fuzz under `npm run test:deep` with FUZZ_SEED); non-JSON,
 * 415 and 413 bodies; bad path ids.
 *
 * "A refused request writes nothing" is checked by the statements it ran: every request goes to the
 * Worker with a D1 binding that records them and the rows each changed (./recorder.ts), and a 4xx
 * answer must have changed no row: each INSERT, UPDATE, DELETE or REPLACE it ran matched nothing or
 * was rolled back with its batch (but WRITES_OF_A_REFUSED_REQUEST, each saying why). The tenant
 * probe checks more, since an accepted write of A must not reach B either: B is this file's own
 * store and nothing of the file writes as B, so B's rows are read once after the fixtures, and again
 * after every probe that ran a write statement (a probe that wrote nothing cannot have changed
 * them), and at the end of the file: they must be the same.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../../src/core/permissions";
import { sharedAuthCases, sharedCustomerAuthCases } from "../auth-cases";
import { DEEP, FUZZ_SEED } from "../depth";
import { createCustomerFor, customerTokenFor, tokenFor } from "../factories";
import { minimalValue, type Operation, openApiDocument, operations } from "../openapi";
import { type Call, call } from "../request";
import {
  concretePath,
  conforms,
  expectNoWrites,
  expectPlainWords,
  otherCustomerRows,
  requestSchema,
  rowsOfStore,
} from "./checks";
import { bodyFaults, queryFaults, randomBodies, randomQueries } from "./faults";
import { A_OTHER_MARKER, buildFixtures, type Fixtures, MARKER } from "./fixtures";
import { type ModuleName, moduleOf } from "./modules";
import { recordingEnv, writesOf } from "./recorder";

/** A request's parts that name records: `orgId` replaces A's own `org-id` where the operation takes one. */
export type Probe = (f: Fixtures) => { query?: string; body?: unknown; path?: Record<string, string>; orgId?: number };

/**
 * A module's probes, by operationId: `tenant` for each of its operations in the suite (a request of
 * tenant A naming tenant B's records), `otherCustomer` for each customer operation (a request of one
 * customer of A naming another customer of A's records).
 */
export type ModuleProbes = { tenant: Record<string, Probe>; otherCustomer?: Record<string, Probe> };

const doc = await openApiDocument();

/** The operations the suite tries: the protected ones, and the public ones of the interface. */
export function operationsInSuite(module?: ModuleName) {
  // The suite probes one store's reach into another's; a platform operation names no store of its
  // caller (its auth and input are tested in test/platform/).
  return operations(doc)
    .filter((o) => module === undefined || moduleOf(o.op.operationId) === module)
    .filter((o) => o.op.security?.length || o.op["x-spec-id"])
    .filter((o) => o.op["x-audience"] !== "platform")
    .map((o) => ({ ...o, isPublic: !o.op.security?.length }));
}

const isCustomerOp = (op: Operation) => op["x-audience"] === "customer";

export function contractSuite(module: ModuleName, probes: ModuleProbes) {
  const all = operations(doc).filter((o) => moduleOf(o.op.operationId) === module);
  const checked = operationsInSuite(module);
  const recorder = recordingEnv();
  let cases = 0;
  let fx: Fixtures;
  let rowsOfB = "";

  /** A request through the recording bindings: its response and the statements it ran. */
  const send = async (path: string, opts: Call) => {
    recorder.take();
    const res = await call(path, { ...opts, env: recorder.env });
    cases++;
    return { res, statements: recorder.take() };
  };

  beforeAll(async () => {
    fx = await buildFixtures();
    rowsOfB = await rowsOfStore(fx.stores.b);
    expect(rowsOfB, "B's rows are read").toContain(MARKER);
  });

  it("has a probe for each of its operations in the suite, and none for another's", async () => {
    const ids = (ops: typeof checked) => ops.map((o) => o.op.operationId).sort();
    expect(Object.keys(probes.tenant).sort(), `test/${module}/probes.ts: tenant`).toEqual(ids(checked));
    expect(Object.keys(probes.otherCustomer ?? {}).sort(), `test/${module}/probes.ts: otherCustomer`).toEqual(
      ids(checked.filter((o) => isCustomerOp(o.op))),
    );
    // The recording sees the statements of the request's D1 session.
    recorder.take();
    await call("/health", { appId: null, env: recorder.env });
    expect(recorder.take().length, "the recorder saw the health check's statement").toBeGreaterThan(0);
    console.info(
      `contract suite, ${module}: ${all.length} operations in the document, ${checked.filter((o) => !o.isPublic).length} protected, ` +
        `${checked.filter((o) => o.isPublic).length} public (stores ${fx.stores.a}, ${fx.stores.b}, ${fx.stores.x})`,
    );
  });

  describe.each(checked)("$method $path", ({ path, method, op, isPublic }) => {
    const where = `${method} ${path} (${op.operationId})`;
    const isCustomer = isCustomerOp(op);
    const org = (op.parameters ?? []).some((p) => p.in === "header" && p.name === "org-id");
    // A token of its own per operation, and a new one every 500 requests, so that the per-token rate
    // limit (600 a minute) never answers for the suite.
    let asA: Call = {};
    let sent = 0;
    const mint = async () => {
      // A customer operation is called by a customer of tenant A of its own (the rate limit is per
      // customer, as the merchant's is per token); the others by a merchant.
      const a = fx.stores.a;
      const token = isCustomer
        ? await customerTokenFor(a, (await createCustomerFor(a)).id)
        : await tokenFor(a, [...PERMISSIONS]);
      asA = { method, token, appId: a, ...(org && { orgId: a }) };
      sent = 0;
    };
    beforeAll(mint);
    const credentials = async () => {
      if (++sent > 500) await mint();
      return asA;
    };
    const schema = requestSchema(doc, op);
    const validBody = schema ? (minimalValue(schema) as Record<string, unknown>) : undefined;

    it("declares its operationId, summary, tags, permission, spec id and every problem response", () => {
      expect(op.operationId, where).toBeTruthy();
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBeGreaterThan(0);
      if (isPublic) {
        expect(op["x-permission"], where).toBeUndefined();
        expect(op.responses["400"]?.content?.["application/problem+json"], `${where} 400`).toBeDefined();
        expect(op.responses["500"]?.content?.["application/problem+json"], `${where} 500`).toBeDefined();
        return;
      }
      if (isCustomer) expect(op["x-permission"], where).toBeUndefined();
      else expect(PERMISSIONS as readonly string[], where).toContain(op["x-permission"]);
      // An operation of the interface, or one it needs that the interface does not name, saying why.
      expect(op["x-spec-id"] ?? op["x-beyond-spec"], where).toBeTruthy();
      for (const s of ["400", "401", "403", "429", "500"]) {
        expect(op.responses[s]?.content?.["application/problem+json"], `${where} ${s}`).toBeDefined();
      }
      if (schema) for (const s of ["413", "415"]) expect(op.responses[s], `${where} ${s}`).toBeDefined();
    });

    // A public operation reached by a signed link (the pay link) takes no `app-id`: the store is in
    // its signed query, which its own tests tamper with. The document says which: no `app-id` header.
    const takesAppId = (op.parameters ?? []).some((p) => p.in === "header" && p.name === "app-id");
    if (isPublic && takesAppId) {
      it("needs no token, and a well-formed app-id", async () => {
        for (const appId of [null, "abc", "0"]) {
          const { res, statements } = await send(concretePath(path), { method, appId, body: validBody });
          expect(res.status, `${where} app-id ${appId}`).toBe(400);
          expect((await conforms(doc, where, op, res)) as object).toHaveProperty("errors.app-id");
          expectNoWrites(`${where} app-id ${appId}`, res.status, statements);
        }
      });
    } else if (isPublic) {
      // Signed links: nothing to check here; the tenant probe below sends one forged for B's record.
    } else if (isCustomer) {
      sharedCustomerAuthCases({
        method,
        path: concretePath(path),
        body: validBody,
        channelCustomers: (op as Record<string, unknown>)["x-channel-customers"] === true,
      });
    } else {
      sharedAuthCases({
        method,
        path: concretePath(path),
        permission: op["x-permission"] as never,
        body: validBody,
        org,
      });
    }

    if (isCustomer) {
      it("never gives a customer another customer's data, nor changes it", async () => {
        const probe = probes.otherCustomer?.[op.operationId];
        expect(
          probe,
          `${where}: add an otherCustomer probe for ${op.operationId} to test/${module}/probes.ts`,
        ).toBeDefined();
        const p = probe!(fx);
        const before = await otherCustomerRows(fx.app.aOther);
        const { res, statements } = await send(concretePath(path, p.path) + (p.query ?? ""), {
          ...(await credentials()),
          body: p.body,
        });
        const text = await res.clone().text();
        // As for tenant B's records: another customer's record named in the body is a 400 on that field.
        expect([200, 201, 204, 400, 404], `${where}: ${res.status} ${text}`).toContain(res.status);
        expect(text).not.toContain(A_OTHER_MARKER);
        expect(text).not.toContain("a2-private@tenant-a.example");
        await conforms(doc, where, op, res);
        expectNoWrites(where, res.status, statements);
        expect(await otherCustomerRows(fx.app.aOther), `${where}: the other customer's records changed`).toEqual(
          before,
        );
      });
    }

    it("never gives tenant A a 2xx that carries tenant B's data", async () => {
      const probe = probes.tenant[op.operationId];
      expect(probe, `${where}: add a tenant probe for ${op.operationId} to test/${module}/probes.ts`).toBeDefined();
      const p = probe!(fx);
      const { res, statements } = await send(concretePath(path, p.path) + (p.query ?? ""), {
        ...(await credentials()),
        ...(p.orgId !== undefined && { orgId: p.orgId }),
        body: p.body,
      });
      const text = await res.clone().text();
      // A record of B named in the body is a 400 on that field, worded as for an id that does not exist.
      // 202: a code "sent" (to a number the answer does not reveal); 401: another store's refresh token.
      expect([200, 201, 202, 204, 400, 401, 403, 404], `${where}: ${res.status} ${text}`).toContain(res.status);
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain("private@tenant-b.example");
      expect(text).not.toContain('"max_reservation_qty":999');
      await conforms(doc, where, op, res);
      expectNoWrites(where, res.status, statements);
      // Whatever A's request wrote, it wrote as A: not one of B's rows changed.
      if (writesOf(statements).length)
        expect(await rowsOfStore(fx.stores.b), `${where}: tenant B's records changed`).toBe(rowsOfB);
    });

    if (schema && validBody) {
      const refusesBody = async (kind: string, body: unknown) => {
        const label = `${where} ${kind}: ${JSON.stringify(body)?.slice(0, 200)}`;
        const { res, statements } = await send(concretePath(path), { ...(await credentials()), body });
        expect(res.status, label).toBeGreaterThanOrEqual(400);
        expect(res.status, `${label}: rate-limited, the case proves nothing`).not.toBe(429);
        expect(res.status, label).toBeLessThan(500);
        const problem = (await conforms(doc, label, op, res)) as { errors?: Record<string, string[]> };
        if (res.status === 400 && kind !== "not an object")
          expect(problem.errors, `${label}: no field errors`).toBeDefined();
        expectPlainWords(label, problem);
        expectNoWrites(label, res.status, statements);
      };
      it("answers malformed bodies with a declared 4xx problem, and writes nothing", async () => {
        for (const { kind, body } of bodyFaults(schema, validBody)) await refusesBody(kind, body);
      });
      it.runIf(DEEP)("answers random malformed bodies alike (deep)", async () => {
        const property = fc.asyncProperty(randomBodies(schema, validBody), ({ kind, body }) => refusesBody(kind, body));
        await fc.assert(property, { numRuns: 40, seed: FUZZ_SEED });
      });

      it("answers non-JSON, wrongly typed and oversized bodies with 400, 415 and 413", async () => {
        for (const [rawBody, type, status] of [
          ["{not json", "application/json", 400],
          [JSON.stringify(validBody), "text/plain", 415],
          [JSON.stringify(validBody), "application/x-www-form-urlencoded", 415],
          [JSON.stringify({ ...validBody, pad: "x".repeat(1024 * 1024 + 1) }), "application/json", 413],
        ] as const) {
          const { res, statements } = await send(concretePath(path), {
            ...(await credentials()),
            rawBody,
            headers: { "content-type": type },
          });
          expect(res.status, `${where} ${type} ${rawBody.slice(0, 20)}`).toBe(status);
          await conforms(doc, where, op, res);
          expectNoWrites(`${where} ${type}`, res.status, statements);
        }
        if (!isPublic) {
          // No token: 401 before anything is said of the body (auth first, as documented).
          const { res, statements } = await send(concretePath(path), {
            ...(await credentials()),
            token: null,
            rawBody: JSON.stringify(validBody),
            headers: { "content-type": "text/plain" },
          });
          expect(res.status, `${where} text/plain without a token`).toBe(401);
          await conforms(doc, where, op, res);
          expectNoWrites(`${where} without a token`, res.status, statements);
        }
      });
    }

    const queryParams = (op.parameters ?? []).filter((p) => p.in === "query");
    if (queryParams.length) {
      const answersQuery = async (qs: string) => {
        const { res, statements } = await send(`${concretePath(path)}?${qs}`, await credentials());
        const label = `${where} ?${qs.slice(0, 200)}`;
        expect(res.status, label).toBeLessThan(500);
        expect(res.status, `${label}: rate-limited, the case proves nothing`).not.toBe(429);
        const body = (await conforms(doc, label, op, res)) as { errors?: Record<string, string[]> };
        if (res.status === 400) expect(Object.keys(body.errors ?? {}).length, label).toBeGreaterThan(0);
        expectNoWrites(label, res.status, statements);
        return res.status;
      };
      it("answers any query string with a declared response, never a 5xx; bad ones with 400 naming them", async () => {
        for (const qs of queryFaults(queryParams)) await answersQuery(qs);
      });
      it.runIf(DEEP)("answers random query strings alike (deep)", async () => {
        const property = fc.asyncProperty(
          randomQueries(queryParams.map((p) => p.name)),
          async (qs) => void (await answersQuery(qs)),
        );
        await fc.assert(property, { numRuns: 60, seed: FUZZ_SEED });
      });
    }

    const pathParams = (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
    if (pathParams.length) {
      it.each(["abc", "0", "-1", "1.5", "99999999999999999999", "1%20OR%201=1"])(
        "answers path id %s with 400 or 404",
        async (bad) => {
          const values = Object.fromEntries(pathParams.map((n) => [n, bad]));
          const { res, statements } = await send(concretePath(path, values), {
            ...(await credentials()),
            body: validBody,
          });
          expect([400, 404]).toContain(res.status);
          expectNoWrites(`${where} path id ${bad}`, res.status, statements);
        },
      );
    }
  });

  it("left tenant B's records as they were, and counts its cases", async () => {
    expect(await rowsOfStore(fx.stores.b), "tenant B's records changed").toBe(rowsOfB);
    console.info(`contract suite, ${module}: ${all.length} operations in the document, ${cases} abuse cases sent`);
  });
}
