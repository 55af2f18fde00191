import { OPENAPI_ORIGIN_PLACEHOLDER } from "./core/docs";
import { problemBody } from "./core/errors";

/**
 * The document's repeated parts, moved to `components` and referenced by `$ref`: the problem
 * responses (each operation still names the one whose codes it can answer), an example per problem
 * code, and the parameters several operations share (`app-id`, the list filters). The generator
 * writes every operation whole; this is what keeps the document small enough to open in seconds.
 */

// The generator's output, as far as this reads it.
// biome-ignore lint/suspicious/noExplicitAny: a generated document walked by key; its shape is OpenAPI's, not a type here
type Json = Record<string, any>;
export type OpenApiDocument = {
  paths: Record<string, Record<string, Json>>;
  components?: Record<string, Record<string, Json>>;
  [k: string]: unknown;
};

const PROBLEM_JSON = "application/problem+json";

/** The codes a problem response (as the generator writes it) declares, and its status. */
export function problemCodes(response: Json): { status: number; codes: string[] } | undefined {
  const schema = response.content?.[PROBLEM_JSON]?.schema;
  const own = schema?.allOf?.[1]?.properties;
  if (!own?.code?.enum) return undefined;
  return { status: own.status.enum?.[0] ?? own.status.const, codes: own.code.enum };
}

/**
 * The name of a problem response: its status and a hash of the codes it answers, stable while the
 * codes are (their list, dozens of names long, is in the response's schema; a name of them all
 * would be referenced thousands of times).
 */
const responseName = (status: number, codes: readonly string[]) => `Problem${status}-${fnv1a(codes.join(","))}`;

/** 32-bit FNV-1a, in hex: short stable names, no crypto needed. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

/** An example body of `code` at `status`, as the server renders it, `detail` the code's meaning. */
function problemExample(status: number, code: string, meaning: string): Json {
  // `app-id` is the header every request sends: its 400 shows the `errors` a client reads.
  const extra = code === "invalid_header" ? { errors: { "app-id": ["Must be a positive integer."] } } : {};
  const body = { status: status as 400, code: code as "internal_error", detail: meaning, extra };
  // `type` under the document's server, which the Worker replaces with the caller's origin.
  return { summary: code, value: problemBody(body, undefined, undefined, OPENAPI_ORIGIN_PLACEHOLDER) };
}

/**
 * Moves each operation's problem responses to `components/responses` (one per status and set of
 * codes), with an example per code in `components/examples`, and the parameters used by more than
 * one operation to `components/parameters`. Returns a new document; the input is left as it is.
 */
export function shareRepeatedParts(source: OpenApiDocument, errorCodes: Record<string, string>): OpenApiDocument {
  const doc = structuredClone(source);
  const responses: Record<string, Json> = {};
  const examples: Record<string, Json> = {};
  const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));

  // A code answered under two statuses gets an example for each, named by both.
  const statusesOf = new Map<string, Set<number>>();
  for (const op of operations) {
    for (const response of Object.values<Json>(op.responses ?? {})) {
      const found = problemCodes(response);
      for (const code of found?.codes ?? [])
        statusesOf.set(code, (statusesOf.get(code) ?? new Set()).add(found!.status));
    }
  }
  const exampleName = (status: number, code: string) =>
    (statusesOf.get(code)?.size ?? 0) > 1 ? `${code}-${status}` : code;

  for (const op of operations) {
    for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
      const found = problemCodes(response);
      if (!found) continue;
      const name = responseName(found.status, found.codes);
      if (!responses[name]) {
        const { example: _one, ...content } = response.content[PROBLEM_JSON];
        const refs: Record<string, Json> = {};
        for (const code of found.codes) {
          const key = exampleName(found.status, code);
          examples[key] ??= problemExample(found.status, code, errorCodes[code] ?? code);
          refs[code] = { $ref: `#/components/examples/${key}` };
        }
        responses[name] = { ...response, content: { [PROBLEM_JSON]: { ...content, examples: refs } } };
      }
      op.responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }

  const parameters = shareParameters(operations);
  doc.components = {
    ...doc.components,
    parameters: { ...doc.components?.parameters, ...parameters },
    responses: sortedByKey({ ...doc.components?.responses, ...responses }),
    examples: sortedByKey({ ...doc.components?.examples, ...examples }),
  };
  return doc;
}

/**
 * The parameters several operations declare alike go to `components/parameters`, named after the
 * parameter (`app-id`, `created_at__gte`; `in.name` when a name is used in two places); a name
 * declared differently by some operations keeps its most used form shared and the others inline,
 * so that a name means one thing. The generator repeats a parameter's description in its schema and
 * writes `required: false`: neither is kept.
 */
function shareParameters(operations: Json[]): Record<string, Json> {
  const uses = new Map<string, { param: Json; count: number }>();
  for (const op of operations) {
    if (!op.parameters) continue;
    op.parameters = op.parameters.map(withoutRepeatedDescription);
    for (const param of op.parameters) {
      const text = JSON.stringify(param);
      const seen = uses.get(text);
      if (seen) seen.count++;
      else uses.set(text, { param, count: 1 });
    }
  }
  const places = new Map<string, Set<string>>();
  for (const { param } of uses.values()) places.set(param.name, (places.get(param.name) ?? new Set()).add(param.in));
  const shared = new Map<string, { text: string; count: number }>();
  for (const [text, { param, count }] of uses) {
    if (count < 2) continue;
    const name = places.get(param.name)!.size > 1 ? `${param.in}.${param.name}` : param.name;
    const best = shared.get(name);
    if (!best || count > best.count) shared.set(name, { text, count });
  }
  const nameOf = new Map([...shared].map(([name, { text }]) => [text, name]));
  for (const op of operations) {
    if (!op.parameters) continue;
    op.parameters = op.parameters.map((param: Json) => {
      const name = nameOf.get(JSON.stringify(param));
      return name ? { $ref: `#/components/parameters/${name}` } : param;
    });
  }
  return sortedByKey(Object.fromEntries([...shared].map(([name, { text }]) => [name, JSON.parse(text)])));
}

/** A parameter without what it says twice: its schema's copy of its description, `required: false` (the default). */
function withoutRepeatedDescription(param: Json): Json {
  const { required, ...rest } = param;
  const out = required === false ? rest : param;
  if (!out.schema || out.schema.description !== out.description) return out;
  const { description: _same, ...schema } = out.schema;
  return { ...out, schema };
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The document with its shared responses and parameters written back into each operation, as a
 * reader that does not follow `$ref` wants it (the tests read operations whole). Schemas and
 * examples stay referenced.
 */
export function inlineSharedParts<D extends object>(source: D): D {
  const out = structuredClone(source);
  const doc = out as unknown as OpenApiDocument;
  const { responses = {}, parameters = {} } = doc.components ?? {};
  const resolve = (part: Json, from: Record<string, Json>, kind: string) =>
    typeof part.$ref === "string" && part.$ref.startsWith(`#/components/${kind}/`)
      ? structuredClone(from[part.$ref.slice(`#/components/${kind}/`.length)]!)
      : part;
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      if (op.parameters) op.parameters = op.parameters.map((p: Json) => resolve(p, parameters, "parameters"));
      for (const [status, r] of Object.entries<Json>(op.responses ?? {}))
        op.responses[status] = resolve(r, responses, "responses");
    }
  }
  return out;
}
