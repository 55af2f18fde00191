import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, notDeletedRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, insertedRowEvent, newEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { listOfferedPlans, offeredPlansByIds, offeredPlansFromJson, offeredPlansJson } from "../../meals";
import { connectionActiveSql, isConnectionActive } from "../connections";
import { storeFacesFromJson, storeFacesJson } from "../stores";
import { channelConnections, channelPlanListings } from "../tables";
import type { CreatePlanListing, PlanListing, ProviderPlan, UpdatePlanListing } from "./schemas";

/**
 * What a channel sells of its providers (MX1, MX2). A provider's plans are read only through an
 * active connection with this store as the channel; listings of a provider whose connection is
 * inactive or deleted are kept but hidden from every read and write, until one is active again.
 */

type ListingRow = typeof channelPlanListings.$inferSelect;

function notConnected(providerAppId: number): ApiError {
  return ApiError.forbidden(
    `This store has no active connection, as the channel, with provider store ${providerAppId}.`,
    "provider_not_connected",
  );
}

/** MX1: the provider's plans offered to channels, each with this channel's listing of it (if any). */
export async function listProviderPlans(
  ctx: ServiceContext,
  providerAppId: number,
  q: ListQuery,
): Promise<Page<ProviderPlan>> {
  // One statement: the connection, the page, and this channel's listings of the page's plans.
  const { page, beside } = await listOfferedPlans(ctx.db, providerAppId, q, {
    parent: { exists: connectionActiveSql(ctx.appId, providerAppId), notFound: () => notConnected(providerAppId) },
    of: (planIds) =>
      sql`(SELECT json_group_array(json_array(${channelPlanListings.id}, ${channelPlanListings.planId}))
        FROM ${channelPlanListings} WHERE ${and(
          live(channelPlanListings, ctx.appId),
          eq(channelPlanListings.providerAppId, providerAppId),
          sql`${channelPlanListings.planId} IN (${planIds})`,
        )})`,
  });
  const listed = ((beside ?? []) as [number, number][]).map(([id, planId]) => ({ id, planId }));
  return {
    ...page,
    results: page.results.map((p) => ({
      ...p,
      provider_app_id: providerAppId,
      listing_id: listed.find((l) => l.planId === p.id)?.id ?? null,
    })),
  };
}

/** The listings the channel may see: its own, live, of a provider it is actively connected to. */
const visibleListings = (appId: number): SQL =>
  and(
    live(channelPlanListings, appId),
    sql`${channelPlanListings.providerAppId} IN (SELECT ${channelConnections.providerAppId} FROM ${channelConnections}
      WHERE ${channelConnections.channelAppId} = ${appId} AND ${channelConnections.status} = 'active'
        AND ${notDeletedRow(channelConnections)})`,
  )!;

export const LISTING_LIST: ListSpec = {
  fields: {
    id: { column: channelPlanListings.id, kind: "integer" },
    provider_app_id: { column: channelPlanListings.providerAppId, kind: "integer" },
    plan_id: { column: channelPlanListings.planId, kind: "integer" },
    is_active: { column: channelPlanListings.isActive, kind: "boolean" },
    is_featured: { column: channelPlanListings.isFeatured, kind: "boolean" },
    ordering: { column: channelPlanListings.ordering, kind: "integer" },
    created_at: { column: channelPlanListings.createdAt, kind: "datetime" },
  },
  defaultOrder: "ordering",
  idColumn: channelPlanListings.id,
};

/** What the views of the listings `rows` (a table expression: a page, or one row) need, as JSON parts of the same statement. */
function listingParts(rows: SQL) {
  return {
    ...storeFacesJson(sql`SELECT provider_app_id FROM ${rows}`),
    ...offeredPlansJson(sql`SELECT provider_app_id, plan_id FROM ${rows}`),
  };
}
type ListingParts = Record<keyof ReturnType<typeof listingParts>, unknown>;

/** Listings → their shape, with the providers' faces and plans (null where no longer offered). */
function listingViews(rows: readonly ListingRow[], parts: ListingParts): PlanListing[] {
  const faces = storeFacesFromJson(
    rows.map((r) => r.providerAppId),
    parts,
  );
  const plans = offeredPlansFromJson(parts);
  return rows.map((r) => {
    const plan = plans.get(r.planId) ?? null;
    return {
      id: r.id,
      provider_app_id: r.providerAppId,
      provider: faces.get(r.providerAppId)!,
      plan_id: r.planId,
      plan,
      is_available: plan !== null,
      is_active: r.isActive,
      is_featured: r.isFeatured,
      ordering: r.ordering,
      app_id: r.appId,
      created_at: r.createdAt,
      modified_at: r.modifiedAt,
      deleted_at: r.deletedAt,
      is_deleted: r.isDeleted,
    };
  });
}

export async function listPlanListings(ctx: ServiceContext, q: ListQuery): Promise<Page<PlanListing>> {
  // One statement: the page, its providers' faces and their plans.
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: channelPlanListings, scope: () => visibleListings(ctx.appId) },
    listingParts,
  );
  return { ...page, results: listingViews(page.results, nested) };
}

