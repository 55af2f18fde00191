import { z } from "@hono/zod-openapi";
import {
  and,
  asc,
  type Column,
  count,
  desc,
  eq,
  gt,
  gte,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { ApiError, addFieldError, type FieldErrors } from "./errors";
import { toMinor } from "./money";
import { inList, likeContains } from "./sql";
import { isIsoDate, isIsoDateTime, normaliseTime } from "./time";

/**
 * The one list helper: `page`, `page_size`, repeated `search`, `order_by` (`-field` descending,
 * comma-separated for several) and filters named after the resource's fields, producing the
 * spec's envelope. Filters take Django-style suffixes: `field`, `field__in` (comma-separated),
 * `field__gte`/`__lte`/`__gt`/`__lt` on ordered kinds, `field__isnull` on nullable fields.
 */

export type FieldKind = "integer" | "number" | "money" | "string" | "date" | "datetime" | "time" | "boolean";

export type ListField = {
  column: Column;
  kind: FieldKind;
  /** Allowed values, for enumerations such as `status`. */
  values?: readonly string[];
  nullable?: boolean;
  /** Defaults to true: every field of the resource can be ordered on. */
  orderable?: boolean;
};

export type ListSpec = {
  fields: Record<string, ListField>;
  /**
   * Builds the condition one search term must meet. `indexed` says it goes through a search
   * index: the query is then driven by the matches of the search (usually far fewer rows than a
   * filter's range), so the filters and the tenant scope are kept off their indexes.
   */
  search?: (term: string) => { where: SQL; indexed: boolean };
  searchDescription?: string;
  /** `order_by` used when the client sends none; `id` is always the last tie-breaker. */
  defaultOrder: string;
  idColumn: Column;
};

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
const SEARCH_MAX = 5;
const TERM_MAX = 100;

const RANGE_KINDS = new Set<FieldKind>(["integer", "number", "money", "date", "datetime", "time"]);

export type ListQuery = {
  page: number;
  pageSize: number;
  where: SQL | undefined;
  orderBy: SQL[];
  /** True when a search index drives the query (see `ListSpec.search`). */
  searchDriven: boolean;
};

/** `+column`: the same value, but SQLite will not use an index for it. */
export const offIndex = (column: Column): SQL => sql`+${column}`;

function allowedParams(spec: ListSpec): string[] {
  const names = ["page", "page_size", "order_by", ...(spec.search ? ["search"] : [])];
  for (const [name, f] of Object.entries(spec.fields)) {
    names.push(name, `${name}__in`);
    if (RANGE_KINDS.has(f.kind)) names.push(`${name}__gte`, `${name}__lte`, `${name}__gt`, `${name}__lt`);
    if (f.nullable) names.push(`${name}__isnull`);
  }
  return names;
}

function parseValue(
  f: ListField,
  raw: string,
): { ok: true; value: string | number | boolean } | { ok: false; message: string } {
  const v = raw.trim();
  switch (f.kind) {
    case "integer":
      return /^-?\d{1,15}$/.test(v) ? { ok: true, value: Number(v) } : { ok: false, message: "Must be an integer." };
    case "number":
      return /^-?\d{1,13}(\.\d+)?$/.test(v)
        ? { ok: true, value: Number(v) }
        : { ok: false, message: "Must be a number." };
    case "money": {
      const minor = toMinor(v);
      return minor === null
        ? { ok: false, message: "Must be an amount with at most 2 decimals." }
        : { ok: true, value: minor };
    }
    case "date":
      return isIsoDate(v) ? { ok: true, value: v } : { ok: false, message: "Must be a date, YYYY-MM-DD." };
    case "datetime":
      if (isIsoDate(v)) return { ok: true, value: v };
      return isIsoDateTime(v)
        ? { ok: true, value: new Date(v).toISOString() }
        : { ok: false, message: "Must be an ISO 8601 date-time with offset, or a date." };
    case "time": {
      const t = normaliseTime(v);
      return t ? { ok: true, value: t } : { ok: false, message: "Must be a time, HH:MM:SS." };
    }
    case "boolean":
      if (v === "true" || v === "1") return { ok: true, value: true };
      if (v === "false" || v === "0") return { ok: true, value: false };
      return { ok: false, message: "Must be true or false." };
    case "string":
      if (v.length > 200) return { ok: false, message: "At most 200 characters." };
      if (f.values && !f.values.includes(v)) return { ok: false, message: `Must be one of: ${f.values.join(", ")}.` };
      return { ok: true, value: v };
  }
}

/** Parses and validates a list request's query string against the resource's spec. */
export function parseListQuery(params: URLSearchParams, spec: ListSpec): ListQuery {
  // No prototype: parameter names such as `valueOf` or `__proto__` are plain keys here.
  const errors: FieldErrors = Object.create(null);
  const fail = (k: string, m: string) => addFieldError(errors, k, m);
  const allowed = allowedParams(spec);
  const allowedSet = new Set(allowed);
  for (const key of new Set(params.keys())) {
    if (!allowedSet.has(key)) {
      fail(key, `Unknown query parameter. Allowed: ${allowed.join(", ")}.`);
    } else if (key !== "search" && params.getAll(key).length > 1) {
      fail(key, "Give this parameter once.");
    }
  }

  const intParam = (key: string, dflt: number, max: number): number => {
    const raw = params.get(key);
    if (raw === null) return dflt;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      fail(key, `Must be an integer from 1 to ${max}.`);
      return dflt;
    }
    return Number(raw);
  };
  const page = intParam("page", 1, 1_000_000);
  const pageSize = intParam("page_size", PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);

  const terms = params
    .getAll("search")
    .map((t) => t.trim())
    .filter(Boolean);
  if (terms.length > SEARCH_MAX) fail("search", `At most ${SEARCH_MAX} search terms.`);
  else if (terms.some((t) => t.length > TERM_MAX)) fail("search", `A search term has at most ${TERM_MAX} characters.`);
  const searches =
    spec.search && terms.length <= SEARCH_MAX && terms.every((t) => t.length <= TERM_MAX) ? terms.map(spec.search) : [];
  const searchDriven = searches.some((s) => s.indexed);

  const conditions: SQL[] = searches.map((s) => s.where);
  for (const [name, f] of Object.entries(spec.fields)) {
    // Values are parsed to their SQL types above, so the column's own mapping is not needed here.
    const col = (searchDriven ? offIndex(f.column) : f.column) as SQL;
    for (const op of ["", "__in", "__gte", "__lte", "__gt", "__lt", "__isnull"] as const) {
      const key = name + op;
      const raw = allowedSet.has(key) ? params.get(key) : null;
      if (raw === null) continue;
      if (op === "__isnull") {
        if (raw !== "true" && raw !== "false") fail(key, "Must be true or false.");
        else conditions.push(raw === "true" ? isNull(col) : isNotNull(col));
        continue;
      }
      const parts = op === "__in" ? raw.split(",") : [raw];
      if (op === "__in" && (parts.length === 0 || parts.length > 100)) {
        fail(key, "Give 1 to 100 comma-separated values.");
        continue;
      }
      const values: (string | number | boolean)[] = [];
      for (const p of parts) {
        const r = parseValue(f, p);
        if (r.ok) values.push(r.value);
        else fail(key, r.message);
      }
      if (values.length !== parts.length) continue;
      const v = values[0]!;
      // A date given for a date-time field compares with the whole day.
      const dayOf = f.kind === "datetime" && typeof v === "string" && v.length === 10;
      switch (op) {
        case "":
          conditions.push(dayOf ? sql`substr(${col}, 1, 10) = ${v}` : eq(col, v));
          break;
        case "__in":
          conditions.push(
            inList(
              col,
              values.map((x) => (typeof x === "boolean" ? Number(x) : x)),
            ),
          );
          break;
        case "__gte":
          conditions.push(gte(col, v));
          break;
        case "__lte":
          conditions.push(dayOf ? lt(col, `${v}T24`) : lte(col, v));
          break;
        case "__gt":
          conditions.push(dayOf ? gt(col, `${v}T24`) : gt(col, v));
          break;
        case "__lt":
          conditions.push(lt(col, v));
          break;
      }
    }
  }

  const orderBy: SQL[] = [];
  const orderable = Object.entries(spec.fields)
    .filter(([, f]) => f.orderable !== false)
    .map(([n]) => n);
  const orderRaw = params.get("order_by") ?? spec.defaultOrder;
  for (const part of orderRaw.split(",")) {
    const desc_ = part.startsWith("-");
    const name = desc_ ? part.slice(1) : part;
    const f = spec.fields[name];
    if (!f || f.orderable === false) {
      fail("order_by", `Unknown field \`${name}\`. Allowed: ${orderable.join(", ")} (prefix with - for descending).`);
      continue;
    }
    orderBy.push(desc_ ? desc(f.column) : asc(f.column));
  }
  if (!orderRaw.split(",").some((p) => p.replace(/^-/, "") === "id")) orderBy.push(desc(spec.idColumn));

  if (Object.keys(errors).length > 0) throw ApiError.validation(errors, "Invalid query parameters; see `errors`.");
  return { page, pageSize, where: conditions.length ? and(...conditions) : undefined, orderBy, searchDriven };
}

