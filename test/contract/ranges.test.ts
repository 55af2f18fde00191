/**
 * The declared range of every parameter, walked from the document: for each operation's query
 * parameters and JSON body fields with bounds, values at and just past each bound (strings of the
 * maximum length in Latin and in Arabic, numbers at their minimum and maximum, the smallest and the
 * largest double, integers past 2^53, float noise on amounts), impossible dates and times for every
 * date and date-time (February 30, month 13, hour 25, year 0000), and for a body field of human text
 * (by its name: names, titles, descriptions, addresses, notes) a NUL and a value of direction marks
 * alone. Never a 5xx; a value in range is never refused for its range; a value past it is a 400
 * naming the field. It grows by itself as operations land.
 */
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minorOfMajor } from "../../src/core/money";
import { APP_1, createCustomerFor, customerTokenFor, tokenFor } from "../helpers/factories";
import { deref, type JsonSchema, minimalValue, type Operation, openApiDocument, operations } from "../helpers/openapi";
import { call } from "../helpers/request";

const doc = await openApiDocument();

type Value = { label: string; value: unknown; inRange: boolean };
type Case = Value & {
  /** A query parameter, or a field of the JSON body. */
  in: "query" | "body";
  /** The parameter's name, or the field's path in the body (`items.0.price`): the key of its errors. */
  field: string;
};

const SMALLEST = 5e-324;
const LARGEST = 1.7976931348623157e308;
const PAST_SAFE = 2 ** 53 + 2;
const SCRIPTS = [
  ["Latin", "a"],
  ["Arabic", "ب"],
] as const;

/** How a refusal for a range reads (core/validation.ts, listing.ts and the fields' own words). */
const RANGE_WORDS =
  /^(Must be (at least|at most|greater than|less than|an integer|a number|an amount|a real calendar date|an ISO 8601 date-time|one line of text)|At (least|most) \d|At most 2 decimals|Must not be empty|A search term has at most|A percentage is at most|Must (not contain control|contain a visible))/;

