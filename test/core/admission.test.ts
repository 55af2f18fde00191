import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { writesAfterAdmission } from "../../src/core/admission";
import { ApiError } from "../../src/core/errors";
import { createDb } from "../../src/db/client";

/** What a customer route's handler may send before its admission passed, and what waits (core/admission.ts). */
describe("writes after the admission", () => {
  const table = `admission_probe_${crypto.randomUUID().replaceAll("-", "")}`;

  it("sends reads (a WITH … SELECT too) at once, and holds writes (a WITH … INSERT too) until it passes", async () => {
    await env.DB.prepare(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, n INTEGER)`).run();
    let admit!: () => void;
    const admitted = new Promise<void>((r) => {
      admit = r;
    });
    const gate = writesAfterAdmission(createDb(env.DB), admitted);
    const d1 = (gate.db as unknown as { $client: D1Database }).$client;
    // Reads answer while the admission is pending.
    expect(await d1.prepare("SELECT 1 AS n").first()).toEqual({ n: 1 });
    expect(await d1.prepare("WITH x AS (SELECT 2 AS n) SELECT n, 'updated_at' AS updated FROM x").first()).toEqual({
      n: 2,
      updated: "updated_at",
    });
    const plain = d1.prepare(`INSERT INTO ${table} (n) VALUES (1)`).run();
    const withInsert = d1.prepare(`WITH x AS (SELECT 2 AS n) INSERT INTO ${table} (n) SELECT n FROM x`).run();
    const batched = d1.batch([d1.prepare("SELECT 3"), d1.prepare(`UPDATE ${table} SET n = n + 10`)]);
    // Nothing written yet: the three wait for the admission.
    await d1.prepare("SELECT 1").first();
    expect((await env.DB.prepare(`SELECT count(*) AS c FROM ${table}`).first())?.c).toBe(0);
    admit();
    await Promise.all([plain, withInsert, batched]);
    expect((await env.DB.prepare(`SELECT count(*) AS c FROM ${table}`).first())?.c).toBe(2);
  });

  it("refuses the held writes with the admission's refusal, and sends none of them", async () => {
    const refusal = ApiError.forbidden("blocked", "customer_blocked");
    const refused = Promise.reject(refusal);
    // As authenticate does: the refusal is awaited later, by the writes and the middleware.
    refused.catch(() => undefined);
    const gate = writesAfterAdmission(createDb(env.DB), refused);
    const d1 = (gate.db as unknown as { $client: D1Database }).$client;
    const before = (await env.DB.prepare(`SELECT count(*) AS c FROM ${table}`).first())?.c;
    await expect(d1.prepare(`INSERT INTO ${table} (n) VALUES (5)`).run()).rejects.toBe(refusal);
    expect((await env.DB.prepare(`SELECT count(*) AS c FROM ${table}`).first())?.c).toBe(before);
  });
});
