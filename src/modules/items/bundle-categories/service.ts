import { and, eq } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, insertedRowEvent, newEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, namedListSpec, type Page } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { bundleCategories, itemBundleCategories, items } from "../tables";
import type { BundleCategory, BundleCategoryRecord, CreateBundleCategory, UpdateBundleCategory } from "./schemas";

type Row = typeof bundleCategories.$inferSelect;

const records = tenantTable(bundleCategories, { label: "Bundle category", notFound: "bundle_category_not_found" });

export function bundleCategoryView(b: Row): BundleCategory {
  return {
    id: b.id,
    name_en: b.nameEn,
    name_ar: b.nameAr,
    is_selectable: b.isSelectable,
    is_optional: b.isOptional,
    min_selections: b.minSelections,
    max_selections: b.maxSelections,
    ordering: b.ordering,
  };
}

/** The category as its own resource: as inside an Item, with its sync fields. */
const recordView = (b: Row): BundleCategoryRecord => ({
  ...bundleCategoryView(b),
  modified_at: b.modifiedAt,
  is_deleted: b.isDeleted,
});

export const BUNDLE_CATEGORY_LIST: ListSpec = {
  ...namedListSpec(bundleCategories, {
    is_selectable: { column: bundleCategories.isSelectable, kind: "boolean" },
    is_optional: { column: bundleCategories.isOptional, kind: "boolean" },
    min_selections: { column: bundleCategories.minSelections, kind: "integer" },
    max_selections: { column: bundleCategories.maxSelections, kind: "integer" },
  }),
  sync: { modifiedAt: bundleCategories.modifiedAt, softDeleted: true },
};

export async function listBundleCategories(ctx: ServiceContext, q: ListQuery): Promise<Page<BundleCategoryRecord>> {
  const page = await listPage(ctx.db, q, { table: bundleCategories, scope: () => records.listed(ctx, q) });
  return mapPage(page, recordView);
}

export async function getBundleCategory(ctx: ServiceContext, id: number): Promise<BundleCategoryRecord> {
  return recordView(await records.find(ctx, id));
}

export async function createBundleCategory(
  ctx: ServiceContext,
  input: CreateBundleCategory,
): Promise<BundleCategoryRecord> {
  const plan = new BatchPlan(ctx.db);
  const category = plan.insert(
    "category",
    records.insert(ctx, {
      appId: ctx.appId,
      nameEn: input.name_en,
      nameAr: input.name_ar,
      isSelectable: input.is_selectable ?? true,
      isOptional: input.is_optional ?? false,
      minSelections: input.min_selections ?? 0,
      maxSelections: input.max_selections ?? 1,
      ordering: input.ordering ?? 0,
    }),
  );
  plan.event(insertedRowEvent("bundle_category.created", bundleCategories, category));
  return recordView((await plan.run(ctx.events)).row<Row>(category));
}

/** Any fields; `min_selections` must stay at most `max_selections`, against the stored values too (400). */
export async function updateBundleCategory(
  ctx: ServiceContext,
  id: number,
  input: UpdateBundleCategory,
): Promise<BundleCategoryRecord> {
  const current = await records.find(ctx, id);
  const next = {
    nameEn: input.name_en ?? current.nameEn,
    nameAr: input.name_ar ?? current.nameAr,
    isSelectable: input.is_selectable ?? current.isSelectable,
    isOptional: input.is_optional ?? current.isOptional,
    minSelections: input.min_selections ?? current.minSelections,
    maxSelections: input.max_selections ?? current.maxSelections,
    ordering: input.ordering ?? current.ordering,
  };
  if (next.minSelections > next.maxSelections) {
    throw ApiError.validation({ min_selections: [`Must not be above max_selections (${next.maxSelections}).`] });
  }
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [records.update(ctx, id, { ...next, modifiedAt: nowIso() }).returning()],
    [newEvent(ctx.appId, "bundle_category.updated", { id })],
  );
  // The category as it is now comes back from the update itself (none: deleted meanwhile).
  const row = (results[0] as Row[])[0];
  if (!row) throw ApiError.notFound("bundle_category_not_found", `${records.label} ${id}`);
  return recordView(row);
}

/** Refused with 409 and the item ids while live items use the category (see modifier categories). */
export async function deleteBundleCategory(ctx: ServiceContext, id: number): Promise<void> {
  // The category and the items that use it in one round trip, then the delete.
  await records.findUnused(
    ctx,
    id,
    ctx.db
      .select({ id: items.id })
      .from(itemBundleCategories)
      .innerJoin(items, eq(items.id, itemBundleCategories.itemId))
      .where(and(eq(itemBundleCategories.bundleCategoryId, id), live(items, ctx.appId))),
    {
      code: "bundle_category_in_use",
      detail: (ids) => `Items ${ids.join(", ")} use this bundle category; remove it from them first.`,
    },
  );
  await emit(
    ctx.db,
    ctx.events,
    [records.softDelete(ctx, id)],
    [newEvent(ctx.appId, "bundle_category.deleted", { id })],
  );
}
