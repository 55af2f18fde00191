import type { Context } from "hono";
import { ApiError, addFieldError, type FieldErrors } from "./errors";
import { type ListQuery, type ListSpec, parseListQuery } from "./listing";

/**
 * A list's query with one parameter that is not a column of the list (a connection's `direction`
 * depends on the calling store; a provider's plans need `provider_app_id`): read here, the rest
 * by the list's spec, and the errors of both answered together.
 */
export function listQueryWith<T>(
  c: Context,
  spec: ListSpec,
  name: string,
  opts: { required: boolean; parse: (raw: string) => T | undefined; expected: string },
): { q: ListQuery; value: T | undefined } {
  const params = new URLSearchParams(new URL(c.req.url).searchParams);
  const raw = params.getAll(name);
  params.delete(name);
  const errors: FieldErrors = Object.create(null);
  let value: T | undefined;
  if (raw.length > 1) addFieldError(errors, name, "Give this parameter once.");
  else if (raw.length === 0 && opts.required) addFieldError(errors, name, `Required: ${opts.expected}.`);
  else if (raw.length === 1) {
    value = opts.parse(raw[0]!.trim());
    if (value === undefined) addFieldError(errors, name, `Must be ${opts.expected}.`);
  }
  let q: ListQuery | undefined;
  try {
    q = parseListQuery(params, spec);
  } catch (e) {
    if (!(e instanceof ApiError) || !e.extra.errors) throw e;
    for (const [field, messages] of Object.entries(e.extra.errors))
      for (const m of messages)
        addFieldError(
          errors,
          field,
          m.startsWith("Unknown query parameter.") ? m.replace("Allowed: ", `Allowed: ${name}, `) : m,
        );
  }
  if (!q || Object.keys(errors).length) throw ApiError.validation(errors, "Invalid query parameters; see `errors`.");
  return { q, value };
}

/** A positive integer id as a query parameter gives it, or undefined. */
export function positiveId(raw: string): number | undefined {
  return /^[1-9]\d{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
}
