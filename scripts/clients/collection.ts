/**
 * The request collection: one `.http` file per tag (JetBrains HTTP Client format; VS Code's REST
 * Client reads it too), under collection/<audience>/, every operation of the OpenAPI document with
 * its method, path, headers and an example body, and the local environment `npm start` serves.
 * Written by scripts/clients.ts; test/node/clients-generated.test.ts fails when the checked-in
 * files are not these.
 */
import { operationsOf, schemeOf } from "./sdk-files";

type Json = Record<string, any>;

export const COLLECTION_DIR = "collection";

const BANNER = "# Generated from the OpenAPI document by scripts/clients.ts (npm run collection): do not edit.";

/** The credential's variable: the environment names them (the customer's is set by the login request). */
const AUTH_VARIABLES: Record<string, string> = {
  merchantToken: "merchantToken",
  customerToken: "customerToken",
  platformKey: "platformKey",
};

/** Body fields the local environment fills, so that the login requests work as they stand. */
const BODY_VARIABLES: Record<string, string> = {
  country_code: "{{countryCode}}",
  mobile_number: "{{mobileNumber}}",
  otp: "{{otp}}",
  refresh_token: "{{refreshToken}}",
};

/** The local environment: `npm start`'s URL, the seed's demo store and its test customer number. */
export const LOCAL_ENVIRONMENT = {
  local: {
    baseUrl: "http://127.0.0.1:8787",
    appId: 1,
    orgId: 1,
    countryCode: "966",
    mobileNumber: "0534501056",
    otp: "123456",
    merchantToken: "put a token here: npm run -s token -- --app-id 1 --permissions can_read_order,can_write_order",
    platformKey: "put PLATFORM_API_KEY of .dev.vars here",
  },
};

const deref = (doc: Json, s: Json | undefined): Json | undefined =>
  s?.$ref ? deref(doc, doc.components.schemas[s.$ref.split("/").pop()]) : s;

/** An example value of a schema: its example, default or first enum value, else one of its type. */
export function sampleOf(doc: Json, schema: Json | undefined, depth = 0): unknown {
  const s = deref(doc, schema);
  if (!s || depth > 6) return null;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.allOf) return Object.assign({}, ...s.allOf.map((p: Json) => sampleOf(doc, p, depth + 1)));
  const alternative = s.oneOf?.[0] ?? s.anyOf?.find((a: Json) => a.type !== "null");
  if (alternative) return sampleOf(doc, alternative, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const required: string[] = s.required ?? [];
      // The required fields; a body with none required shows them all, so that it says something.
      const names = required.length ? required : Object.keys(props);
      // An optional field with no example to give (a patterned string) is left out rather than made up wrong.
      const entries = names
        .filter((n) => props[n])
        .map((n) => [n, BODY_VARIABLES[n] ?? sampleOf(doc, props[n], depth + 1)] as const)
        .filter(([n, v]) => v !== undefined || required.includes(n));
      return Object.fromEntries(entries.map(([n, v]) => [n, v ?? "text"]));
    }
    case "array":
      return (s.minItems ?? 0) > 0 || depth === 0 ? [sampleOf(doc, s.items, depth + 1)] : [];
    case "integer":
    case "number":
      return s.minimum ?? 1;
    case "boolean":
      return false;
    case "string":
      if (s.format === "date") return "2026-12-01";
      if (s.format === "date-time") return "2026-12-01T09:00:00Z";
      if (s.format === "uri") return "https://example.com/";
      if (s.format === "email") return "customer@example.com";
      if (s.pattern) return undefined;
      return "text".padEnd(s.minLength ?? 0, "x");
    default:
      return null;
  }
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Whether an operation answers a customer token pair (the login, the refresh, the registration's confirm). */
function answersTokens(doc: Json, op: Json): boolean {
  const ok = op.responses?.["200"] ?? op.responses?.["201"];
  const body = deref(doc, ok?.content?.["application/json"]?.schema);
  return Boolean(body?.properties?.access_token && body?.properties?.refresh_token);
}

function requestText(doc: Json, entry: ReturnType<typeof operationsOf>[number]): string {
  const { op, params, method } = entry;
  const value = (p: Json) => String(p.example ?? p.schema?.example ?? sampleOf(doc, p.schema) ?? 1);
  let path = entry.path;
  for (const p of params.filter((x) => x.in === "path")) path = path.replace(`{${p.name}}`, value(p));
  const query = params
    .filter((p) => p.in === "query" && p.required)
    .map((p) => `${p.name}=${encodeURIComponent(value(p))}`);
  const lines = [
    `### ${op.summary ?? op.operationId}`,
    `# @name ${op.operationId}`,
    ...(op.deprecated ? ["# Deprecated."] : []),
    `${method.toUpperCase()} {{baseUrl}}${path}${query.length ? `?${query.join("&")}` : ""}`,
  ];
  for (const p of params.filter((x) => x.in === "header")) {
    const name = p.name.toLowerCase();
    if (name === "app-id") lines.push("app-id: {{appId}}");
    else if (name === "org-id") lines.push("org-id: {{orgId}}");
    // A new key each time it is sent: resend the same one by hand to see the replay.
    else if (name === "idempotency-key") lines.push("Idempotency-Key: {{$uuid}}");
    else if (p.required) lines.push(`${p.name}: ${value(p)}`);
  }
  const scheme = schemeOf(op);
  if (scheme) lines.push(`Authorization: Bearer {{${AUTH_VARIABLES[scheme] ?? scheme}}}`);
  const json = op.requestBody?.content?.["application/json"];
  if (json) {
    lines.push("Content-Type: application/json", "", JSON.stringify(sampleOf(doc, json.schema), null, 2));
  }
  if (answersTokens(doc, op)) {
    lines.push(
      "",
      "> {%",
      '  client.global.set("customerToken", response.body.access_token);',
      '  client.global.set("refreshToken", response.body.refresh_token);',
      "%}",
    );
  }
  return lines.join("\n");
}

/** The collection's files, by path from the repository's root. */
export function collectionFiles(doc: Json): Record<string, string> {
  const byFile = new Map<string, string[]>();
  for (const entry of operationsOf(doc)) {
    const audience = entry.op["x-audience"] ?? "public";
    const file = `${COLLECTION_DIR}/${audience}/${slug(entry.op.tags?.[0] ?? "other")}.http`;
    byFile.set(file, [...(byFile.get(file) ?? []), requestText(doc, entry)]);
  }
  const files: Record<string, string> = {};
  for (const [file, requests] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    files[file] = `${BANNER}\n\n${requests.join("\n\n")}\n`;
  }
  files[`${COLLECTION_DIR}/http-client.env.json`] = `${JSON.stringify(LOCAL_ENVIRONMENT, null, 2)}\n`;
  return files;
}
