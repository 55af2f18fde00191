import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { emit, newEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, namedListSpec, type Page } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { itemCategories, itemCategoryLinks, items } from "../tables";
import type { CreateItemCategory, ItemCategory, UpdateItemCategory } from "./schemas";

const records = tenantTable(itemCategories, {
  label: "Item category",
  notFound: "item_category_not_found",
  events: { created: "item_category.created", updated: "item_category.updated", deleted: "item_category.deleted" },
});

const view = (c: typeof itemCategories.$inferSelect): ItemCategory => ({
  id: c.id,
  name_en: c.nameEn,
  name_ar: c.nameAr,
  ordering: c.ordering,
  created_at: c.createdAt,
  modified_at: c.modifiedAt,
  is_deleted: c.isDeleted,
});

export const ITEM_CATEGORY_LIST: ListSpec = {
  ...namedListSpec(itemCategories),
  sync: { modifiedAt: itemCategories.modifiedAt, softDeleted: true },
};

export async function listItemCategories(ctx: ServiceContext, q: ListQuery): Promise<Page<ItemCategory>> {
  return mapPage(await listPage(ctx.db, q, { table: itemCategories, scope: () => records.listed(ctx, q) }), view);
}

export async function getItemCategory(ctx: ServiceContext, id: number): Promise<ItemCategory> {
  return view(await records.find(ctx, id));
}

export async function createItemCategory(ctx: ServiceContext, input: CreateItemCategory): Promise<ItemCategory> {
  return view(
    await records.create(ctx, {
      appId: ctx.appId,
      nameEn: input.name_en,
      nameAr: input.name_ar,
      ordering: input.ordering,
    }),
  );
}

export async function updateItemCategory(
  ctx: ServiceContext,
  id: number,
  input: UpdateItemCategory,
): Promise<ItemCategory> {
  const set = { modifiedAt: nowIso(), nameEn: input.name_en, nameAr: input.name_ar, ordering: input.ordering };
  return view(await records.change(ctx, id, set));
}

/** Refused with 409 and the item ids while live items are in the category, as for the other categories. */
export async function deleteItemCategory(ctx: ServiceContext, id: number): Promise<void> {
  // The category and the items in it in one round trip, then the delete.
  await records.findUnused(
    ctx,
    id,
    ctx.db
      .select({ id: items.id })
      .from(itemCategoryLinks)
      .innerJoin(items, eq(items.id, itemCategoryLinks.itemId))
      .where(and(eq(itemCategoryLinks.categoryId, id), live(items, ctx.appId))),
    {
      code: "item_category_in_use",
      detail: (ids) => `Items ${ids.join(", ")} are in this category; take them out first.`,
    },
  );
  await emit(ctx.db, ctx.events, [records.softDelete(ctx, id)], [newEvent(ctx.appId, "item_category.deleted", { id })]);
}
