import { z } from "@hono/zod-openapi";
import { MONEY_MAX } from "./fields";
import {
  fieldsOf,
  IN_MAX,
  INCLUDE_DELETED,
  INTEGER_FILTER_MAX,
  type ListField,
  type ListSpec,
  NUMBER_FILTER_BOUND,
  PAGE_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  RANGE_KINDS,
  SEARCH_MAX,
  STRING_FILTER_MAX,
  TERM_MAX,
} from "./list-spec";
import { TIME_OF_DAY } from "./time";

/** The JSON Schema of one value of a field, as `parseValue` (listing.ts) accepts it. */
function valueSchema(f: ListField): Record<string, unknown> {
  switch (f.kind) {
    case "integer":
      return { type: "integer", minimum: -INTEGER_FILTER_MAX, maximum: INTEGER_FILTER_MAX };
    case "number":
      return { type: "number", exclusiveMinimum: -NUMBER_FILTER_BOUND, exclusiveMaximum: NUMBER_FILTER_BOUND };
    case "money":
      // As a body's amount (core/fields' `money`), but signed: float noise is no decimal, so no `multipleOf`.
      return { type: "number", minimum: -MONEY_MAX, maximum: MONEY_MAX };
    case "date":
      return { type: "string", format: "date" };
    case "datetime":
      // A date stands for the whole day.
      return { type: "string", anyOf: [{ format: "date-time" }, { format: "date" }] };
    case "time":
      // Not `format: time`: that one requires an offset, and this is a time of day without one.
      return { type: "string", pattern: TIME_OF_DAY.source };
    case "boolean":
      return { type: "boolean" };
    case "string":
      return { type: "string", maxLength: STRING_FILTER_MAX, ...(f.values && { enum: [...f.values] }) };
  }
}

const RANGE_WORDS = { gte: "at least", lte: "at most", gt: "above", lt: "below" } as const;

/**
 * The query parameters of a list, for the OpenAPI document, generated from the same spec: each
 * declares what `parseListQuery` accepts (types, formats, bounds, enums, how lists are written).
 * `parseListQuery` stays their validator (it names every allowed parameter in its errors), so
 * the zod schemas here let anything through.
 */
export function listQuerySchema(spec: ListSpec) {
  const param = (schema: Record<string, unknown>, style?: { style: "form"; explode: boolean }) =>
    z
      .unknown()
      .optional()
      .openapi({ ...schema, ...(style && { param: style }) });
  /** A comma-separated list: `?status__in=pending,confirmed`. */
  const commaSeparated = { style: "form", explode: false } as const;
  const fields = fieldsOf(spec);
  const orderable = Object.entries(fields)
    .filter(([, f]) => f.orderable !== false)
    .map(([n]) => n);
  const shape: Record<string, z.ZodType> = {
    page: param({ type: "integer", minimum: 1, maximum: PAGE_MAX, default: 1, description: "Page number, from 1." }),
    page_size: param({
      type: "integer",
      minimum: 1,
      maximum: PAGE_SIZE_MAX,
      default: PAGE_SIZE_DEFAULT,
      description: "Results per page.",
    }),
    order_by: param(
      {
        type: "array",
        items: { type: "string", enum: orderable.flatMap((n) => [n, `-${n}`]) },
        minItems: 1,
        maxItems: orderable.length,
        uniqueItems: true,
        default: spec.defaultOrder.split(","),
        description:
          "Comma-separated fields to order on, each at most once, `-field` for descending; `id` breaks ties.",
      },
      commaSeparated,
    ),
  };
  if (spec.search) {
    shape.search = param(
      {
        type: "array",
        items: { type: "string", maxLength: TERM_MAX },
        maxItems: SEARCH_MAX,
        description: spec.searchDescription ?? "Search term; may repeat (all terms must match).",
      },
      { style: "form", explode: true },
    );
  }
  if (spec.sync?.softDeleted) {
    shape[INCLUDE_DELETED] = param({
      type: "boolean",
      default: false,
      description: "`true`: deleted records come back too, with `is_deleted` and `deleted_at`, for a mirror to drop.",
    });
  }
  for (const [name, f] of Object.entries(fields)) {
    const value = valueSchema(f);
    const note =
      f.kind === "datetime"
        ? " A date matches the whole day."
        : f.kind === "money"
          ? " In major units, at most 2 decimals."
          : "";
    shape[name] = param({ ...value, description: `\`${name}\` equals the value.${note}` });
    shape[`${name}__in`] = param(
      {
        type: "array",
        items: value,
        minItems: 1,
        maxItems: IN_MAX,
        description: `\`${name}\` is one of these comma-separated values.`,
      },
      commaSeparated,
    );
    if (RANGE_KINDS.has(f.kind)) {
      for (const [op, words] of Object.entries(RANGE_WORDS)) {
        shape[`${name}__${op}`] = param({ ...value, description: `\`${name}\` is ${words} the value.${note}` });
      }
    }
    if (f.nullable) {
      shape[`${name}__isnull`] = param({
        type: "boolean",
        description: `\`true\`: \`${name}\` is null; \`false\`: it is not.`,
      });
    }
  }
  return z.object(shape);
}