async function findListing(ctx: ServiceContext, id: number): Promise<ListingRow> {
  const row = await ctx.db
    .select()
    .from(channelPlanListings)
    .where(and(visibleListings(ctx.appId), eq(channelPlanListings.id, id)))
    .get();
  if (!row) throw ApiError.notFound("plan_listing_not_found", `Plan listing ${id}`);
  return row;
}

/**
 * The reads of one listing with its provider's face and plan, keyed by the id (a number, or a
 * handle's id in the batch that makes it): for a batch, `listingFrom` reads their rows.
 */
function listingReads(ctx: ServiceContext, id: number | SQL) {
  const where = and(visibleListings(ctx.appId), sql`${channelPlanListings.id} = ${id}`)!;
  const parts = listingParts(sql`(SELECT * FROM ${channelPlanListings} WHERE ${where})`);
  return [
    ctx.db.select().from(channelPlanListings).where(where),
    ctx.db
      .select(
        Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, (v as SQL).as(k)])) as {
          [K in keyof typeof parts]: SQL.Aliased<unknown>;
        },
      )
      .from(sql`(SELECT 1)`),
  ] as const;
}

/** The listing of `listingReads`' rows; 404 `plan_listing_not_found` without one. */
function listingFrom(id: number, rows: readonly ListingRow[], partRows: readonly ListingParts[]): PlanListing {
  if (!rows[0]) throw ApiError.notFound("plan_listing_not_found", `Plan listing ${id}`);
  return listingViews(rows, partRows[0]!)[0]!;
}

/** Lists a plan the provider offers, for a channel actively connected to it; once per plan. */
export async function createPlanListing(ctx: ServiceContext, body: CreatePlanListing): Promise<PlanListing> {
  const { provider_app_id: providerAppId, plan_id: planId } = body;
  // Every read at once; the connection is what is asked first.
  const [connected, offered, existing] = await Promise.all([
    isConnectionActive(ctx.db, ctx.appId, providerAppId),
    offeredPlansByIds(ctx.db, [{ providerAppId, planId }]),
    ctx.db
      .select({ id: channelPlanListings.id })
      .from(channelPlanListings)
      .where(and(live(channelPlanListings, ctx.appId), eq(channelPlanListings.planId, planId)))
      .get(),
  ]);
  if (!connected) throw notConnected(providerAppId);
  if (!offered.has(planId)) {
    throw ApiError.validation({
      plan_id: [`Must be a plan that provider store ${providerAppId} offers to channels (active, marketplace-active).`],
    });
  }
  if (existing) {
    throw ApiError.conflict("plan_already_listed", `This store already lists plan ${planId}: listing ${existing.id}.`, {
      plan_listing_id: existing.id,
    });
  }
  const now = nowIso();
  const plan = new BatchPlan(ctx.db);
  const listing = plan.insert(
    "listing",
    ctx.db
      .insert(channelPlanListings)
      .values({
        appId: ctx.appId,
        providerAppId,
        planId,
        isActive: body.is_active ?? true,
        isFeatured: body.is_featured ?? false,
        ordering: body.ordering ?? 0,
        createdAt: now,
        modifiedAt: now,
      })
      .returning(),
  );
  plan.event(insertedRowEvent("sales_channel.plan_listing_created", channelPlanListings, listing));
  // The listing as the batch made it, with its provider's face and plan: the answer.
  const [rowRead, partsRead] = listingReads(ctx, listing.id);
  const row = plan.read<ListingRow>(rowRead);
  const parts = plan.read<ListingParts>(partsRead);
  const done = await plan.run(ctx.events);
  return listingFrom(done.id(listing), done.rows(row), done.rows(parts));
}

export async function updatePlanListing(
  ctx: ServiceContext,
  id: number,
  body: UpdatePlanListing,
): Promise<PlanListing> {
  await findListing(ctx, id);
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(channelPlanListings)
        .set({ isActive: body.is_active, isFeatured: body.is_featured, ordering: body.ordering, modifiedAt: nowIso() })
        .where(and(live(channelPlanListings, ctx.appId), eq(channelPlanListings.id, id))),
    ],
    [newEvent(ctx.appId, "sales_channel.plan_listing_updated", { id, changes: Object.keys(body) })],
    // The listing as the batch left it: the answer.
    { after: listingReads(ctx, id) },
  );
  return listingFrom(id, results[1] as ListingRow[], results[2] as ListingParts[]);
}

export async function deletePlanListing(ctx: ServiceContext, id: number): Promise<void> {
  await findListing(ctx, id);
  const now = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(channelPlanListings)
        .set({ isDeleted: true, deletedAt: now, modifiedAt: now })
        .where(and(live(channelPlanListings, ctx.appId), eq(channelPlanListings.id, id))),
    ],
    [newEvent(ctx.appId, "sales_channel.plan_listing_deleted", { id })],
  );
}
