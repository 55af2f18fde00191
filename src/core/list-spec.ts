import type { Column, SQL } from "drizzle-orm";

/**
 * What a list is made of: its fields, their kinds and the bounds of its parameters. Shared by the
 * parser of list queries (listing.ts) and their declaration in the document (list-document.ts).
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
  /**
   * A list a client can mirror (incremental sync): `modified_at` as a field (its range filters and
   * its order) and, when the rows are soft-deleted, `include_deleted=true` to see the deleted ones.
   * The list's scope must then honour `ListQuery.includeDeleted` (crud's `listed`).
   */
  sync?: { modifiedAt: Column; softDeleted: boolean };
};

/** A list's fields, with `modified_at` where it syncs. */
export function fieldsOf(spec: ListSpec): Record<string, ListField> {
  if (!spec.sync || spec.fields.modified_at) return spec.fields;
  return { ...spec.fields, modified_at: { column: spec.sync.modifiedAt, kind: "datetime" } };
}

export const INCLUDE_DELETED = "include_deleted";

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const PAGE_MAX = 1_000_000;
export const SEARCH_MAX = 5;
/**
 * Characters (code points) of one search term. Any length up to it is safe in every script: search
 * tests substrings with `containsText` (sql.ts) or an FTS5 phrase, never a LIKE pattern.
 */
export const TERM_MAX = 100;
export const IN_MAX = 100;
export const STRING_FILTER_MAX = 200;
/** Bounds of the values `parseValue` (listing.ts) reads: 15 digits for an integer, |n| < 10^13 for a number. */
export const INTEGER_FILTER_MAX = 999_999_999_999_999;
export const NUMBER_FILTER_BOUND = 10_000_000_000_000;

/** Kinds that take `__gte`, `__lte`, `__gt` and `__lt`. */
export const RANGE_KINDS = new Set<FieldKind>(["integer", "number", "money", "date", "datetime", "time"]);

export type ListQuery = {
  page: number;
  pageSize: number;
  where: SQL | undefined;
  orderBy: SQL[];
  /**
   * `orderBy` by the list's field names (the id last unless ordered on), for a page merged from
   * several shards (core/list-merge.ts). Absent from a query not parsed by `parseListQuery`.
   */
  order?: { field: string; desc: boolean }[];
  /** True when a search index drives the query (see `ListSpec.search`). */
  searchDriven: boolean;
  /**
   * The filters given, by parameter name (`status`, `created_at__gte`, …), with their parsed values
   * (a list for `__in`), and `search` with its terms: a service may count the unfiltered list, or
   * one filtered as a kept counter is, without counting rows (`listPageWith`'s `count`). Absent
   * from a query not parsed by `parseListQuery`: nothing is then known of its filters.
   */
  given?: Record<string, unknown>;
  /** `include_deleted=true`, on a list whose rows are soft-deleted: the scope keeps the deleted rows. */
  includeDeleted?: boolean;
};

/** One page of a list, as a service returns it; the route wraps it in the envelope (`envelopeOf`). */
export type Page<T> = { count: number; page: number; pageSize: number; results: T[] };
