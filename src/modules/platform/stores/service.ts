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
import type { DirectoryOrganization } from "../../../db/directory";
import { directoryApps } from "../../../db/directory-schema";
import { initialStoreSettings, settingsView, storeSettingsOf, storeSettingsQuery } from "../../account";
import type { CreateStore, Store, StoreDetails } from "./schemas";

type Row = typeof apps.$inferSelect;

/** A store's row, on its shard or in the directory (which adds its shard), as the platform shows it. */
const view = (r: Omit<Row, "status">, shard: string): Store => ({
  id: r.id,
  organization_id: r.orgId,
  name_en: r.nameEn,
  name_ar: r.nameAr,
  status: r.suspendedAt ? "suspended" : "active",
  suspended_at: r.suspendedAt,
  suspension_reason: r.suspensionReason,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
  shard,
});

/** A store as the audit trail shows it: its row, as Store Details shows it (without its settings). */
const STORE_AUDIT: AuditSubject = {
  resourceType: "store",
  table: apps,
  snapshot: sql`json_object('id', id, 'organization_id', org_id, 'name_en', name_en, 'name_ar', name_ar,
    'status', status, 'suspended_at', suspended_at, 'suspension_reason', suspension_reason)`,
};

/** List Stores reads the directory: every store, whichever shard holds it, in one read. */
export const STORE_LIST: ListSpec = {
  fields: {
    id: { column: directoryApps.id, kind: "integer" },
    organization_id: { column: directoryApps.orgId, kind: "integer" },
    name_en: { column: directoryApps.nameEn, kind: "string" },
    name_ar: { column: directoryApps.nameAr, kind: "string" },
    status: { column: directoryApps.status, kind: "string", values: STORE_STATUSES },
    shard: { column: directoryApps.shard, kind: "string" },
    suspended_at: { column: directoryApps.suspendedAt, kind: "datetime", nullable: true },
    created_at: { column: directoryApps.createdAt, kind: "datetime" },
  },
  // Stores are never deleted (a suspended one is a status), so no `include_deleted`.
  sync: { modifiedAt: directoryApps.modifiedAt, softDeleted: false },
  search: searchColumns(directoryApps.nameEn, directoryApps.nameAr),
  searchDescription: "Matches the store's names.",
  defaultOrder: "id",
  idColumn: directoryApps.id,
};

export async function listStores(directory: Db, q: ListQuery): Promise<Page<Store>> {
  const page = await listPage(directory, q, { table: directoryApps, scope: () => sql`1` });
  return mapPage(page, (r: typeof directoryApps.$inferSelect) => view(r, r.shard));
}

/** A store with its settings (the defaults where it has saved none); one round trip. */
export async function getStore(db: Db, id: number, shard: string): Promise<StoreDetails> {
  const [rows, settings] = await db.batch([db.select().from(apps).where(eq(apps.id, id)), storeSettingsQuery(db, id)]);
  const row = rows[0];
  if (!row) throw ApiError.notFound("store_not_found", `Store ${id}`);
  return { ...view(row, shard), settings: settingsView(storeSettingsOf(id, settings)) };
}

/**
 * A new store of an organization, placed on a shard by the directory (or pinned there), then its rows
 * in ONE batch on that shard: the copies of its organization and of its directory row, its settings,
 * its audit row (`store.created`). Answered as Store Details reads it.
 */
export async function createStore(
  dbOf: (shard: string) => Db,
  sink: EventSink,
  input: CreateStore,
  audit: AuditContext,
  directory: StoreDirectory,
): Promise<StoreDetails> {
  // The directory allocates the id (unique across shards) and places the store; taken back if its
  // shard refuses the store.
  const placed = await directory.register(input);
  const db = dbOf(placed.shard);
  try {
    await createStoreRows(db, sink, placed, input, audit);
  } catch (error) {
    await directory.unregister(placed.id);
    throw error;
  }
  const [store] = await Promise.all([getStore(db, placed.id, placed.shard), directory.provisioned(placed.id)]);
  return store;
}

/** The directory's row of a new store: its id, its shard, its organization as the shard copies it. */
export type PlacedStore = { id: number; shard: string; organization: DirectoryOrganization };

/**
 * Step 1's directory side of a store (docs/shards.md), written beside the shard's batch until the relay
 * of step 2 carries it: the platform router builds it over the directory (src/db/directory.ts).
 */
export type StoreDirectory = {
  /** The new store, placed: 404 `organization_not_found`, or `shard_not_found` for a pin to no shard. */
  register(input: CreateStore): Promise<PlacedStore>;
  unregister(id: number): Promise<void>;
  provisioned(id: number): Promise<void>;
  /** `at`: the change's `modified_at`, the shard's row's too. */
  suspended(id: number, to: { suspendedAt: string; reason: string } | null, at: string): Promise<void>;
};

async function createStoreRows(db: Db, sink: EventSink, placed: PlacedStore, input: CreateStore, audit: AuditContext) {
  const plan = new BatchPlan(db);
  // The shard's copy of the organization (its stores' rows refer to it): the first store of an
  // organization on a shard brings it.
  plan.add(db.insert(organizations).values(placed.organization).onConflictDoNothing());
  const now = nowIso();
  const store = plan.insert(
    "store",
    db
      .insert(apps)
      .values({
        id: placed.id,
        orgId: input.organization_id,
        nameEn: input.name_en,
        nameAr: input.name_ar,
        createdAt: now,
        modifiedAt: now,
      })
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
  { db, shard }: StoreShard,
  sink: EventSink,
  id: number,
  to: { suspendedAt: string; reason: string } | null,
  at: string,
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
      .set({ suspendedAt: to?.suspendedAt ?? null, suspensionReason: to?.reason ?? null, modifiedAt: at })
      .where(where),
  ]);
  const after = plan.read<Row>(db.select().from(apps).where(eq(apps.id, id)));
  plan.event(
    to ? literalEvent(id, "store.suspended", { id, reason: to.reason }) : literalEvent(id, "store.reactivated", { id }),
  );
  // The directory's status (what requests check: core/tenancy.ts) beside the shard's batch.
  const [result] = await Promise.all([plan.run(sink), directory.suspended(id, to, at)]);
  forgetHeldApp(id);
  forgetHeldTokens();
  return view(result.rows(after)[0]!, shard);
}

export const suspendStore = (
  store: StoreShard,
  sink: EventSink,
  id: number,
  reason: string,
  audit: AuditContext,
  directory: StoreDirectory,
) => {
  const at = nowIso();
  return setSuspension(store, sink, id, { suspendedAt: at, reason }, at, audit, directory);
};

export const reactivateStore = (
  store: StoreShard,
  sink: EventSink,
  id: number,
  audit: AuditContext,
  directory: StoreDirectory,
) => setSuspension(store, sink, id, null, nowIso(), audit, directory);

/** A store's shard: its database and its binding's name. */
export type StoreShard = { db: Db; shard: string };
