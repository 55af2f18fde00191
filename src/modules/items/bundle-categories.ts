import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { type Envelope, type ListSpec, listPage, searchColumns } from "../../core/listing";
import { nowIso } from "../../core/time";
import { emit, insertedRowEvent, newEvent } from "../../events/outbox";
import type { CreateBundleCategorySchema, ItemBundleCategorySchema, UpdateBundleCategorySchema } from "./schemas";
import { bundleCategories, itemBundleCategories, items } from "./tables";

type Row = typeof bundleCategories.$inferSelect;
export type BundleCategory = z.infer<typeof ItemBundleCategorySchema>;

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

const live = (appId: number) => and(eq(bundleCategories.appId, appId), eq(bundleCategories.isDeleted, false))!;

export const BUNDLE_CATEGORY_LIST: ListSpec = {
  fields: {
    id: { column: bundleCategories.id, kind: "integer" },
    name_en: { column: bundleCategories.nameEn, kind: "string" },
    name_ar: { column: bundleCategories.nameAr, kind: "string" },
    is_selectable: { column: bundleCategories.isSelectable, kind: "boolean" },
    is_optional: { column: bundleCategories.isOptional, kind: "boolean" },
    min_selections: { column: bundleCategories.minSelections, kind: "integer" },
    max_selections: { column: bundleCategories.maxSelections, kind: "integer" },
    ordering: { column: bundleCategories.ordering, kind: "integer" },
    created_at: { column: bundleCategories.createdAt, kind: "datetime" },
  },
  search: searchColumns(bundleCategories.nameEn, bundleCategories.nameAr),
  defaultOrder: "ordering",
  idColumn: bundleCategories.id,
};

async function found(ctx: ServiceContext, id: number): Promise<Row> {
  const row = await ctx.db
    .select()
    .from(bundleCategories)
    .where(and(live(ctx.appId), eq(bundleCategories.id, id)))
    .get();
  if (!row) throw ApiError.notFound(`Bundle category ${id}`);
  return row;
}

export async function listBundleCategories(ctx: ServiceContext, url: URL): Promise<Envelope<BundleCategory>> {
  const page = await listPage(ctx.db, url, BUNDLE_CATEGORY_LIST, {
    table: bundleCategories,
    scope: () => live(ctx.appId),
  });
  return { ...page, results: page.results.map(bundleCategoryView) };
}

export async function getBundleCategory(ctx: ServiceContext, id: number): Promise<BundleCategory> {
  return bundleCategoryView(await found(ctx, id));
}

export async function createBundleCategory(
  ctx: ServiceContext,
  input: z.infer<typeof CreateBundleCategorySchema>,
): Promise<BundleCategory> {
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(bundleCategories)
        .values({
          appId: ctx.appId,
          nameEn: input.name_en,
          nameAr: input.name_ar,
          isSelectable: input.is_selectable ?? true,
          isOptional: input.is_optional ?? false,
          minSelections: input.min_selections ?? 0,
          maxSelections: input.max_selections ?? 1,
          ordering: input.ordering ?? 0,
        })
        .returning(),
    ],
    insertedRowEvent("bundle_category.created", bundleCategories),
  );
  return bundleCategoryView((results[0] as Row[])[0]!);
}

export async function updateBundleCategory(
  ctx: ServiceContext,
  id: number,
  input: z.infer<typeof UpdateBundleCategorySchema>,
): Promise<BundleCategory> {
  const current = await found(ctx, id);
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
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(bundleCategories)
        .set({ ...next, modifiedAt: nowIso() })
        .where(eq(bundleCategories.id, id)),
    ],
    [newEvent(ctx.appId, "bundle_category.updated", { id })],
  );
  return getBundleCategory(ctx, id);
}

/** Refused with 409 and the item ids while live items use the category (see modifier categories). */
export async function deleteBundleCategory(ctx: ServiceContext, id: number): Promise<void> {
  await found(ctx, id);
  const users = await ctx.db
    .select({ id: items.id })
    .from(itemBundleCategories)
    .innerJoin(items, eq(items.id, itemBundleCategories.itemId))
    .where(and(eq(itemBundleCategories.bundleCategoryId, id), eq(items.appId, ctx.appId), eq(items.isDeleted, false)));
  if (users.length) {
    const ids = users.map((u) => u.id);
    throw ApiError.conflict(
      "bundle_category_in_use",
      `Items ${ids.join(", ")} use this bundle category; remove it from them first.`,
      { items: ids },
    );
  }
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(bundleCategories)
        .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
        .where(eq(bundleCategories.id, id)),
    ],
    [newEvent(ctx.appId, "bundle_category.deleted", { id })],
  );
}
