import type { ServiceContext } from "../../../core/context";
import { tenantTable } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, namedListSpec, type Page } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { itemTags } from "../tables";
import type { CreateItemTag, ItemTag, UpdateItemTag } from "./schemas";

const records = tenantTable(itemTags, {
  label: "Item tag",
  notFound: "item_tag_not_found",
  events: { created: "item_tag.created", updated: "item_tag.updated", deleted: "item_tag.deleted" },
});

const view = (t: typeof itemTags.$inferSelect): ItemTag => ({
  id: t.id,
  name_en: t.nameEn,
  name_ar: t.nameAr,
  ordering: t.ordering,
  modified_at: t.modifiedAt,
  is_deleted: t.isDeleted,
});

export const ITEM_TAG_LIST: ListSpec = {
  ...namedListSpec(itemTags),
  sync: { modifiedAt: itemTags.modifiedAt, softDeleted: true },
};

export async function listItemTags(ctx: ServiceContext, q: ListQuery): Promise<Page<ItemTag>> {
  return mapPage(await listPage(ctx.db, q, { table: itemTags, scope: () => records.listed(ctx, q) }), view);
}

export async function createItemTag(ctx: ServiceContext, input: CreateItemTag): Promise<ItemTag> {
  return view(
    await records.create(ctx, {
      appId: ctx.appId,
      nameEn: input.name_en,
      nameAr: input.name_ar,
      ordering: input.ordering,
    }),
  );
}

export async function updateItemTag(ctx: ServiceContext, id: number, input: UpdateItemTag): Promise<ItemTag> {
  const set = { modifiedAt: nowIso(), nameEn: input.name_en, nameAr: input.name_ar, ordering: input.ordering };
  return view(await records.change(ctx, id, set));
}

export const deleteItemTag = (ctx: ServiceContext, id: number): Promise<void> => records.remove(ctx, id);
