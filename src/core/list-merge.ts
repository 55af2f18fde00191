import { ApiError } from "./errors";
import type { ListQuery, Page } from "./list-spec";

/**
 * One page of a list whose rows live on several shards (docs/shards.md: a sales channel's views of
 * what it sold at providers on other shards). Each part reads the first `page × page_size` rows of
 * its shard in the list's order (`windowOf`), the parts at once; the page is cut from their merge,
 * and the count is the sum of theirs: exact, as one statement's would be. A deep page costs each
 * shard its whole prefix, which the list's page bound keeps finite.
 */

/** The query a part runs: the first page, as long as every page up to the one asked. */
export const windowOf = (q: ListQuery): ListQuery => ({ ...q, page: 1, pageSize: q.page * q.pageSize });

type Value = string | number | boolean | null | undefined;

/** SQLite's order of a column's values: NULL first, then numbers, then text. */
function compareValues(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  const x = typeof a === "boolean" ? Number(a) : a;
  const y = typeof b === "boolean" ? Number(b) : b;
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (typeof x === "number") return -1;
  if (typeof y === "number") return 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The page `q` asks of the parts' windows, merged in `q.order` over the rows' fields (`fieldOf`: by
 * default the list's field names as the rows' keys, as in its views). Rows equal on every key (one id on two shards) keep the parts'
 * order, so a page is the same from one read to the next. Out of range is the 400 of one shard's list.
 */
export function mergePages<T>(
  q: ListQuery,
  parts: readonly Page<T>[],
  fieldOf: (row: T, field: string) => Value = (row, field) => (row as Record<string, Value>)[field],
): Page<T> {
  const count = parts.reduce((n, p) => n + p.count, 0);
  const lastPage = Math.max(1, Math.ceil(count / q.pageSize));
  if (q.page > lastPage) {
    throw ApiError.validation(
      { page: [`Out of range: this list has ${lastPage} page(s) of ${q.pageSize}.`] },
      "Invalid query parameters; see `errors`.",
    );
  }
  const order = q.order ?? [{ field: "id", desc: true }];
  const compare = (a: T, b: T) => {
    for (const { field, desc } of order) {
      const c = compareValues(fieldOf(a, field), fieldOf(b, field));
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  };
  // A stable sort: the parts' order breaks the remaining ties.
  const all = parts.flatMap((p) => p.results).sort(compare);
  const from = (q.page - 1) * q.pageSize;
  return { count, page: q.page, pageSize: q.pageSize, results: all.slice(from, from + q.pageSize) };
}

/**
 * The value of a list's field in a table's row (its column's key in the row), for `mergePages` over
 * rows rather than views: `spec.fields[field].column` is one of `table`'s columns.
 */
export function rowFieldOf(
  fields: Record<string, { column: unknown }>,
  columns: Record<string, unknown>,
): (row: unknown, field: string) => Value {
  const keyOf = new Map(
    Object.entries(fields).map(([name, f]) => [name, Object.keys(columns).find((k) => columns[k] === f.column)]),
  );
  return (row, field) => {
    const key = keyOf.get(field);
    return key === undefined ? undefined : (row as Record<string, Value>)[key];
  };
}
