import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, insertedRowEvent, newEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, type Page } from "../../../core/listing";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import type { PlanSummary } from "../../meals";
import { listOfferedPlans, offeredPlansByIds } from "../../meals";
import { connectedProviderAppIds, isConnectionActive } from "../connections";
import { type StoreGroup, storeShardDb, storesByShard } from "../store-shards";
import { type StoreFace, storeFacesOn } from "../stores";
import { channelPlanListings } from "../tables";
import type { CreatePlanListing, PlanListing, ProviderPlan, UpdatePlanListing } from "./schemas";

/**
 * What a channel sells of its providers (MX1, MX2). A provider's plans are read only through an
 * active connection with this store as the channel; listings of a provider whose connection is
 * inactive or deleted are kept but hidden from every read and write, until one is active again.
 * The connection is the directory's, the listings the channel's shard's, a provider's plans and face
 * its own shard's (docs/shards.md): each read where it lives, those of one request at once.
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
  env: Env,
  ctx: ServiceContext,
  providerAppId: number,
  q: ListQuery,
): Promise<Page<ProviderPlan>> {
  // The provider's shard (held by the isolate), then at once: the connection, the provider's page,
  // and this channel's listings of it.
  const providerDb = await storeShardDb(env, ctx, providerAppId);
  const [connected, offered, listed] = await Promise.all([
    isConnectionActive(env, ctx.appId, providerAppId),
    providerDb && listOfferedPlans(providerDb, providerAppId, q),
    ctx.db
      .select({ id: channelPlanListings.id, planId: channelPlanListings.planId })
      .from(channelPlanListings)
      .where(and(live(channelPlanListings, ctx.appId), eq(channelPlanListings.providerAppId, providerAppId)))
      .all(),
  ]);
  if (!connected || !offered) throw notConnected(providerAppId);
  const { page } = offered;
  return {
    ...page,
    results: page.results.map((p) => ({
      ...p,
      provider_app_id: providerAppId,
      listing_id: listed.find((l) => l.planId === p.id)?.id ?? null,
    })),
  };
}

/** The listings the channel may see: its own, live, of a provider it is actively connected to (`providers`). */
const visibleListings = (appId: number, providers: readonly number[]): SQL =>
  and(
    live(channelPlanListings, appId),
    providers.length ? inList(channelPlanListings.providerAppId, providers) : sql`0`,
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
  sync: { modifiedAt: channelPlanListings.modifiedAt, softDeleted: false },
};

/** What a listing's view needs of its provider: its face, and its plans offered to channels (by plan id). */
type ProviderSide = { faces: Map<number, StoreFace>; plans: Map<number, Map<number, PlanSummary>> };

/**
 * The providers' faces and offered plans of `rows`, each read on its provider's shard (`groups`, from
 * `storesByShard`), the shards at once. Plans are told apart by provider: ids are unique per shard only.
 */
async function providerSide(groups: readonly StoreGroup[], rows: readonly ListingRow[]): Promise<ProviderSide> {
  const faces = new Map<number, StoreFace>();
  const plans = new Map<number, Map<number, PlanSummary>>();
  // Each shard's faces and plans at once, the shards at once.
  await Promise.all(
    groups.map(async (g) => {
      const refs = rows
        .filter((r) => g.appIds.includes(r.providerAppId))
        .map((r) => ({ providerAppId: r.providerAppId, planId: r.planId }));
      const [shown, found] = await Promise.all([storeFacesOn(g), offeredPlansByIds(g.db, refs)]);
      for (const [id, face] of shown) faces.set(id, face);
      for (const id of g.appIds) plans.set(id, new Map());
      // Within a shard a plan id is one provider's: the ref that named it says whose.
      for (const r of refs) {
        const plan = found.get(r.planId);
        if (plan) plans.get(r.providerAppId)!.set(r.planId, plan);
      }
    }),
  );
  return { faces, plans };
}