export type Envelope<T> = { count: number; next: string | null; previous: string | null; results: T[] };

function pageUrl(url: URL, page: number): string {
  const u = new URL(url);
  u.searchParams.set("page", String(page));
  return u.toString();
}

/**
 * A page of `table`'s rows for a list request: validates the query against `spec`, then runs the
 * count and the page in one D1 batch (two statements, one round trip) and wraps the rows in the
 * envelope. `scope` is the tenant condition every row must meet; when the search drives the
 * query it gets `true`, and should keep its columns off their indexes (`offIndex`).
 */
export async function listPage<T extends SQLiteTable>(
  db: Db,
  url: URL,
  spec: ListSpec,
  opts: { table: T; scope: (searchDriven: boolean) => SQL },
): Promise<Envelope<T["$inferSelect"]>> {
  const q = parseListQuery(url.searchParams, spec);
  const scope = opts.scope(q.searchDriven);
  const where = q.where ? and(scope, q.where) : scope;
  const countQuery = db
    .select({ count: count() })
    .from(opts.table as SQLiteTable)
    .where(where);
  const rowsQuery = db
    .select()
    .from(opts.table as SQLiteTable)
    .where(where)
    .orderBy(...q.orderBy)
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [countRows, rows] = await db.batch([countQuery, rowsQuery]);
  const total = countRows[0]?.count ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / q.pageSize));
  if (q.page > lastPage) {
    throw ApiError.validation(
      { page: [`Out of range: this list has ${lastPage} page(s) of ${q.pageSize}.`] },
      "Invalid query parameters; see `errors`.",
    );
  }
  return {
    count: total,
    next: q.page < lastPage ? pageUrl(url, q.page + 1) : null,
    previous: q.page > 1 ? pageUrl(url, q.page - 1) : null,
    results: rows as T["$inferSelect"][],
  };
}

