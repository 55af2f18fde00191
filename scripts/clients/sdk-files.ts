/**
 * The SDK's generated sources (sdk/src/schema.ts and sdk/src/operations.ts), from the OpenAPI
 * document: the types openapi-typescript makes of it, and what the SDK's middleware must know per
 * operation at run time (its credential, whether it takes an `Idempotency-Key`) with the union of
 * every problem `code`. Written by scripts/clients.ts; test/node/clients-generated.test.ts fails
 * when the checked-in files are not these.
 */
import openapiTS, { astToString } from "openapi-typescript";

type Json = Record<string, any>;

export const SDK_BANNER =
  "// Generated from the OpenAPI document by scripts/clients.ts (npm run clients): do not edit.\n";

/** The security scheme of the document → the SDK's credential that answers it. */
const CREDENTIALS: Record<string, string> = {
  merchantToken: "merchant",
  customerToken: "customer",
  platformKey: "platform",
};

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

/** Each operation as `METHOD /path`, with the parameters it declares (references resolved). */
export function operationsOf(doc: Json): { key: string; path: string; method: string; op: Json; params: Json[] }[] {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) =>
        p.$ref ? doc.components.parameters[p.$ref.split("/").pop()] : p,
      );
      out.push({ key: `${method.toUpperCase()} ${path}`, path, method, op, params });
    }
  }
  return out;
}

/** The credential scheme an operation names (the first of its `security`), or undefined for none. */
export function schemeOf(op: Json): string | undefined {
  return Object.keys(op.security?.[0] ?? {})[0];
}

function operationsSource(doc: Json): string {
  const ops = operationsOf(doc);
  const credentials = ops
    .filter(({ op }) => schemeOf(op))
    .map(({ key, op }) => {
      const credential = CREDENTIALS[schemeOf(op)!];
      if (!credential) throw new Error(`${key}: unknown security scheme ${schemeOf(op)}`);
      return `  ${JSON.stringify(key)}: ${JSON.stringify(credential)},`;
    });
  const keyed = ops
    .filter(({ params }) => params.some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key"))
    .map(({ key }) => `  ${JSON.stringify(key)},`);
  const codes = Object.keys(doc["x-error-codes"] ?? {}).sort();
  if (!codes.length) throw new Error("the document lists no error codes (x-error-codes)");
  return [
    SDK_BANNER,
    "/** Which credential the SDK sends: a merchant token, a customer's access token or the platform key. */",
    'export type Credential = "merchant" | "customer" | "platform";',
    "",
    "/** The credential of each operation that takes one, by `METHOD /path` (the others are public). */",
    "export const OPERATION_CREDENTIALS: Readonly<Record<string, Credential>> = {",
    ...credentials,
    "};",
    "",
    "/** The operations that take an `Idempotency-Key` (writes that move money or stock). */",
    "export const IDEMPOTENT_OPERATIONS: ReadonlySet<string> = new Set([",
    ...keyed,
    "]);",
    "",
    "/** Every `code` a problem body can carry. */",
    "export type ErrorCode =",
    ...codes.map((c, i) => `  | ${JSON.stringify(c)}${i === codes.length - 1 ? ";" : ""}`),
    "",
  ].join("\n");
}

/** The SDK's generated files, by path from the repository's root. */
export async function sdkFiles(doc: Json): Promise<Record<string, string>> {
  const types = astToString(await openapiTS(structuredClone(doc) as never));
  return {
    "sdk/src/schema.ts": `${SDK_BANNER}\n${types}`,
    "sdk/src/operations.ts": operationsSource(doc),
  };
}
