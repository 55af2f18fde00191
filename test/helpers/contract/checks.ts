import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { shardNames, shardOf } from "../../../src/db/shards";
import { shardFor } from "../factories";
import { type Doc, deref, type JsonSchema, type Operation, validate } from "../openapi";
import { changedRows, type Ran } from "./recorder";

export function concretePath(path: string, values: Record<string, string> = {}) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "1");
}

export function requestSchema(doc: Doc, op: Operation): JsonSchema | undefined {
  const s = op.requestBody?.content["application/json"]?.schema;
  return s ? deref(doc, s) : undefined;
}

/** Checks a response against the operation's declared responses; returns the parsed body. */
export async function conforms(doc: Doc, where: string, op: Operation, res: Response): Promise<unknown> {
  const declared = op.responses[String(res.status)];
  expect(declared, `${where}: status ${res.status} is not declared`).toBeDefined();
  if (!declared!.content) {
    expect(await res.text(), `${where}: ${res.status} declares no body`).toBe("");
    return undefined;
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!;
  const media = declared!.content[type];
  expect(media, `${where}: ${res.status} with ${type} is not declared`).toBeDefined();
  const body = await res.json();
  const errors = validate(deref(doc, media!.schema), body);
  expect(errors, `${where}: ${res.status} body does not match its schema`).toEqual([]);
  return body;
}

/**
 * The writes a refused request may make, each with why. Nothing else: rate limits are counted by the
 * platform's rate-limit bindings, idempotency keys are only claimed when the header is sent (the
 * suite never sends one), and request logs go to the console.
 */
export const WRITES_OF_A_REFUSED_REQUEST: { statement: RegExp; why: string }[] = [
  {
    statement: /^update "otp_codes" set "attempts" = "otp_codes"\."attempts" \+ 1 /,
    why: "a wrong code counts as one of the code's tries (5 at most): the refusal is that count",
  },
];

/** A refused request (4xx) changed no row but by the writes above. */
export function expectNoWrites(where: string, status: number, statements: Ran[]) {
  if (status < 400 || status >= 500) return;
  const writes = changedRows(statements).filter((s) => !WRITES_OF_A_REFUSED_REQUEST.some((w) => w.statement.test(s)));
  expect(writes, `${where}: a refused request (${status}) wrote`).toEqual([]);
}

/** Every row of one store, in every tenant-owned table: what no request of another store may change. */
export async function rowsOfStore(appId: number): Promise<string> {
  const d1 = shardFor(appId);
  const tables = await d1
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%`app_id` integer%' ORDER BY name")
    .all<{ name: string }>();
  const parts = await d1.batch(
    tables.results.map((t) => d1.prepare(`SELECT * FROM "${t.name}" WHERE app_id = ? ORDER BY rowid`).bind(appId)),
  );
  return JSON.stringify(parts.map((p) => p.results));
}

/**
 * Everything of one customer that the customer app can change: what a probe of another customer must
 * leave. On every shard: a customer id names a row of one store, wherever it is.
 */
export async function otherCustomerRows(customerId: number): Promise<string> {
  const froms = [
    "customers WHERE id = ?",
    "fcm_tokens WHERE customer_id = ?",
    "customer_locations WHERE customer_id = ?",
    "customer_notifications WHERE customer_id = ?",
    "wallet_entries WHERE customer_id = ?",
    "carts WHERE customer_id = ?",
    "cart_items WHERE cart_id IN (SELECT id FROM carts WHERE customer_id = ?)",
    "orders WHERE customer_id = ?",
    "recurring_purchases WHERE customer_id = ?",
    "saved_payment_methods WHERE customer_id = ?",
    "fulfillments WHERE customer_id = ?",
    "subscriptions WHERE customer_id = ?",
    "voucher_usages WHERE customer_id = ?",
    "meal_subscriptions WHERE customer_id = ?",
    "suborders WHERE customer_id = ?",
    "meal_orders WHERE customer_id = ?",
    "meal_complaints WHERE customer_id = ?",
  ];
  const shards = shardNames(env).map((name) => shardOf(env, name));
  const parts = await Promise.all(
    shards.map((d1) =>
      d1.batch(froms.map((from) => d1.prepare(`SELECT * FROM ${from} ORDER BY rowid`).bind(customerId))),
    ),
  );
  return JSON.stringify(parts.flat().map((p) => p.results));
}

/** Plain words, never the validator's internals ("expected string, received undefined"). */
export function expectPlainWords(where: string, problem: { errors?: Record<string, string[]> }) {
  // Whole words: an enum value such as `not_received_by_customer` is the client's own vocabulary.
  for (const message of Object.values(problem.errors ?? {}).flat())
    expect(message, where).not.toMatch(/\bexpected\b|\breceived\b|Invalid input|nonoptional|Too (small|big)/i);
}