/**
 * The query parameters of a list, for the OpenAPI document, generated from the same spec.
 * `parseListQuery` is their validator (it names every allowed parameter in its errors), so the
 * schemas here only describe them.
 */
export function listQuerySchema(spec: ListSpec) {
  const param = (meta: Record<string, unknown>) => z.unknown().optional().openapi(meta);
  const shape: Record<string, z.ZodType> = {
    page: param({ type: "integer", minimum: 1, description: "Page number, from 1.", example: 1 }),
    page_size: param({
      type: "integer",
      minimum: 1,
      maximum: PAGE_SIZE_MAX,
      description: `Results per page (default ${PAGE_SIZE_DEFAULT}).`,
    }),
    order_by: param({
      type: "string",
      description: `Comma-separated fields, \`-field\` for descending. Default \`${spec.defaultOrder}\`. Fields: ${Object.keys(spec.fields).join(", ")}.`,
    }),
  };
  if (spec.search) {
    shape.search = param({
      type: "array",
      items: { type: "string", maxLength: TERM_MAX },
      maxItems: SEARCH_MAX,
      description: spec.searchDescription ?? "Search term; may repeat (all terms must match).",
    });
  }
  for (const [name, f] of Object.entries(spec.fields)) {
    const type =
      f.kind === "integer"
        ? "integer"
        : f.kind === "number" || f.kind === "money"
          ? "number"
          : f.kind === "boolean"
            ? "boolean"
            : "string";
    const format = f.kind === "date" ? "date" : f.kind === "datetime" ? "date-time" : undefined;
    shape[name] = param({
      type,
      format,
      enum: f.values ? [...f.values] : undefined,
      description: `Exact match on \`${name}\`.`,
    });
    shape[`${name}__in`] = param({ type: "string", description: `Comma-separated values of \`${name}\`.` });
    if (RANGE_KINDS.has(f.kind)) {
      for (const op of ["gte", "lte", "gt", "lt"]) {
        shape[`${name}__${op}`] = param({ type, format, description: `\`${name}\` ${op} the value.` });
      }
    }
    if (f.nullable) shape[`${name}__isnull`] = param({ type: "boolean", description: `\`${name}\` is (not) null.` });
  }
  return z.object(shape);
}

/** A search condition over plain columns: the term appears in any of them (case-insensitive for ASCII). */
export function searchColumns(...columns: (Column | SQL)[]) {
  return (term: string) => ({
    where: or(...columns.map((c) => sql`${c} LIKE ${likeContains(term)} ESCAPE '\\'`))!,
    indexed: false,
  });
}

/** The envelope schema of a list of `item`. */
export function envelopeSchema<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      count: z.number().int().openapi({ description: "Rows matching the filters, on all pages." }),
      next: z.string().url().nullable().openapi({ description: "Absolute URL of the next page, or null." }),
      previous: z.string().url().nullable().openapi({ description: "Absolute URL of the previous page, or null." }),
      results: z.array(item),
    })
    .openapi(name);
}
