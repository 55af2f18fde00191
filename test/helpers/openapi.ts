import { type Schema, Validator } from "@cfworker/json-schema";
import { buildOpenApiDocument } from "../../src/openapi-document";
import { inlineSharedParts } from "../../src/openapi-shared-parts";

export type JsonSchema = Record<string, any>;
export type Operation = {
  operationId: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: "path" | "query" | "header"; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  "x-permission"?: string;
  "x-spec-id"?: string;
  "x-beyond-spec"?: string;
  "x-audience"?: "merchant" | "customer" | "public" | "platform";
};
export type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};

/**
 * The document the Worker serves, built the same way, without a request, with its shared responses
 * and parameters written into each operation (`inlineSharedParts`): the tests read operations whole.
 */
export async function openApiDocument(): Promise<Doc> {
  return inlineSharedParts(await buildOpenApiDocument("https://api.test")) as unknown as Doc;
}

export function operations(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
}

const derefs = new WeakMap<object, JsonSchema>();

/**
 * Inlines `#/components/schemas/*` references (the document has no cycles). The result is
 * remembered per schema object, so that its compiled validator is too.
 */
export function deref(doc: Doc, schema: JsonSchema): JsonSchema {
  if (!schema || typeof schema !== "object") return schema;
  const known = derefs.get(schema);
  if (known) return known;
  let out: JsonSchema;
  if (Array.isArray(schema)) out = schema.map((s) => deref(doc, s)) as unknown as JsonSchema;
  else if (typeof schema.$ref === "string")
    out = deref(doc, doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]!);
  else out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, deref(doc, v)]));
  derefs.set(schema, out);
  return out;
}

const validators = new Map<JsonSchema, Validator>();

/** Validates a value against a JSON Schema 2020-12 (OpenAPI 3.1); returns the errors, empty when valid. */
export function validate(schema: JsonSchema, value: unknown): string[] {
  let v = validators.get(schema);
  if (!v) {
    v = new Validator(schema as Schema, "2020-12", false);
    validators.set(schema, v);
  }
  const r = v.validate(value);
  return r.valid ? [] : r.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** A request body that satisfies the schema's types and required fields, with the fewest values. */
export function minimalValue(schema: JsonSchema): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return minimalValue(schema.anyOf[0]);
  if (schema.oneOf) return minimalValue(schema.oneOf[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        (schema.required ?? []).map((k: string) => [k, minimalValue(schema.properties?.[k] ?? {})]),
      );
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, (_, i) => {
        const v = minimalValue(schema.items ?? {});
        return typeof v === "number" ? v + i : v;
      });
    case "integer":
    case "number":
      return Math.max(1, schema.minimum ?? 1);
    case "boolean":
      return false;
    case "string":
      if (schema.format === "date") return "2026-12-01";
      if (schema.format === "date-time") return "2026-12-01T10:00:00Z";
      return "x".repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return null;
  }
}
