import fc from "fast-check";
import type { JsonSchema } from "../openapi";

/**
 * The contract suite's malformed requests. Every run sends a fixed, exhaustive list of single faults
 * (one fault per body or query string, each class of wrong value the random fuzz could draw, for
 * every field); `npm run test:deep` adds the random fuzz, which combines faults, with a fixed seed.
 */
export type BodyFault = { kind: string; body: unknown };

/** The JSON types a property admits (its `type`, or those of its `anyOf`/`oneOf` members). */
function typesOf(p: JsonSchema): string[] {
  const own = Array.isArray(p.type) ? p.type : p.type ? [p.type] : [];
  const members = [...(p.anyOf ?? []), ...(p.oneOf ?? [])].flatMap((m: JsonSchema) => typesOf(m));
  return [...own, ...members];
}

/** The wrong values of one property: each a class the random generator draws from, fixed. */
function wrongValues(p: JsonSchema): { kind: string; value: unknown }[] {
  const type = typesOf(p);
  const wrong: { kind: string; value: unknown }[] = [];
  const numeric = type.includes("integer") || type.includes("number");
  // A wrong JSON type, for each type the property is not.
  if (!type.includes("string") && !p.enum?.includes("x")) wrong.push({ kind: "a string", value: "x" });
  if (!numeric) wrong.push({ kind: "a number", value: 1 });
  if (!type.includes("boolean")) wrong.push({ kind: "a boolean", value: true });
  if (!type.includes("object")) wrong.push({ kind: "an object", value: { nested: true } });
  if (type.length && !type.includes("array")) wrong.push({ kind: "an array", value: [] });
  if (type.length && !type.includes("null") && !p.enum?.includes(null)) wrong.push({ kind: "null", value: null });
  if (type.includes("string")) {
    // Longer than any bound: every string a client sends must have one.
    wrong.push({ kind: "too long", value: "x".repeat(Math.max(10_001, (p.maxLength ?? 0) + 1)) });
    if (p.format === "date")
      for (const date of ["2026-02-30", "2026-13-01", "12/01/2026", "2026-1-1", ""])
        wrong.push({ kind: `bad date ${JSON.stringify(date)}`, value: date });
    if (p.enum) wrong.push({ kind: "not in the enum", value: "not-a-listed-value" });
  }
  if (type.includes("array")) {
    wrong.push({
      kind: "too many items",
      value: Array.from({ length: (p.maxItems ?? 1000) + 1 }, (_, i) => i + 1),
    });
    const items = typesOf(p.items ?? {});
    if (items.includes("integer"))
      for (const bad of [1.5, -1, 0, 2 ** 53 + 2, "1", null, 1e308])
        wrong.push({ kind: `item ${JSON.stringify(bad)}`, value: [bad] });
    else if (items.length) wrong.push({ kind: "an item of another type", value: [items.includes("string") ? 1 : "x"] });
  }
  if (type.includes("integer"))
    for (const bad of [1.5, -1, 2 ** 53 + 2, 1e308, "1"]) wrong.push({ kind: JSON.stringify(bad), value: bad });
  return wrong;
}

/** Every body with exactly one fault: not an object, an unknown field, each required field missing, each property wrong. */
export function bodyFaults(schema: JsonSchema, valid: Record<string, unknown>): BodyFault[] {
  const props = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const required: string[] = schema.required ?? [];
  return [
    { kind: "unknown field", body: { ...valid, injected_field: "x" } },
    ...[[], "body", null, 1].map((body) => ({ kind: "not an object", body })),
    ...required.map((k) => ({
      kind: `missing ${k}`,
      body: Object.fromEntries(Object.entries(valid).filter(([key]) => key !== k)),
    })),
    ...props.flatMap(([name, p]) =>
      wrongValues(p).map(({ kind, value }) => ({ kind: `${name}: ${kind}`, body: { ...valid, [name]: value } })),
    ),
  ];
}

/**
 * The values a query parameter is sent, one at a time, by its kind: each class of bad value for that
 * kind (a number's text, bounds and overflow; a date's impossible days and other formats; a value
 * outside an enum; a string's LIKE wildcards (both in one value), SQL, NUL and 5,000 characters), and the empty value.
 */
export const BAD_QUERY_VALUES = {
  number: ["", "abc", "1.5", "-1", "0", "1e999", "99999999999999999999"],
  boolean: ["", "abc", "2"],
  enum: ["", "not-a-listed-value"],
  date: ["", "abc", "2026-02-30", "2026-13-01", "12/01/2026"],
  string: ["", "%_", "'; DROP TABLE tickets; --", "\u0000", "a".repeat(5000)],
};

type QueryParameter = { name: string; schema?: JsonSchema };

function kindOf(schema: JsonSchema = {}): keyof typeof BAD_QUERY_VALUES {
  const s = schema.type === "array" ? (schema.items ?? {}) : schema;
  const member = [s, ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  if (member.some((m: JsonSchema) => m.enum)) return "enum";
  const types = typesOf(s);
  if (types.includes("integer") || types.includes("number")) return "number";
  if (types.includes("boolean")) return "boolean";
  if (member.some((m: JsonSchema) => m.format === "date" || m.format === "date-time")) return "date";
  return "string";
}

/** Every query string with one fault: each declared parameter with each bad value of its kind, and a parameter not declared. */
export function queryFaults(params: QueryParameter[]): string[] {
  return [
    ...params.flatMap((p) =>
      BAD_QUERY_VALUES[kindOf(p.schema)].map((v) => new URLSearchParams([[p.name, v]]).toString()),
    ),
    "not_a_declared_parameter=1",
  ];
}

/** The random fuzz (`npm run test:deep`): up to three faults of the fixed list in one body, or a random non-object. */
export function randomBodies(schema: JsonSchema, valid: Record<string, unknown>): fc.Arbitrary<BodyFault> {
  const props = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const fieldFaults = props.flatMap(([name, p]) => wrongValues(p).map(({ kind, value }) => ({ name, kind, value })));
  const missing = (schema.required ?? []).map((name: string) => ({ name, kind: "missing", value: undefined }));
  const all = [...fieldFaults, ...missing, { name: "injected_field", kind: "unknown field", value: "x" }];
  const combined = fc.uniqueArray(fc.constantFrom(...all), { minLength: 1, maxLength: 3 }).map((faults) => {
    const body: Record<string, unknown> = { ...valid };
    for (const f of faults) {
      if (f.value === undefined) delete body[f.name];
      else body[f.name] = f.value;
    }
    return { kind: faults.map((f) => `${f.name}: ${f.kind}`).join(", "), body };
  });
  const notAnObject = fc
    .oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer()))
    .map((body) => ({ kind: "not an object", body }));
  return fc.oneof(combined, notAnObject);
}

/** The random fuzz (`npm run test:deep`): up to four pairs of declared or random names and random or bad values. */
export function randomQueries(params: string[]): fc.Arbitrary<string> {
  return fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...params), fc.string({ minLength: 1, maxLength: 12 })),
        fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...Object.values(BAD_QUERY_VALUES).flat())),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => new URLSearchParams(pairs).toString());
}
