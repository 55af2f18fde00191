import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type AuditContext, auditRecord, PLATFORM_ACTOR } from "../../src/core/audit";
import { BatchPlan } from "../../src/core/batch-plan";
import { parseListQuery } from "../../src/core/listing";
import { createDb } from "../../src/db/client";
import { copyPlatformAudit } from "../../src/db/platform-audit";
import { directoryOf } from "../../src/db/shards";
import { listPlatformAuditEvents, PLATFORM_AUDIT_EVENT_LIST } from "../../src/modules/account";
import { storeSettings } from "../../src/modules/account/tables";
import { APP_1, APP_2, serviceCtx, shardNameFor } from "../helpers/factories";

// The recorder as the platform's services use it (a change of no store, a store's change by the
// operator): a row of known states, in the change's own batch, rolled back with it.

const platform = (requestId: string): AuditContext => ({ actor: PLATFORM_ACTOR, requestId });
const platformRows = (query: string) =>
  listPlatformAuditEvents(
    createDb(directoryOf(env)),
    parseListQuery(new URLSearchParams(query), PLATFORM_AUDIT_EVENT_LIST),
  );

describe("auditRecord", () => {
  it("writes the platform's row with the change, and none when the batch is refused", async () => {
    const ctx = serviceCtx(APP_1);
    const requestId = `req-${crypto.randomUUID()}`;
    // A change the recorder knows the id of only in SQL (as a plan's handle): a store's settings row.
    const plan = new BatchPlan(ctx.db);
    plan.add(
      ctx.db
        .insert(storeSettings)
        .values({ appId: APP_1, address: "Audited" })
        .onConflictDoUpdate({ target: storeSettings.appId, set: { address: "Audited" } }),
      auditRecord(ctx.db, platform(requestId), {
        appId: null,
        action: "store.updated",
        resourceType: "store",
        resourceId: sql`(SELECT app_id FROM store_settings WHERE address = 'Audited' AND app_id = ${APP_1})`,
        before: null,
        after: { address: "Audited" },
      }),
    );
    await plan.run(ctx.events);
    await copyPlatformAudit(env, shardNameFor(APP_1));
    const [row] = (await platformRows(`request_id=${requestId}`)).results;
    expect(row).toMatchObject({
      app_id: null,
      actor_type: "platform",
      actor_id: null,
      action: "store.updated",
      resource_type: "store",
      resource_id: String(APP_1),
      before: null,
      after: { address: "Audited" },
    });

    const refused = `req-${crypto.randomUUID()}`;
    const failing = new BatchPlan(ctx.db)
      .add(
        auditRecord(ctx.db, platform(refused), {
          appId: APP_2,
          action: "store.suspended",
          resourceType: "store",
          resourceId: APP_2,
          before: { status: "active" },
          after: { status: "suspended" },
        }),
      )
      .guard(sql`0`, "never holds");
    await expect(failing.run(ctx.events)).rejects.toThrow();
    await copyPlatformAudit(env, shardNameFor(APP_1));
    expect((await platformRows(`request_id=${refused}`)).count).toBe(0);
  });

  it("the platform's list filters by store, and holds no merchant key's row", async () => {
    // Written on a shard, read from the directory's copy (db/platform-audit.ts).
    const ctx = serviceCtx(APP_1);
    const requestId = `req-${crypto.randomUUID()}`;
    const entry = { action: "store.updated", resourceType: "store", before: { a: 1 }, after: { a: 2 } };
    await ctx.db.batch([
      auditRecord(ctx.db, platform(requestId), { ...entry, appId: APP_2, resourceId: APP_2 }),
      auditRecord(ctx.db, platform(requestId), { ...entry, appId: APP_1, resourceId: APP_1 }),
      auditRecord(
        ctx.db,
        { actor: { type: "api_key", id: 7 }, requestId },
        { ...entry, appId: APP_2, resourceId: APP_2 },
      ),
    ]);
    await copyPlatformAudit(env, shardNameFor(APP_1));
    const ofStore = await platformRows(`request_id=${requestId}&app_id=${APP_2}`);
    expect(ofStore.results.map((r) => [r.app_id, r.actor_type])).toEqual([[APP_2, "platform"]]);
    expect((await platformRows(`request_id=${requestId}`)).count).toBe(2);
  });
});
