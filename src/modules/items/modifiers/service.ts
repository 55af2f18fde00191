import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { BatchPlan, batchStatement, selectColumns } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, refuseWhileUsed, softDeleted, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, insertedRowEvent, newEvent } from "../../../core/events/outbox";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, namedListSpec, type Page } from "../../../core/listing";
import { chunkRows, inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { items, modifierCategories, modifierValues, variantModifierValues } from "../tables";
import type { CreateModifierCategory, ModifierCategoryRecord, UpdateModifierCategory } from "./schemas";

type CategoryRow = typeof modifierCategories.$inferSelect;
type ValueRow = typeof modifierValues.$inferSelect;

const categories = tenantTable(modifierCategories, {
  label: "Modifier category",
  notFound: "modifier_category_not_found",
});

export const MODIFIER_CATEGORY_LIST: ListSpec = {
  ...namedListSpec(modifierCategories),
  sync: { modifiedAt: modifierCategories.modifiedAt, softDeleted: true },
};

export const modifierValueView = (v: ValueRow) => ({
  id: v.id,
  ordering: v.ordering,
  name_en: v.nameEn,
  name_ar: v.nameAr,
});

/** The live values of the categories that `ids` selects (a subquery), as a part of their statement (core/json-rows). */
const valuesJson = (ctx: ServiceContext, ids: SQL) =>
  rowsJson(modifierValues, and(live(modifierValues, ctx.appId), sql`${modifierValues.categoryId} IN ${ids}`)!, [
    asc(modifierValues.ordering),
    asc(modifierValues.id),
  ]);

/** Categories with their live values (`valuesJson`'s part, parsed). */
function withValues(rows: CategoryRow[], valuesPart: unknown): ModifierCategoryRecord[] {
  const values = decodeRows(modifierValues, valuesPart);
  return rows.map((c) => ({
    id: c.id,
    ordering: c.ordering,
    name_en: c.nameEn,
    name_ar: c.nameAr,
    values: values.filter((v) => v.categoryId === c.id).map(modifierValueView),
    modified_at: c.modifiedAt,
    is_deleted: c.isDeleted,
  }));
}

export async function listModifierCategories(ctx: ServiceContext, q: ListQuery): Promise<Page<ModifierCategoryRecord>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: modifierCategories, scope: () => categories.listed(ctx, q) },
    (rows) => ({ values: valuesJson(ctx, sql`(SELECT id FROM ${rows})`) }),
  );
  return { ...page, results: withValues(page.results, nested.values) };
}

/** The category `id` with its live values, as one SELECT (`categoryOfRow` reads its row). */
function categoryQuery(ctx: ServiceContext, id: number): SQL {
  const mine = and(categories.live(ctx), eq(modifierCategories.id, id))!;
  return sql`SELECT ${rowsJson(modifierCategories, mine)} AS "rows", ${valuesJson(ctx, sql`(${id})`)} AS "values"`;
}

/** The category `categoryQuery` answered, with its live values; else 404 `modifier_category_not_found`. */
function categoryOfRow(id: number, row: { rows: unknown; values: unknown } | undefined): ModifierCategoryRecord {
  const found = decodeRows(modifierCategories, row?.rows ?? "[]");
  if (!found.length) throw ApiError.notFound("modifier_category_not_found", `Modifier category ${id}`);
  return withValues(found, row?.values ?? "[]")[0]!;
}

/** A category with its live values, in one statement; else 404 `modifier_category_not_found`. */
export async function getModifierCategory(ctx: ServiceContext, id: number): Promise<ModifierCategoryRecord> {
  return categoryOfRow(id, await ctx.db.get<{ rows: string | null; values: string | null }>(categoryQuery(ctx, id)));
}

