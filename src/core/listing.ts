import { z } from "@hono/zod-openapi";
import { asc, type Column, desc, eq, gt, gte, isNotNull, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { ApiError, addFieldError, type FieldErrors } from "./errors";
import { DATE_TIME_WORDS, DATE_WORDS, hundredthsOf, MONEY_MAX } from "./fields";
import {
  fieldsOf,
  IN_MAX,
  INCLUDE_DELETED,
  type ListField,
  type ListQuery,
  type ListSpec,
  NUMBER_FILTER_BOUND,
  PAGE_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  type Page,
  RANGE_KINDS,
  SEARCH_MAX,
  STRING_FILTER_MAX,
  TERM_MAX,
} from "./list-spec";
import { allOf, containsText, inList, inlineValue, offIndex } from "./sql";
import { isIsoDate, isIsoDateTime, normaliseTime } from "./time";

export { listQuerySchema } from "./list-document";
export { type ListParent, listPage, listPageWith, PAGE_ROWS } from "./list-page";
export type { FieldKind, ListField, ListQuery, ListSpec, Page } from "./list-spec";
export { fieldsOf, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, TERM_MAX } from "./list-spec";

/**
 * The one list helper: `page`, `page_size`, repeated `search`, `order_by` (`-field` descending,
 * comma-separated for several) and filters named after the resource's fields, producing the
 * spec's envelope. Filters take Django-style suffixes: `field`, `field__in` (comma-separated),
 * `field__gte`/`__lte`/`__gt`/`__lt` on ordered kinds, `field__isnull` on nullable fields.
 */

export { offIndex } from "./sql";

function allowedParams(spec: ListSpec): string[] {
  const names = ["page", "page_size", "order_by", ...(spec.search ? ["search"] : [])];
  if (spec.sync?.softDeleted) names.push(INCLUDE_DELETED);
  for (const [name, f] of Object.entries(fieldsOf(spec))) {
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
    case "number": {
      // As a JSON number is written (`5e-324` too), strictly between -10^13 and 10^13.
      if (!/^-?\d{1,16}(\.\d+)?(e[+-]?\d{1,3})?$/i.test(v)) return { ok: false, message: "Must be a number." };
      const n = Number(v);
      return Math.abs(n) < NUMBER_FILTER_BOUND
        ? { ok: true, value: n + 0 }
        : { ok: false, message: `Must be a number above -${NUMBER_FILTER_BOUND} and below ${NUMBER_FILTER_BOUND}.` };
    }
    case "money": {
      // Written as a JSON number is, read as a body's amount is (core/fields' `hundredthsOf`).
      if (!/^-?\d{1,15}(\.\d+)?(e[+-]?\d{1,3})?$/i.test(v))
        return { ok: false, message: "Must be an amount with at most 2 decimals." };
      const minor = hundredthsOf(Number(v), { min: -MONEY_MAX, max: MONEY_MAX });
      return typeof minor === "number" ? { ok: true, value: minor } : { ok: false, message: minor.message };
    }
    case "date":
      return isIsoDate(v) ? { ok: true, value: v } : { ok: false, message: DATE_WORDS };
    case "datetime":
      if (isIsoDate(v)) return { ok: true, value: v };
      return isIsoDateTime(v)
        ? { ok: true, value: new Date(v).toISOString() }
        : { ok: false, message: `${DATE_TIME_WORDS.slice(0, -1)}; or a date.` };
    case "time": {
      const t = normaliseTime(v);
      return t ? { ok: true, value: t } : { ok: false, message: "Must be a time, HH:MM:SS." };
    }
    case "boolean":
      if (v === "true" || v === "1") return { ok: true, value: true };
      if (v === "false" || v === "0") return { ok: true, value: false };
      return { ok: false, message: "Must be true or false." };
    case "string":
      if ([...v].length > STRING_FILTER_MAX) return { ok: false, message: `At most ${STRING_FILTER_MAX} characters.` };
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
  const page = intParam("page", 1, PAGE_MAX);
  const pageSize = intParam("page_size", PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);

  const terms = params
    .getAll("search")
    .map((t) => t.trim())
    .filter(Boolean);
  // Characters as the document's `maxLength` counts them: code points, not UTF-16 units.
  const tooLong = terms.some((t) => [...t].length > TERM_MAX);
  if (terms.length > SEARCH_MAX) fail("search", `At most ${SEARCH_MAX} search terms.`);
  else if (tooLong) fail("search", `A search term has at most ${TERM_MAX} characters.`);
  const searches = spec.search && terms.length <= SEARCH_MAX && !tooLong ? terms.map(spec.search) : [];
  const searchDriven = searches.some((s) => s.indexed);

  const conditions: SQL[] = searches.map((s) => s.where);
  const given: Record<string, unknown> = Object.create(null);
  if (searches.length) given.search = terms;
  const includeDeletedRaw = allowedSet.has(INCLUDE_DELETED) ? params.get(INCLUDE_DELETED) : null;
  if (includeDeletedRaw !== null && includeDeletedRaw !== "true" && includeDeletedRaw !== "false")
    fail(INCLUDE_DELETED, "Must be true or false.");
  const includeDeleted = includeDeletedRaw === "true";
  if (includeDeleted) given[INCLUDE_DELETED] = true;
  const fields = fieldsOf(spec);
  for (const [name, f] of Object.entries(fields)) {
    // Values are parsed to their SQL types above, so the column's own mapping is not needed here.
    const col = (searchDriven ? offIndex(f.column) : f.column) as SQL;
    for (const op of ["", "__in", "__gte", "__lte", "__gt", "__lt", "__isnull"] as const) {
      const key = name + op;
      const raw = allowedSet.has(key) ? params.get(key) : null;
      if (raw === null) continue;
      if (op === "__isnull") {
        if (raw !== "true" && raw !== "false") fail(key, "Must be true or false.");
        else {
          conditions.push(raw === "true" ? isNull(col) : isNotNull(col));
          given[key] = raw === "true";
        }
        continue;
      }
      const parts = op === "__in" ? raw.split(",") : [raw];
      if (op === "__in" && (parts.length === 0 || parts.length > IN_MAX)) {
        fail(key, `Give 1 to ${IN_MAX} comma-separated values.`);
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
      given[key] = op === "__in" ? values : v;
      // A date given for a date-time field compares with the whole day.
      const dayOf = f.kind === "datetime" && typeof v === "string" && v.length === 10;
      // Parsed values other than free text are written in the statement: D1 binds at most 100.
      const lit = (x: string | number | boolean) => (f.kind === "string" ? sql`${x}` : inlineValue(x));
      switch (op) {
        case "":
          conditions.push(dayOf ? sql`substr(${col}, 1, 10) = ${lit(v)}` : eq(col, lit(v)));
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
          conditions.push(gte(col, lit(v)));
          break;
        case "__lte":
          conditions.push(dayOf ? lt(col, lit(`${v}T24`)) : lte(col, lit(v)));
          break;
        case "__gt":
          conditions.push(dayOf ? gt(col, lit(`${v}T24`)) : gt(col, lit(v)));
          break;
        case "__lt":
          conditions.push(lt(col, lit(v)));
          break;
      }
    }
  }

  const orderBy: SQL[] = [];
  const order: { field: string; desc: boolean }[] = [];
  const orderable = Object.entries(fields)
    .filter(([, f]) => f.orderable !== false)
    .map(([n]) => n);
  const orderRaw = params.get("order_by") ?? spec.defaultOrder;
  const ordered = new Set<string>();
  for (const part of orderRaw.split(",")) {
    const desc_ = part.startsWith("-");
    const name = desc_ ? part.slice(1) : part;
    const f = fields[name];
    if (!f || f.orderable === false) {
      fail("order_by", `Unknown field \`${name}\`. Allowed: ${orderable.join(", ")} (prefix with - for descending).`);
      continue;
    }
    // Once each: a repeat orders nothing more, and D1 refuses an ORDER BY of more than 100 terms.
    if (ordered.has(name)) {
      fail("order_by", `\`${name}\` is given twice; give each field once.`);
      continue;
    }
    ordered.add(name);
    orderBy.push(desc_ ? desc(f.column) : asc(f.column));
    order.push({ field: name, desc: desc_ });
  }
  if (!orderRaw.split(",").some((p) => p.replace(/^-/, "") === "id")) {
    orderBy.push(desc(spec.idColumn));
    order.push({ field: "id", desc: true });
  }

  if (Object.keys(errors).length > 0) throw ApiError.validation(errors, "Invalid query parameters; see `errors`.");
  return {
    page,
    pageSize,
    where: allOf(conditions),
    orderBy,
    order,
    searchDriven,
    given,
    includeDeleted,
  };
}

export type Envelope<T> = { count: number; next: string | null; previous: string | null; results: T[] };

/** A page whose rows are shaped by `view`. */
export function mapPage<A, B>(page: Page<A>, view: (row: A) => B): Page<B> {
  return { ...page, results: page.results.map(view) };
}

function pageUrl(url: URL, page: number): string {
  const u = new URL(url);
  u.searchParams.set("page", String(page));
  return u.toString();
}

/** The spec's envelope of a page: `next` and `previous` are absolute URLs of the same request. */
export function toEnvelope<T>(url: URL, page: Page<T>): Envelope<T> {
  const lastPage = Math.max(1, Math.ceil(page.count / page.pageSize));
  return {
    count: page.count,
    next: page.page < lastPage ? pageUrl(url, page.page + 1) : null,
    previous: page.page > 1 ? pageUrl(url, page.page - 1) : null,
    results: page.results,
  };
}

/** The route side of a list: the request's query parsed against the resource's spec. */
export function listQueryOf(c: Context, spec: ListSpec): ListQuery {
  return parseListQuery(new URL(c.req.url).searchParams, spec);
}

/** The route side of a list: the envelope of the page, with links to the request's neighbours. */
export function envelopeOf<T>(c: Context, page: Page<T>): Envelope<T> {
  return toEnvelope(new URL(c.req.url), page);
}
/**
 * A search condition over plain columns: the term appears in any of them (case-insensitive for
 * ASCII), whatever its length or script (`containsText`: no LIKE pattern, whose length D1 limits).
 */
export function searchColumns(...columns: (Column | SQL)[]) {
  return (term: string) => ({
    where: or(...columns.map((c) => containsText(c, term)))!,
    indexed: false,
  });
}

/**
 * The list of a named record (a category, a tag, a variant): `id`, both names, `ordering` and
 * `created_at` (where the table has it) as fields, search over both names, ordered by `ordering`;
 * `extra` adds its own.
 */
export function namedListSpec(
  t: { id: Column; nameEn: Column; nameAr: Column; ordering: Column; createdAt?: Column },
  extra: ListSpec["fields"] = {},
): ListSpec {
  return {
    fields: {
      id: { column: t.id, kind: "integer" },
      name_en: { column: t.nameEn, kind: "string" },
      name_ar: { column: t.nameAr, kind: "string" },
      ordering: { column: t.ordering, kind: "integer" },
      ...(t.createdAt && { created_at: { column: t.createdAt, kind: "datetime" as const } }),
      ...extra,
    },
    search: searchColumns(t.nameEn, t.nameAr),
    defaultOrder: "ordering",
    idColumn: t.id,
  };
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
