import { type Doc, deref, type JsonSchema, type Operation } from "./openapi";

/**
 * Every filter a list declares, at once: what a client composing a query from the document may
 * send. Deterministic: one value a parameter, in range, chosen per its schema or from a row.
 */

type Param = { name: string; schema: JsonSchema; explode: boolean };

/** A list operation: it takes `page` and `page_size` (core/list-document.ts). */
export const isList = (op: Operation) =>
  ["page", "page_size"].every((n) => (op.parameters ?? []).some((p) => p.in === "query" && p.name === n));

/** The query parameters of an operation that filter (not `page`, `page_size`, `order_by`). */
export function filterParams(doc: Doc, op: Operation): Param[] {
  return (op.parameters ?? [])
    .filter((p) => p.in === "query" && p.schema && !["page", "page_size", "order_by"].includes(p.name))
    .map((p) => ({
      name: p.name,
      schema: deref(doc, p.schema!),
      explode: (p as { explode?: boolean }).explode !== false,
    }));
}

const typeOf = (s: JsonSchema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;

/**
 * A value in range for one filter's schema: its example, else the simplest. A list takes as many
 * items as allowed when they are free text (search terms: each its own condition), else one.
 */
export function inRangeValue(s: JsonSchema): unknown {
  if (typeOf(s) === "array") {
    const item = s.items ?? {};
    const free = typeOf(item) === "string" && !item.enum && !item.format && !item.pattern && !item.anyOf;
    return free ? Array.from({ length: s.maxItems ?? 1 }, (_, i) => `t${i}`) : [inRangeValue(item)];
  }
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  switch (typeOf(s)) {
    case "integer":
    case "number":
      return Math.max(1, s.minimum ?? 1);
    case "boolean":
      return true;
    case "string":
      if (s.format === "date") return "2026-12-01";
      if (s.anyOf?.some((a: JsonSchema) => a.format === "date-time")) return "2026-12-01T10:00:00Z";
      if (s.pattern) return "10:00:00";
      return "x";
    default:
      return "1";
  }
}

/** The query string of `values` (by parameter name), written as the document says each is. */
export function queryOf(params: Param[], values: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const p of params) {
    if (!(p.name in values)) continue;
    const v = values[p.name];
    if (Array.isArray(v)) {
      if (p.explode) for (const x of v) q.append(p.name, String(x));
      else q.append(p.name, v.map(String).join(","));
    } else q.append(p.name, String(v));
  }
  return q.toString();
}

/** Every filter of `op` at once, each at an in-range value. */
export function everyFilter(doc: Doc, op: Operation): { count: number; query: string } {
  const params = filterParams(doc, op);
  return {
    count: params.length,
    query: queryOf(params, Object.fromEntries(params.map((p) => [p.name, inRangeValue(p.schema)]))),
  };
}

const SUFFIX = /__(in|gte|lte|gt|lt|isnull)$/;

/**
 * Every filter of `op` at once, each at a value `row` meets (as the list serves it): `field` and
 * `field__in` its value, `__gte`/`__lte` its value, `__gt`/`__lt` just past it, `__isnull` whether
 * it is null. A filter the row cannot meet (a range on a null field) or whose field the row does
 * not show is left out, and named in `left`. `search`, when given, is that term as many times as
 * the list takes (each its own condition).
 */
export function filtersMatching(
  doc: Doc,
  op: Operation,
  row: Record<string, unknown>,
  search?: string,
): { query: string; used: string[]; left: string[] } {
  const all = filterParams(doc, op);
  const params = all.filter((p) => p.name !== "search");
  const values: Record<string, unknown> = {};
  const terms = all.find((p) => p.name === "search")?.schema.maxItems;
  if (search && terms) values.search = Array.from({ length: terms }, () => search);
  const left: string[] = [];
  for (const p of params) {
    const suffix = SUFFIX.exec(p.name)?.[1] ?? "";
    const field = suffix ? p.name.slice(0, -suffix.length - 2) : p.name;
    // A field served as its record (`item`, `customer` for `customer_id`) filters on the record's id.
    let v = row[field] === undefined && field.endsWith("_id") ? row[field.slice(0, -3)] : row[field];
    if (v && typeof v === "object" && "id" in v) v = (v as { id: unknown }).id;
    if (suffix === "isnull") {
      if (v === undefined) left.push(p.name);
      else values[p.name] = v === null;
      continue;
    }
    if (v === undefined || v === null || typeof v === "object") {
      left.push(p.name);
      continue;
    }
    const item = typeOf(p.schema) === "array" ? (p.schema.items ?? {}) : p.schema;
    values[p.name] =
      suffix === "gt" || suffix === "lt" ? past(item, v as string | number | boolean, suffix === "gt" ? -1 : 1) : v;
    if (suffix === "in") values[p.name] = [values[p.name]];
  }
  return { query: queryOf(all, values), used: Object.keys(values), left };
}

/** A value just below (-1) or above (+1) `v`, of the filter's type. */
function past(s: JsonSchema, v: string | number | boolean, dir: -1 | 1): unknown {
  if (typeof v === "number") return v + dir;
  if (typeof v !== "string") return v;
  if (s.pattern) return dir < 0 ? "00:00:00" : "23:59:59";
  return dir < 0 ? "2000-01-01" : "2999-12-31";
}