/** Creates the category and its values in one batch, with its `modifier_category.created` event. */
export async function createModifierCategory(
  ctx: ServiceContext,
  input: CreateModifierCategory,
): Promise<ModifierCategoryRecord> {
  const plan = new BatchPlan(ctx.db);
  const category = plan.insert(
    "category",
    categories.insert(ctx, {
      appId: ctx.appId,
      nameEn: input.name_en,
      nameAr: input.name_ar,
      ordering: input.ordering ?? 0,
    }),
  );
  const values = input.values.map((v, i) => ({
    appId: ctx.appId,
    categoryId: category.id,
    nameEn: v.name_en,
    nameAr: v.name_ar,
    ordering: v.ordering ?? i + 1,
  }));
  plan.add(...chunkRows(modifierValues, values).map((chunk) => ctx.db.insert(modifierValues).values(chunk)));
  plan.event(insertedRowEvent("modifier_category.created", modifierCategories, category));
  return getModifierCategory(ctx, (await plan.run(ctx.events)).id(category));
}

/** The live variants that use a value of category `id`, with the value each uses. */
const variantsUsingValuesOf = (ctx: ServiceContext, id: number) =>
  ctx.db
    .select({ id: variantModifierValues.itemId, valueId: variantModifierValues.valueId })
    .from(variantModifierValues)
    .innerJoin(items, eq(items.id, variantModifierValues.itemId))
    .where(
      and(
        live(items, ctx.appId),
        sql`${variantModifierValues.valueId} IN (SELECT id FROM modifier_values WHERE category_id = ${id})`,
      ),
    );

/** The columns an update sets, from the body's fields that are present. */
const categoryColumns = (input: UpdateModifierCategory, at: string) => ({
  modifiedAt: at,
  nameEn: input.name_en,
  nameAr: input.name_ar,
  ordering: input.ordering,
});

/**
 * Renames or reorders the category; `values` replaces its values (an entry with an id changes
 * that value, one without adds one, one left out is removed unless a variant uses it: 409).
 */
export async function updateModifierCategory(
  ctx: ServiceContext,
  id: number,
  input: UpdateModifierCategory,
): Promise<ModifierCategoryRecord> {
  // The category, its values and the variants that use them in one round trip; the answer is read
  // at the end of the write's batch: two in all.
  const [row, users] = await ctx.db.batch([
    batchStatement(ctx.db, categoryQuery(ctx, id), selectColumns(["rows", "values"])),
    variantsUsingValuesOf(ctx, id),
  ]);
  const category = categoryOfRow(id, (row as { rows: unknown; values: unknown }[])[0]);
  const at = nowIso();
  const changes: BatchItem<"sqlite">[] = [categories.update(ctx, category.id, categoryColumns(input, at))];
  if (input.values) {
    const current = category.values;
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
    const using = [...new Set(users.filter((u) => removed.includes(u.valueId)).map((u) => u.id))];
    refuseWhileUsed(
      "modifier_value_in_use",
      { items: using },
      `Values that variants use cannot be removed; change or delete variants ${using.join(", ")} first.`,
    );
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
      changes.push(ctx.db.update(modifierValues).set(softDeleted(at)).where(inList(modifierValues.id, removed)));
    }
  }
  const { results } = await emit(
    ctx.db,
    ctx.events,
    changes,
    [newEvent(ctx.appId, "modifier_category.updated", { id: category.id })],
    { after: [batchStatement(ctx.db, categoryQuery(ctx, id), selectColumns(["rows", "values"]))] },
  );
  return categoryOfRow(id, (results.at(-1) as { rows: unknown; values: unknown }[])[0]);
}

/**
 * Deleting a category that live items offer, or that variants vary on, is refused with 409 and
 * the ids of those items: detaching them silently would change what customers can choose.
 */
export async function deleteModifierCategory(ctx: ServiceContext, id: number): Promise<void> {
  // The category and the items that use it in one round trip, then the delete.
  await categories.findUnused(
    ctx,
    id,
    ctx.db
      .select({ id: items.id })
      .from(items)
      .where(
        and(
          live(items, ctx.appId),
          sql`(${items.variesOnId} = ${id} OR ${items.id} IN (SELECT item_id FROM item_modifier_categories
            WHERE category_id = ${id}))`,
        ),
      ),
    {
      code: "modifier_category_in_use",
      detail: (ids) => `Items ${ids.join(", ")} use this category; remove it from them first.`,
    },
  );
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      categories.softDelete(ctx, id),
      ctx.db.update(modifierValues).set(softDeleted(at)).where(eq(modifierValues.categoryId, id)),
    ],
    [newEvent(ctx.appId, "modifier_category.deleted", { id })],
  );
}