/** Listings → their shape, with the providers' faces and plans (null where no longer offered). */
function listingViews(rows: readonly ListingRow[], side: ProviderSide): PlanListing[] {
  return rows.map((r) => {
    const plan = side.plans.get(r.providerAppId)?.get(r.planId) ?? null;
    return {
      id: r.id,
      provider_app_id: r.providerAppId,
      provider: side.faces.get(r.providerAppId)!,
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

export async function listPlanListings(env: Env, ctx: ServiceContext, q: ListQuery): Promise<Page<PlanListing>> {
  const providers = await connectedProviderAppIds(env, ctx.appId);
  const page = await listPage(ctx.db, q, {
    table: channelPlanListings,
    scope: () => visibleListings(ctx.appId, providers),
  });
  const groups = await storesByShard(
    env,
    ctx,
    page.results.map((r) => r.providerAppId),
  );
  return { ...page, results: listingViews(page.results, await providerSide(groups, page.results)) };
}

/** The listing `id` the channel may see (its provider actively connected): read beside the connections. */
async function findListing(env: Env, ctx: ServiceContext, id: number): Promise<ListingRow> {
  const [providers, row] = await Promise.all([
    connectedProviderAppIds(env, ctx.appId),
    ctx.db
      .select()
      .from(channelPlanListings)
      .where(and(live(channelPlanListings, ctx.appId), eq(channelPlanListings.id, id)))
      .get(),
  ]);
  if (!row || !providers.includes(row.providerAppId))
    throw ApiError.notFound("plan_listing_not_found", `Plan listing ${id}`);
  return row;
}

/** Lists a plan the provider offers, for a channel actively connected to it; once per plan. */
export async function createPlanListing(env: Env, ctx: ServiceContext, body: CreatePlanListing): Promise<PlanListing> {
  const { provider_app_id: providerAppId, plan_id: planId } = body;
  // The provider's shard (held by the isolate), then every read at once, each where it lives; the
  // connection is what is asked first.
  const groups = await storesByShard(env, ctx, [providerAppId]);
  const [connected, side, existing] = await Promise.all([
    isConnectionActive(env, ctx.appId, providerAppId),
    providerSide(groups, [{ providerAppId, planId } as ListingRow]),
    ctx.db
      .select({ id: channelPlanListings.id })
      .from(channelPlanListings)
      .where(
        and(
          live(channelPlanListings, ctx.appId),
          eq(channelPlanListings.providerAppId, providerAppId),
          eq(channelPlanListings.planId, planId),
        ),
      )
      .get(),
  ]);
  if (!connected) throw notConnected(providerAppId);
  if (!side.plans.get(providerAppId)?.has(planId)) {
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
  const done = await plan.run(ctx.events);
  // The provider's face and plan were read before the write; they answer with the row it made.
  return listingViews([done.row<ListingRow>(listing)], side)[0]!;
}

export async function updatePlanListing(
  env: Env,
  ctx: ServiceContext,
  id: number,
  body: UpdatePlanListing,
): Promise<PlanListing> {
  const row = await findListing(env, ctx, id);
  const groups = await storesByShard(env, ctx, [row.providerAppId]);
  // The change (answering the row as it left it) and the provider's side, at once.
  const [{ results }, side] = await Promise.all([
    emit(
      ctx.db,
      ctx.events,
      [
        ctx.db
          .update(channelPlanListings)
          .set({
            isActive: body.is_active,
            isFeatured: body.is_featured,
            ordering: body.ordering,
            modifiedAt: nowIso(),
          })
          .where(and(live(channelPlanListings, ctx.appId), eq(channelPlanListings.id, id))),
      ],
      [newEvent(ctx.appId, "sales_channel.plan_listing_updated", { id, changes: Object.keys(body) })],
      { after: [ctx.db.select().from(channelPlanListings).where(eq(channelPlanListings.id, id))] },
    ),
    providerSide(groups, [row]),
  ]);
  const after = results[1] as ListingRow[];
  if (!after[0]) throw ApiError.notFound("plan_listing_not_found", `Plan listing ${id}`);
  return listingViews(after, side)[0]!;
}

export async function deletePlanListing(env: Env, ctx: ServiceContext, id: number): Promise<void> {
  await findListing(env, ctx, id);
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
