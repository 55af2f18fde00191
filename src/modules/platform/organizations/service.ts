import { eq, sql } from "drizzle-orm";
import { type AuditContext, auditCreated } from "../../../core/audit";
import { BatchPlan } from "../../../core/batch-plan";
import { ApiError } from "../../../core/errors";
import type { EventSink } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page, searchColumns } from "../../../core/listing";
import { organizations } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import type { CreateOrganization, Organization } from "./schemas";

type Row = typeof organizations.$inferSelect;
const view = (r: Row): Organization => ({ id: r.id, name: r.name, created_at: r.createdAt, modified_at: r.modifiedAt });

export const ORGANIZATION_LIST: ListSpec = {
  fields: {
    id: { column: organizations.id, kind: "integer" },
    name: { column: organizations.name, kind: "string" },
    created_at: { column: organizations.createdAt, kind: "datetime" },
  },
  // Organizations are never deleted, so no `include_deleted`.
  sync: { modifiedAt: organizations.modifiedAt, softDeleted: false },
  search: searchColumns(organizations.name),
  searchDescription: "Matches the organization's name.",
  defaultOrder: "id",
  idColumn: organizations.id,
};

/** A new organization and its audit row (of no store: `app_id` null), in one batch. */
export async function createOrganization(
  db: Db,
  sink: EventSink,
  input: CreateOrganization,
  audit: AuditContext,
): Promise<Organization> {
  const plan = new BatchPlan(db);
  const now = nowIso();
  const org = plan.insert(
    "organization",
    db.insert(organizations).values({ name: input.name, createdAt: now, modifiedAt: now }).returning(),
  );
  const subject = {
    resourceType: "organization",
    table: organizations,
    snapshot: sql`json_object('id', id, 'name', name, 'created_at', created_at)`,
  };
  auditCreated(plan, audit, subject, { appId: null, action: "organization.created", row: org });
  return view((await plan.run(sink)).row<Row>(org));
}

export async function listOrganizations(db: Db, q: ListQuery): Promise<Page<Organization>> {
  return mapPage(await listPage(db, q, { table: organizations, scope: () => sql`1` }), view);
}

export async function getOrganization(db: Db, id: number): Promise<Organization> {
  const row = await db.select().from(organizations).where(eq(organizations.id, id)).get();
  if (!row) throw ApiError.notFound("organization_not_found", `Organization ${id}`);
  return view(row);
}
