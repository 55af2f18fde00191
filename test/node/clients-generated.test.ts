/**
 * What is generated for the API's clients from its OpenAPI document (scripts/clients.ts): the SDK's
 * types and per-operation table (sdk/src) and the request collection (collection/) must be the
 * document's own, and the SDK must build as a package (tsc into a folder of its own, then imported
 * by Node from there, as a consumer would).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Validator } from "@cfworker/json-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientDocument, collectionOnDisk, generatedFiles } from "../../scripts/clients";

const ROOT = resolve(import.meta.dirname, "../..");
let doc: Record<string, any>;
let files: Record<string, string>;

beforeAll(async () => {
  doc = await clientDocument();
  files = await generatedFiles(doc);
});

describe("generated from the document (else: npm run clients)", () => {
  it("each checked-in file is what the generator makes of the current document", () => {
    const stale = Object.entries(files)
      .filter(([file, text]) => {
        try {
          return readFileSync(join(ROOT, file), "utf8") !== text;
        } catch {
          return true;
        }
      })
      .map(([file]) => file);
    expect(stale).toEqual([]);
  });

  it("no .http file is left of a tag the document no longer has", () => {
    expect(collectionOnDisk().filter((f) => !(f in files))).toEqual([]);
  });

  it("the SDK's table names every operation's credential and every keyed write, from the document", () => {
    const operations = files["sdk/src/operations.ts"]!;
    const checkout = doc.paths["/order/v1/carts/{cart_id}/checkout/"].post;
    expect(checkout.parameters.some((p: any) => p.$ref?.endsWith("/Idempotency-Key"))).toBe(true);
    expect(operations).toContain('"POST /order/v1/carts/{cart_id}/checkout/": "customer",');
    expect(operations).toMatch(/IDEMPOTENT_OPERATIONS[\s\S]*"POST \/order\/v1\/carts\/\{cart_id\}\/checkout\/",/);
    expect(operations).toContain('"GET /order/v1/merchant/orders/": "merchant",');
    expect(operations).toContain('"POST /platform/v1/organizations/": "platform",');
    expect(operations).not.toContain('"GET /order/v1/items/"');
    expect(operations).toContain('| "token_expired"');
  });

  it("every operation is in the collection once, with app-id where it takes it and its credential's variable", () => {
    const http = Object.entries(files)
      .filter(([f]) => f.endsWith(".http"))
      .map(([, t]) => t)
      .join("\n");
    const names = [...http.matchAll(/^# @name (\w+)$/gm)].map((m) => m[1]);
    const ids = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((item) =>
      ["get", "put", "post", "patch", "delete"].filter((m) => item[m]).map((m) => item[m].operationId),
    );
    expect(names.sort()).toEqual(ids.sort());
    const checkout = http.split("### ").find((r) => r.includes("# @name checkoutCart\n"))!;
    expect(checkout).toContain("POST {{baseUrl}}/order/v1/carts/1/checkout/\n");
    expect(checkout).toContain(
      "app-id: {{appId}}\nIdempotency-Key: {{$uuid}}\nAuthorization: Bearer {{customerToken}}",
    );
    expect(checkout).toContain('"payment_provider": "card"');
    const env = JSON.parse(files["collection/http-client.env.json"]!);
    expect(env.local).toMatchObject({
      baseUrl: "http://127.0.0.1:8787",
      appId: 1,
      mobileNumber: "0534501056",
      otp: "123456",
    });
  });
});

/**
 * Bodies the document itself makes impossible, each with why; the test fails when one of them
 * validates again, so that the entry goes when the document is fixed.
 */
const UNSATISFIABLE: Record<string, string> = {};

it("each request body of the collection, with the local environment's values, is valid for its operation", () => {
  const env = JSON.parse(files["collection/http-client.env.json"]!).local as Record<string, unknown>;
  const vars: Record<string, unknown> = { ...env, refreshToken: "crt_3q2-7wEXAMPLEc0K9mBq1sVx8rT4uYzA5nD6fG7hJ8k" };
  const schemas = new Map<string, any>();
  for (const item of Object.values(doc.paths as Record<string, Record<string, any>>)) {
    for (const op of Object.values(item)) {
      const schema = op?.requestBody?.content?.["application/json"]?.schema;
      if (schema) schemas.set(op.operationId, schema);
    }
  }
  const invalid: string[] = [];
  let checked = 0;
  for (const [file, text] of Object.entries(files).filter(([f]) => f.endsWith(".http"))) {
    for (const block of text.split("\n### ").slice(1)) {
      const id = /^# @name (\w+)$/m.exec(block)![1]!;
      const body = block.split("\n\n")[1];
      if (!schemas.has(id)) continue;
      expect(body, `${file} ${id} has no body`).toBeTruthy();
      const value = JSON.parse(body!.replace(/"\{\{(\w+)\}\}"/g, (_, name) => JSON.stringify(vars[name])));
      const validator = new Validator({ ...schemas.get(id), components: doc.components }, "2020-12", false);
      const result = validator.validate(value);
      checked += 1;
      if (!result.valid !== id in UNSATISFIABLE)
        invalid.push(`${id}: ${result.valid ? "valid again" : result.errors.at(-1)?.error}`);
    }
  }
  expect(checked).toBe(schemas.size);
  expect(invalid).toEqual([]);
});

describe("the SDK package builds", () => {
  // Under node_modules, so that the built package resolves openapi-fetch; the cache folder is not
  // there in a fresh install.
  const cache = join(ROOT, "node_modules/.cache");
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(join(cache, "sdk-build-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("tsc emits its modules and declarations, and Node imports the built package", () => {
    execFileSync("npx", ["tsc", "-p", "sdk", "--outDir", out], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const pkg = JSON.parse(readFileSync(join(ROOT, "sdk/package.json"), "utf8"));
    expect(pkg.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
    expect(Object.keys(pkg.dependencies)).toEqual(["openapi-fetch"]);
    for (const f of ["index.js", "index.d.ts", "client.js", "schema.d.ts", "webhooks.js"]) {
      expect(readFileSync(join(out, f), "utf8").length).toBeGreaterThan(0);
    }
    // The package's own type, for Node to read the built files as modules.
    writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module" }));
    const exported = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(join(out, "index.js"))}); console.log(Object.keys(m).sort().join(","))`,
      ],
      { cwd: ROOT },
    )
      .toString()
      .trim();
    expect(exported).toBe("ApiProblem,WebhookVerificationError,createClient,isProblem,unwrap,verifyWebhook");
  });
});
