import type { z } from "@hono/zod-openapi";
import { and, asc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { type Envelope, type ListSpec, listPage, searchColumns } from "../../core/listing";
import { chunkRows, inList, insertedId } from "../../core/sql";
import { nowIso } from "../../core/time";
import { emit, insertedRowEvent, newEvent } from "../../events/outbox";
import type { CreateModifierCategorySchema, UpdateModifierCategorySchema } from "./schemas";
import { items, modifierCategories, modifierValues, variantModifierValues } from "./tables";

type CategoryRow = typeof modifierCategories.$inferSelect;
export type ModifierCategory = {
  id: number;
  ordering: number;
  name_en: string;
  name_ar: string;
  values: { id: number; ordering: number; name_en: string; name_ar: string }[];
};

const live = (appId: number) => and(eq(modifierCategories.appId, appId), eq(modifierCategories.isDeleted, false))!;

export const MODIFIER_CATEGORY_LIST: ListSpec = {
  fields: {
    id: { column: modifierCategories.id, kind: "integer" },
    name_en: { column: modifierCategories.nameEn, kind: "string" },
    name_ar: { column: modifierCategories.nameAr, kind: "string" },
    ordering: { column: modifierCategories.ordering, kind: "integer" },
    created_at: { column: modifierCategories.createdAt, kind: "datetime" },
  },
  search: searchColumns(modifierCategories.nameEn, modifierCategories.nameAr),
  defaultOrder: "ordering",
  idColumn: modifierCategories.id,
};

/** Categories with their live values: one statement for all the values, whatever the count. */
async function withValues(ctx: ServiceContext, rows: CategoryRow[]): Promise<ModifierCategory[]> {
  if (rows.length === 0) return [];
  const values = await ctx.db
    .select()
    .from(modifierValues)
    .where(
      and(
        eq(modifierValues.appId, ctx.appId),
        eq(modifierValues.isDeleted, false),
        inList(
          modifierValues.categoryId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(modifierValues.ordering), asc(modifierValues.id));
  return rows.map((c) => ({
    id: c.id,
    ordering: c.ordering,
    name_en: c.nameEn,
    name_ar: c.nameAr,
    values: values
      .filter((v) => v.categoryId === c.id)
      .map((v) => ({ id: v.id, ordering: v.ordering, name_en: v.nameEn, name_ar: v.nameAr })),
  }));
}

async function found(ctx: ServiceContext, id: number): Promise<CategoryRow> {
  const row = await ctx.db
    .select()
    .from(modifierCategories)
    .where(and(live(ctx.appId), eq(modifierCategories.id, id)))
    .get();
  if (!row) throw ApiError.notFound(`Modifier category ${id}`);
  return row;
}

export async function listModifierCategories(ctx: ServiceContext, url: URL): Promise<Envelope<ModifierCategory>> {
  const page = await listPage(ctx.db, url, MODIFIER_CATEGORY_LIST, {
    table: modifierCategories,
    scope: () => live(ctx.appId),
  });
  return { ...page, results: await withValues(ctx, page.results) };
}

export async function getModifierCategory(ctx: ServiceContext, id: number): Promise<ModifierCategory> {
  return (await withValues(ctx, [await found(ctx, id)]))[0]!;
}

/** Creates the category and its values in one batch, with its `modifier_category.created` event. */
export async function createModifierCategory(
  ctx: ServiceContext,
  input: z.infer<typeof CreateModifierCategorySchema>,
): Promise<ModifierCategory> {
  const values = input.values.map((v, i) => ({
    appId: ctx.appId,
    categoryId: insertedId(modifierCategories),
    nameEn: v.name_en,
    nameAr: v.name_ar,
    ordering: v.ordering ?? i + 1,
  }));
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(modifierCategories)
        .values({ appId: ctx.appId, nameEn: input.name_en, nameAr: input.name_ar, ordering: input.ordering ?? 0 })
        .returning({ id: modifierCategories.id }),
      ...chunkRows(modifierValues, values).map((chunk) => ctx.db.insert(modifierValues).values(chunk)),
    ],
    insertedRowEvent("modifier_category.created", modifierCategories),
  );
  const [created] = results[0] as { id: number }[];
  return getModifierCategory(ctx, created!.id);
}

/** Variants (live items) that use any of `valueIds`. */
async function variantsUsing(ctx: ServiceContext, valueIds: number[]): Promise<number[]> {
  if (valueIds.length === 0) return [];
  const rows = await ctx.db
    .select({ id: variantModifierValues.itemId })
    .from(variantModifierValues)
    .innerJoin(items, eq(items.id, variantModifierValues.itemId))
    .where(
      and(
        eq(variantModifierValues.appId, ctx.appId),
        eq(items.isDeleted, false),
        inList(variantModifierValues.valueId, valueIds),
      ),
    );
  return [...new Set(rows.map((r) => r.id))];
}

export async function updateModifierCategory(
  ctx: ServiceContext,
  id: number,
  input: z.infer<typeof UpdateModifierCategorySchema>,
): Promise<ModifierCategory> {
  const category = await found(ctx, id);
  const at = nowIso();
  const changes = [];
  const set = {
    modifiedAt: at,
    ...(input.name_en !== undefined && { nameEn: input.name_en }),
    ...(input.name_ar !== undefined && { nameAr: input.name_ar }),
    ...(input.ordering !== undefined && { ordering: input.ordering }),
  };
  changes.push(ctx.db.update(modifierCategories).set(set).where(eq(modifierCategories.id, category.id)));
  if (input.values) {
    const current = (await withValues(ctx, [category]))[0]!.values;
    const currentIds = new Set(current.map((v) => v.id));
    const unknown = input.values.filter((v) => v.id !== undefined && !currentIds.has(v.id));
    if (unknown.length) {
      throw ApiError.validation(
        Object.fromEntries(
          unknown.map((v) => [`values.${input.values!.indexOf(v)}.id`, [`No value ${v.id} in this category.`]]),
        ),
        "Some values are not in this category; see `errors`.",
      );
    }
    const kept = new Set(input.values.flatMap((v) => (v.id ? [v.id] : [])));
    const removed = current.filter((v) => !kept.has(v.id)).map((v) => v.id);
    const using = await variantsUsing(ctx, removed);
    if (using.length) {
      throw ApiError.conflict(
        "modifier_value_in_use",
        `Values that variants use cannot be removed; change or delete variants ${using.join(", ")} first.`,
        { items: using },
      );
    }
    input.values.forEach((v, i) => {
      const fields = { nameEn: v.name_en, nameAr: v.name_ar, ordering: v.ordering ?? i + 1, modifiedAt: at };
      changes.push(
        v.id
          ? ctx.db
              .update(modifierValues)
              .set(fields)
              .where(and(eq(modifierValues.id, v.id), eq(modifierValues.categoryId, category.id)))
          : ctx.db.insert(modifierValues).values({ ...fields, appId: ctx.appId, categoryId: category.id }),
      );
    });
    if (removed.length) {
      changes.push(
        ctx.db
          .update(modifierValues)
          .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
          .where(inList(modifierValues.id, removed)),
      );
    }
  }
  await emit(ctx.db, ctx.events, changes, [newEvent(ctx.appId, "modifier_category.updated", { id: category.id })]);
  return getModifierCategory(ctx, category.id);
}

/**
 * Deleting a category that live items offer, or that variants vary on, is refused with 409 and
 * the ids of those items: detaching them silently would change what customers can choose.
 */
export async function deleteModifierCategory(ctx: ServiceContext, id: number): Promise<void> {
  const category = await found(ctx, id);
  const users = await ctx.db
    .select({ id: items.id })
    .from(items)
    .where(
      and(
        eq(items.appId, ctx.appId),
        eq(items.isDeleted, false),
        sql`(${items.variesOnId} = ${category.id} OR ${items.id} IN (SELECT item_id FROM item_modifier_categories WHERE category_id = ${category.id}))`,
      ),
    );
  if (users.length) {
    const ids = users.map((u) => u.id);
    throw ApiError.conflict(
      "modifier_category_in_use",
      `Items ${ids.join(", ")} use this category; remove it from them first.`,
      { items: ids },
    );
  }
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(modifierCategories)
        .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
        .where(eq(modifierCategories.id, category.id)),
      ctx.db
        .update(modifierValues)
        .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
        .where(eq(modifierValues.categoryId, category.id)),
    ],
    [newEvent(ctx.appId, "modifier_category.deleted", { id: category.id })],
  );
}