/** Dates and date-times that no calendar has: in a date field's format, past its range. */
const IMPOSSIBLE_DATES = ["2026-02-30", "2026-13-01", "0000-01-01"];
const IMPOSSIBLE_DATE_TIMES = ["2026-02-30T00:00:00Z", "2026-01-01T25:00:00Z", "0000-01-01T00:00:00Z"];
const isFormat = (s: JsonSchema, format: string): boolean =>
  s.format === format || [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some((x: JsonSchema) => x.format === format);

/** A body field a person writes for people to read, by its name (core/fields' `humanText`). */
const HUMAN_TEXT =
  /(^|_)(name|title|subtitle|description|notes?|reason|address[12]?|message|instructions|footer|body|district|route|holder|alt|tag|type|unit|vehicle|day|size|duration)(_en|_ar)?$/;
/** Human text that shows nothing or holds a control character; and direction marks between words, which is text. */
const TEXT_VALUES: Value[] = [
  { label: "direction marks alone", value: "\u200f\u200e\u202b\u2069", inRange: false },
  { label: "zero-width characters alone", value: "\u200b\u200d\ufeff", inRange: false },
  { label: "a NUL", value: "a\u0000b", inRange: false },
  { label: "an RLM between words", value: "مطعم\u200f 24", inRange: true },
];

const typeOf = (s: JsonSchema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
/** Money and other amounts of two decimals: float noise is the amount meant, more decimals are refused. */
const twoDecimals = (s: JsonSchema) => typeof s.description === "string" && /\b2 decimals\b/.test(s.description);

/**
 * Values at and just past the bounds of one scalar schema, each said to be in range or not. `all`
 * adds the extremes (the smallest and largest doubles, integers past 2^53, Latin text besides the
 * Arabic, float noise on amounts); the parameters a list derives from a field (`price__gte`,
 * `price__in`) share its parser and get one bound alone, at and past it.
 */
function scalarValues(s: JsonSchema, all: boolean): Value[] {
  const type = typeOf(s);
  const out: Value[] = [];
  if (type === "string" && !s.enum) {
    // Any text of the right length is valid only when no pattern or format constrains it further.
    const free = !s.pattern && !s.format && !s.anyOf && !s.oneOf;
    if (s.maxLength !== undefined) {
      // At the maximum in both scripts (Arabic is two bytes a letter); past it, once.
      if (free)
        for (const [script, ch] of all ? SCRIPTS : SCRIPTS.slice(1))
          out.push({ label: `${s.maxLength} characters, ${script}`, value: ch.repeat(s.maxLength), inRange: true });
      out.push({ label: `${s.maxLength + 1} characters, Arabic`, value: "ب".repeat(s.maxLength + 1), inRange: false });
    }
    if (s.minLength > 0 && all) {
      if (free) out.push({ label: `${s.minLength} characters`, value: "a".repeat(s.minLength), inRange: true });
      out.push({ label: `${s.minLength - 1} characters`, value: "a".repeat(s.minLength - 1), inRange: false });
    }
  }
  if (type === "string" && isFormat(s, "date-time"))
    for (const v of all ? IMPOSSIBLE_DATE_TIMES : IMPOSSIBLE_DATE_TIMES.slice(0, 1))
      out.push({ label: `the impossible date-time ${v}`, value: v, inRange: false });
  else if (type === "string" && isFormat(s, "date"))
    for (const v of all ? IMPOSSIBLE_DATES : IMPOSSIBLE_DATES.slice(0, 1))
      out.push({ label: `the impossible date ${v}`, value: v, inRange: false });
  if (type === "integer" || type === "number") {
    const integer = type === "integer";
    const money = !integer && twoDecimals(s);
    const within = (n: number) =>
      (s.minimum === undefined || n >= s.minimum) &&
      (s.maximum === undefined || n <= s.maximum) &&
      (s.exclusiveMinimum === undefined || n > s.exclusiveMinimum) &&
      (s.exclusiveMaximum === undefined || n < s.exclusiveMaximum) &&
      (integer ? Number.isSafeInteger(n) : !money || minorOfMajor(n) !== null);
    const step = integer ? 1 : 0.01;
    const candidates: [string, number][] = [];
    if (s.minimum !== undefined) candidates.push(["the minimum", s.minimum], ["below the minimum", s.minimum - step]);
    if (s.exclusiveMinimum !== undefined)
      candidates.push(["just above the bound", s.exclusiveMinimum + step], ["the exclusive bound", s.exclusiveMinimum]);
    if (s.maximum !== undefined) candidates.push(["the maximum", s.maximum], ["above the maximum", s.maximum + step]);
    if (s.exclusiveMaximum !== undefined)
      candidates.push(["just below the bound", s.exclusiveMaximum - step], ["the exclusive bound", s.exclusiveMaximum]);
    // A derived parameter: its upper bound (or its lower one when it has none), at and past it.
    if (!all) candidates.splice(0, candidates.length > 2 ? 2 : 0);
    if (all) {
      candidates.push(["the smallest positive double", SMALLEST], ["the largest double", LARGEST]);
      if (s.minimum === undefined && s.exclusiveMinimum === undefined) candidates.push(["the lowest double", -LARGEST]);
      if (integer) candidates.push(["an integer past 2^53", PAST_SAFE]);
      if (money) candidates.push(["float noise (0.1 + 0.2)", 0.1 + 0.2], ["3 decimals", 10.005], ["1e-9", 1e-9]);
    }
    const seen = new Set<number>();
    for (const [label, n] of candidates) {
      if (seen.has(n)) continue;
      seen.add(n);
      out.push({ label: `${label} (${n})`, value: n, inRange: within(n) });
    }
  }
  return out;
}

/** The cases of one body field (recursing into objects and arrays of objects), at `path`. */
function bodyCases(s: JsonSchema, path: string, depth: number): Case[] {
  const type = typeOf(s);
  if (type === "object" && s.properties && depth < 3) {
    return Object.entries(s.properties as Record<string, JsonSchema>).flatMap(([k, p]) =>
      bodyCases(p, path ? `${path}.${k}` : k, depth + 1),
    );
  }
  if (type === "array") {
    const item = s.items ?? {};
    const out: Case[] =
      typeOf(item) === "object"
        ? bodyCases(item, `${path}.0`, depth + 1)
        : scalarValues(item, true).map((v) => ({
            ...v,
            label: `one item of ${v.label}`,
            value: [v.value],
            in: "body",
            field: path,
          }));
    if (s.maxItems !== undefined) {
      const one = minimalValue(item);
      out.push({
        label: `${s.maxItems + 1} items`,
        value: Array.from({ length: s.maxItems + 1 }, () => one),
        inRange: false,
        in: "body",
        field: path,
      });
    }
    if (s.minItems > 0) out.push({ label: "no item", value: [], inRange: false, in: "body", field: path });
    return out;
  }
  const text = type === "string" && !s.enum && !s.pattern && !s.format && HUMAN_TEXT.test(path.split(".").at(-1)!);
  return [...scalarValues(s, true), ...(text ? TEXT_VALUES : [])].map((v) => ({ ...v, in: "body", field: path }));
}

/**
 * The cases of one query parameter; an array is one item per case, or as many items as allowed and
 * one more. A parameter a list derives from a field (`field__lte`, `field__in`) gets one bound.
 */
function queryCases(name: string, s: JsonSchema): Case[] {
  const all = !name.includes("__");
  if (typeOf(s) !== "array") return scalarValues(s, all).map((v) => ({ ...v, in: "query", field: name }));
  const item = s.items ?? {};
  const out: Case[] = scalarValues(item, all).map((v) => ({
    ...v,
    label: `one item of ${v.label}`,
    value: [v.value],
    in: "query",
    field: name,
  }));
  if (s.maxItems !== undefined) {
    // As many items as allowed and one more: search terms as long as allowed, in the script of more
    // bytes; the values of a derived list (`field__in`) as simple as they come.
    const long = all && typeOf(item) === "string" && !item.enum && !item.pattern && !item.format && item.maxLength;
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        long ? "ب".repeat(item.maxLength) : (item.enum?.[i % item.enum.length] ?? minimalValue(item)),
      );
    if (all && !s.uniqueItems)
      out.push({ label: `${s.maxItems} items`, value: many(s.maxItems), inRange: true, in: "query", field: name });
    out.push({
      label: `${s.maxItems + 1} items`,
      value: many(s.maxItems + 1),
      inRange: false,
      in: "query",
      field: name,
    });
  }
  return out;
}

function casesOf(op: Operation): Case[] {
  const query = (op.parameters ?? [])
    .filter((p) => p.in === "query" && p.schema)
    .flatMap((p) => queryCases(p.name, deref(doc, p.schema!)));
  const body = op.requestBody?.content["application/json"]?.schema;
  return [...query, ...(body ? bodyCases(deref(doc, body), "", 0) : [])];
}

/** Sets `value` at `path` ("items.0.price") in a copy of `base`. */
function withValue(base: unknown, path: string, value: unknown): unknown {
  const root = structuredClone(base ?? {}) as Record<string, unknown>;
  const keys = path.split(".");
  let at: Record<string, unknown> = root;
  keys.slice(0, -1).forEach((k, i) => {
    if (typeof at[k] !== "object" || at[k] === null) at[k] = /^\d+$/.test(keys[i + 1]!) ? [] : {};
    at = at[k] as Record<string, unknown>;
  });
  at[keys.at(-1)!] = value;
  return root;
}

function queryString(op: Operation, c: Case): string {
  const params = new URLSearchParams();
  const add = (name: string, v: unknown, explode: boolean) => {
    if (Array.isArray(v)) {
      if (explode) for (const x of v) params.append(name, String(x));
      else params.append(name, v.map(String).join(","));
    } else params.append(name, String(v));
  };
  for (const p of op.parameters ?? []) {
    if (p.in !== "query") continue;
    const explode = (p as { explode?: boolean }).explode !== false;
    if (c.in === "query" && p.name === c.field) add(p.name, c.value, explode);
    else if (p.required && p.schema) add(p.name, minimalValue(deref(doc, p.schema)), explode);
  }
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}

/**
 * Bodies whose simplest form would put a field's declared range out of reach: a discount's `value`
 * is declared up to 99,999,999 for a fixed amount, and capped at 100 by the `percentage` kind.
 */
const BASE_BODIES: Record<string, unknown> = {
  createItemDiscount: { kind: "fixed", value: 1 },
  updateItemDiscount: { kind: "fixed" },
  // A percentage voucher's value stops at 100; the declared maximum is a fixed amount's.
  createVoucher: { code: "RANGE1", title_en: "Range", title_ar: "نطاق", kind: "fixed", value: 1 },
  updateVoucher: { kind: "fixed", value: 1 },
  // A fulfillment update names at least one field.
  updateFulfillment: { notes: "x" },
  updateMyFulfillment: { notes: "x" },
  // Shipping: a courier covers a city; prices need an origin, a destination and a package.
  createCustomCourier: { name_en: "V", name_ar: "ف", coverage: { cities: [1] } },
  getActiveCouriers: { city_id: 1 },
  getCouriersPrices: {
    origin: { city_id: 1 },
    destination: { city_id: 1 },
    packages: [{ weight: 1, length: 10, width: 10, height: 10 }],
  },
  updateShippingConfig: { enabled_courier_ids: null },
  createPickupLocation: { name_en: "W", name_ar: "م", location: { address1: "x", lat: 24.7, lng: 46.7 }, city_id: 1 },
  updateShipmentStatus: { status: "picked_up" },
  createReturnShipment: {},
  // A subscription update names at least one change.
  createSubscriptionUpdate: { price: 10, effective: "next_period" },
};

/**
 * Writes first: what their in-range cases create (names of the full length, in both scripts) is
 * what the lists' searches then run over. SQLite checks a LIKE pattern only against a row, so a
 * search over an empty table would prove nothing.
 */
// This file needs a database of its own (vitest.config.ts): path parameters are the records of its
// store with id 1, as a fresh database has them.
const all = operations(doc)
  .map((o) => ({ ...o, cases: casesOf(o.op) }))
  .filter((o) => o.cases.length > 0)
  .sort((a, b) => Number(!a.op.requestBody) - Number(!b.op.requestBody));
const CHUNK = 12;
/** Merchant requests per token, under its ceiling of 600 a minute (wrangler.toml). */
const PER_TOKEN = 500;
let sent = 0;
let limited = 0;
let ip = 0;

afterAll(() => {
  const cases = all.reduce((n, o) => n + o.cases.length, 0);
  console.info(
    `ranges: ${all.length} operations with bounded parameters, ${cases} cases, ${sent} requests, ${limited} rate-limited (proving nothing)`,
  );
});

describe.each(all)("$method $path", ({ path, method, op, cases }) => {
  const where = `${method} ${path} (${op.operationId})`;
  const audience = op["x-audience"];
  const org = (op.parameters ?? []).some((p) => p.in === "header" && p.name === "org-id");
  const body = op.requestBody?.content["application/json"]?.schema;
  const base = BASE_BODIES[op.operationId] ?? (body ? minimalValue(deref(doc, body)) : undefined);
  // Path parameters as their schema's example or simplest value: the cases are about the rest.
  const pathValues = Object.fromEntries(
    (op.parameters ?? [])
      .filter((p) => p.in === "path")
      .map((p) => [p.name, String(p.schema ? minimalValue(deref(doc, p.schema)) : 1)]),
  );
  // A platform operation's path names a store no request here uses (suspending store 1 would refuse the rest).
  if (audience === "platform") for (const name of Object.keys(pathValues)) pathValues[name] = "999999999";
  const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? "1"));

  /**
   * Credentials as the contract suite picks them: a customer of its own, the platform key, or a merchant
   * token with every permission.
   */
  const tokens: string[] = [];
  beforeAll(async () => {
    if (audience === "customer") tokens.push(await customerTokenFor(APP_1, (await createCustomerFor(APP_1)).id));
    else if (audience === "platform") tokens.push(env.PLATFORM_API_KEY!);
    else if (op.security?.length)
      for (let i = 0; i < Math.ceil(cases.length / PER_TOKEN); i++) tokens.push(await tokenFor(APP_1));
  });

  it(`${cases.length} values at and past the bounds: no 5xx, in range accepted, past it a 400 naming the field`, async () => {
    const failures: string[] = [];
    const one = async (c: Case, i: number) => {
      const res = await call(`${concrete}${queryString(op, c)}`, {
        method,
        appId: APP_1,
        ...(org && { orgId: APP_1 }),
        token: tokens[Math.floor(i / PER_TOKEN)] ?? tokens[0] ?? null,
        // The login's ceiling is per client address: each case comes from its own.
        headers: { "cf-connecting-ip": `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip++ & 255}` },
        ...(body && { body: c.in === "body" ? withValue(base, c.field, c.value) : base }),
      });
      sent++;
      const text = await res.text();
      const what = `${c.in} ${c.field} = ${c.label}`;
      if (res.status >= 500) return void failures.push(`${what}: ${res.status} ${text.slice(0, 300)}`);
      if (res.status === 429) return void limited++;
      let errors: Record<string, string[]> = {};
      try {
        errors = (JSON.parse(text) as { errors?: Record<string, string[]> }).errors ?? {};
      } catch {
        // Not JSON: it names no field.
      }
      const own = Object.entries(errors)
        .filter(([k]) => k === c.field || k.startsWith(`${c.field}.`))
        .flatMap(([, m]) => m);
      if (c.inRange) {
        const refused = own.filter((m) => RANGE_WORDS.test(m));
        if (res.status === 400 && refused.length) failures.push(`${what}: in range, refused: ${refused.join(" ")}`);
      } else if (res.status !== 400 || own.length === 0) {
        failures.push(`${what}: past the range, expected a 400 naming it, got ${res.status} ${text.slice(0, 200)}`);
      }
    };
    for (let i = 0; i < cases.length; i += CHUNK) {
      await Promise.all(cases.slice(i, i + CHUNK).map((c, j) => one(c, i + j)));
    }
    expect(failures.join("\n"), where).toBe("");
  });
});
