import { and, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { type AuditContext, type AuditSubject, auditCreated, auditedChange } from "../../../core/audit";
import { forgetHeldTokens } from "../../../core/auth";
import { BatchPlan } from "../../../core/batch-plan";
import { ApiError } from "../../../core/errors";
import { type EventSink, literalEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page, searchColumns } from "../../../core/listing";
import { apps, forgetHeldApp, organizations, STORE_STATUSES } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { initialStoreSettings, settingsView, storeSettingsOf, storeSettingsQuery } from "../../account";
import type { CreateStore, Store, StoreDetails } from "./schemas";

type Row = typeof apps.$inferSelect;

const view = (r: Row): Store => ({
  id: r.id,
  organization_id: r.orgId,
  name_en: r.nameEn,
  name_ar: r.nameAr,
  status: r.suspendedAt ? "suspended" : "active",
  suspended_at: r.suspendedAt,
  suspension_reason: r.suspensionReason,
  created_at: r.createdAt,
});

/** A store as the audit trail shows it: its row, as Store Details shows it (without its settings). */
const STORE_AUDIT: AuditSubject = {
  resourceType: "store",
  table: apps,
  snapshot: sql`json_object('id', id, 'organization_id', org_id, 'name_en', name_en, 'name_ar', name_ar,
    'status', status, 'suspended_at', suspended_at, 'suspension_reason', suspension_reason)`,
};

export const STORE_LIST: ListSpec = {
  fields: {
    id: { column: apps.id, kind: "integer" },
    organization_id: { column: apps.orgId, kind: "integer" },
    name_en: { column: apps.nameEn, kind: "string" },
    name_ar: { column: apps.nameAr, kind: "string" },
    status: { column: apps.status, kind: "string", values: STORE_STATUSES },
    suspended_at: { column: apps.suspendedAt, kind: "datetime", nullable: true },
    created_at: { column: apps.createdAt, kind: "datetime" },
  },
  search: searchColumns(apps.nameEn, apps.nameAr),
  searchDescription: "Matches the store's names.",
  defaultOrder: "id",
  idColumn: apps.id,
};

export async function listStores(db: Db, q: ListQuery): Promise<Page<Store>> {
  return mapPage(await listPage(db, q, { table: apps, scope: () => sql`1` }), view);
}

/** A store with its settings (the defaults where it has saved none); one round trip. */
export async function getStore(db: Db, id: number): Promise<StoreDetails> {
  const [rows, settings] = await db.batch([db.select().from(apps).where(eq(apps.id, id)), storeSettingsQuery(db, id)]);
  const row = rows[0];
  if (!row) throw ApiError.notFound("store_not_found", `Store ${id}`);
  return { ...view(row), settings: settingsView(storeSettingsOf(id, settings)) };
}

/**
 * A new store of an organization, with its settings row, in ONE batch: the organization must
 * exist (a guard: 404 `organization_not_found`); its audit row (`store.created`) in the same batch.
 * Answered as Store Details reads it.
 */
export async function createStore(
  db: Db,
  sink: EventSink,
  input: CreateStore,
  audit: AuditContext,
  directory: StoreDirectory,
): Promise<StoreDetails> {
  // The directory allocates the id (unique across shards) and records the shard: the platform's own
  // shard until placement (docs/shards.md, step 3). Taken back if the shard refuses the store.
  const id = await directory.register(input);
  try {
    await createStoreRows(db, sink, id, input, audit);
  } catch (error) {
    await directory.unregister(id);
    throw error;
  }
  const [store] = await Promise.all([getStore(db, id), directory.provisioned(id)]);
  return store;
}

/**
 * Step 1's directory side of a store (docs/shards.md), written beside the shard's batch until the relay
 * of step 2 carries it: the platform router builds it over the directory (src/db/shards.ts).
 */
export type StoreDirectory = {
  /** The new store's id: 404 `organization_not_found` for an organization the directory lacks. */
  register(input: CreateStore): Promise<number>;
  unregister(id: number): Promise<void>;
  provisioned(id: number): Promise<void>;
  suspended(id: number, to: { suspendedAt: string; reason: string } | null): Promise<void>;
};

async function createStoreRows(db: Db, sink: EventSink, id: number, input: CreateStore, audit: AuditContext) {
  const plan = new BatchPlan(db).guard(
    sql`EXISTS (SELECT 1 FROM ${organizations} WHERE ${organizations.id} = ${input.organization_id})`,
    "organization exists",
    ApiError.notFound("organization_not_found", `Organization ${input.organization_id}`),
  );
  const store = plan.insert(
    "store",
    db
      .insert(apps)
      .values({ id, orgId: input.organization_id, nameEn: input.name_en, nameAr: input.name_ar, createdAt: nowIso() })
      .returning({ id: apps.id }),
  );
  plan.add(initialStoreSettings(db, store.id, input.settings ?? {}));
  auditCreated(plan, audit, STORE_AUDIT, { appId: store.id, action: "store.created", row: store });
  await plan.run(sink);
}

/** Why a store cannot be suspended (or reactivated): 404, or 409 naming its status. */
async function statusRefusal(db: Db, id: number, action: "suspended" | "reactivated"): Promise<ApiError> {
  const row = await db.select().from(apps).where(eq(apps.id, id)).get();
  if (!row) return ApiError.notFound("store_not_found", `Store ${id}`);
  const status = row.suspendedAt ? "suspended" : "active";
  return ApiError.invalidTransition(`Store ${id}`, status, action, [status === "active" ? "suspend" : "reactivate"]);
}

/**
 * Moves a store between active and suspended: one guarded UPDATE (the status it leaves in its
 * WHERE, so two racing requests cannot both apply), its event in the store's outbox, its audit row
 * (status and reason before and after), the row as it is after. This isolate forgets what it held of the store and its tokens: the change shows here
 * at once, within a second elsewhere (core/tenancy.ts).
 */
async function setSuspension(
  db: Db,
  sink: EventSink,
  id: number,
  to: { suspendedAt: string; reason: string } | null,
  audit: AuditContext,
  directory: StoreDirectory,
): Promise<Store> {
  const from: SQL = to ? isNull(apps.suspendedAt) : isNotNull(apps.suspendedAt);
  const where = and(eq(apps.id, id), from)!;
  const plan = new BatchPlan(db).guard(sql`EXISTS (SELECT 1 FROM ${apps} WHERE ${where})`, "store status", () =>
    statusRefusal(db, id, to ? "suspended" : "reactivated"),
  );
  const action = to ? "store.suspended" : "store.reactivated";
  auditedChange(plan, audit, STORE_AUDIT, { appId: id, action, where, after: "audit" }, [
    db
      .update(apps)
      .set({ suspendedAt: to?.suspendedAt ?? null, suspensionReason: to?.reason ?? null })
      .where(where),
  ]);
  const after = plan.read<Row>(db.select().from(apps).where(eq(apps.id, id)));
  plan.event(
    to ? literalEvent(id, "store.suspended", { id, reason: to.reason }) : literalEvent(id, "store.reactivated", { id }),
  );
  // The directory's status (what requests check: core/tenancy.ts) beside the shard's batch.
  const [result] = await Promise.all([plan.run(sink), directory.suspended(id, to)]);
  forgetHeldApp(id);
  forgetHeldTokens();
  return view(result.rows(after)[0]!);
}

export const suspendStore = (
  db: Db,
  sink: EventSink,
  id: number,
  reason: string,
  audit: AuditContext,
  directory: StoreDirectory,
) => setSuspension(db, sink, id, { suspendedAt: nowIso(), reason }, audit, directory);

export const reactivateStore = (db: Db, sink: EventSink, id: number, audit: AuditContext, directory: StoreDirectory) =>
  setSuspension(db, sink, id, null, audit, directory);
