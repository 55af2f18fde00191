import type { z } from "@hono/zod-openapi";
import { and, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { listed, live, refuseWhileUsed, tenantTable } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, searchColumns } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { changed, findChecked, updatedRow, write, writeCreated } from "../shared";
import { plans, planTags } from "../tables";
import type { CreatePlanTagSchema, UpdatePlanTagSchema } from "./schemas";
import { planTagView } from "./views";

/** Plan tags: what plans carry, and List Plans filters by. */

const planTagRows = tenantTable(planTags, { label: "Plan tag", notFound: "plan_tag_not_found" });

export const PLAN_TAG_LIST: ListSpec = {
  fields: {
    id: { column: planTags.id, kind: "integer" },
    type_en: { column: planTags.typeEn, kind: "string" },
    tag_en: { column: planTags.tagEn, kind: "string" },
    ordering: { column: planTags.ordering, kind: "integer" },
  },
  search: searchColumns(planTags.tagEn, planTags.tagAr, planTags.typeEn, planTags.typeAr),
  defaultOrder: "ordering",
  idColumn: planTags.id,
  sync: { modifiedAt: planTags.modifiedAt, softDeleted: true },
};

/** List Plan Tags. */
export async function listPlanTags(ctx: ServiceContext, q: ListQuery) {
  const page = await listPage(ctx.db, q, { table: planTags, scope: () => listed(planTags, ctx.appId, q) });
  return mapPage(page, planTagView);
}

type PlanTagFields = z.infer<typeof UpdatePlanTagSchema>;

/** The body's fields → the tag's columns (drizzle leaves the undefined ones out). */
const planTagColumns = (b: PlanTagFields) => ({
  typeEn: b.type_en,
  typeAr: b.type_ar,
  tagEn: b.tag_en,
  tagAr: b.tag_ar,
  descriptionEn: b.description_en,
  descriptionAr: b.description_ar,
  image: b.image,
  color: b.color,
  ordering: b.ordering,
});

export async function createPlanTag(ctx: ServiceContext, body: z.infer<typeof CreatePlanTagSchema>) {
  const inserted = await writeCreated<typeof planTags.$inferSelect>(
    ctx,
    "plan_tag.created",
    planTags,
    planTagRows.insert(ctx, {
      ...planTagColumns(body),
      appId: ctx.appId,
      typeEn: body.type_en,
      typeAr: body.type_ar,
      tagEn: body.tag_en,
      tagAr: body.tag_ar,
    }),
  );
  return planTagView(inserted);
}

export async function updatePlanTag(ctx: ServiceContext, id: number, body: PlanTagFields) {
  await planTagRows.find(ctx, id);
  const [updated] = await write(ctx, changed(ctx, "plan_tag.updated", id), [
    planTagRows.update(ctx, id, { ...planTagColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return planTagView(await updatedRow(ctx, planTagRows, id, updated));
}

/** Refused while live plans carry it, naming them. */
export async function deletePlanTag(ctx: ServiceContext, id: number): Promise<void> {
  await findChecked(ctx, planTagRows, id, [
    {
      read: ctx.db
        .select({ id: plans.id })
        .from(plans)
        .where(and(live(plans, ctx.appId), sql`EXISTS (SELECT 1 FROM json_each(${plans.tagIds}) WHERE value = ${id})`)),
      refuse: (users: { id: number }[]) => {
        const ids = users.map((p) => p.id);
        refuseWhileUsed(
          "plan_tag_in_use",
          { plans: ids },
          `Plans ${ids.join(", ")} carry this tag; take it off them first.`,
        );
      },
    },
  ]);
  await write(ctx, changed(ctx, "plan_tag.deleted", id), [planTagRows.softDelete(ctx, id)]);
}
