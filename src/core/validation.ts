import { z } from "@hono/zod-openapi";

/**
 * Validation messages in plain words, for every schema of the service (zod's global error map).
 * A schema's own message (`.regex(re, "Must be …")`) still wins; this only replaces zod's
 * internal wording ("expected nonoptional, received undefined"). Enum errors read as the list
 * helper's do ("Must be one of: a, b."), so the body and the query say them the same way.
 */

const KIND: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  record: "an object",
  tuple: "a list",
  date: "a date",
  null: "null",
};

const quoted = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
const plural = (n: number | bigint, one: string, many: string) => `${n} ${n === 1 || n === 1n ? one : many}`;

const FORMATS: Record<string, string> = {
  email: "an email address",
  url: "a URL",
  uuid: "a UUID",
  date: "a date, YYYY-MM-DD",
  datetime: "an ISO 8601 date-time with offset",
  time: "a time, HH:MM:SS",
  e164: "a phone number in international format (+9665…)",
  base64: "base64 text",
  base64url: "base64url text",
};

type Issue = Parameters<NonNullable<Parameters<typeof z.config>[0]>["customError"] & {}>[0];

export function plainMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "Required.";
      if (issue.expected === "nonoptional" || issue.expected === "never") return "Required.";
      return `Must be ${KIND[issue.expected] ?? issue.expected}.`;
    case "invalid_value":
      return issue.values.length === 1
        ? `Must be ${quoted(issue.values[0])}.`
        : `Must be one of: ${issue.values.map(quoted).join(", ")}.`;
    case "too_small": {
      const n = issue.minimum;
      if (issue.origin === "string")
        return issue.exact
          ? `Exactly ${plural(n, "character", "characters")}.`
          : n === 1
            ? "Must not be empty."
            : `At least ${plural(n, "character", "characters")}.`;
      if (issue.origin === "array" || issue.origin === "set")
        return n === 1 ? "Give at least one item." : `At least ${plural(n, "item", "items")}.`;
      return issue.inclusive === false ? `Must be greater than ${n}.` : `Must be at least ${n}.`;
    }
    case "too_big": {
      const n = issue.maximum;
      if (issue.origin === "string")
        return issue.exact
          ? `Exactly ${plural(n, "character", "characters")}.`
          : `At most ${plural(n, "character", "characters")}.`;
      if (issue.origin === "array" || issue.origin === "set") return `At most ${plural(n, "item", "items")}.`;
      return issue.inclusive === false ? `Must be less than ${n}.` : `Must be at most ${n}.`;
    }
    case "invalid_format":
      if (issue.format === "regex") return "Has the wrong format.";
      if (issue.format === "starts_with") return "Has the wrong beginning.";
      return `Must be ${FORMATS[issue.format] ?? `in ${issue.format} format`}.`;
    case "not_multiple_of":
      return `Must be a multiple of ${issue.divisor}.`;
    case "invalid_union":
      return "Does not match any accepted form; see the field's schema in /docs.";
    case "invalid_key":
      return "Has an invalid key.";
    case "invalid_element":
      return "Has an invalid value.";
    case "unrecognized_keys":
      return "Unknown field; remove it.";
    default:
      return undefined;
  }
}

z.config({ customError: plainMessage });
