import type { z } from "@hono/zod-openapi";
import type { ServiceContext } from "../../../core/context";
import { listed, tenantTable } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, namedListSpec } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { changed, updatedRow, write, writeCreated } from "../shared";
import { ALLERGEN_KINDS, allergens } from "../tables";
import { auditView } from "../views";
import type { CreateAllergenSchema, UpdateAllergenSchema } from "./schemas";

/** Allergens and dislikes a customer can declare; products name theirs by `name_en`. */

type AllergenRow = typeof allergens.$inferSelect;

const allergenRows = tenantTable(allergens, { label: "Allergen or dislike", notFound: "allergen_not_found" });

export const allergenView = (a: AllergenRow) => ({
  id: a.id,
  ...auditView(a),
  kind: a.kind,
  name_en: a.nameEn,
  name_ar: a.nameAr,
  icon: a.icon,
});

export const ALLERGEN_LIST: ListSpec = {
  ...namedListSpec(allergens, {
    kind: { column: allergens.kind, kind: "string", values: ALLERGEN_KINDS },
  }),
  sync: { modifiedAt: allergens.modifiedAt, softDeleted: true },
};

/** Allergen Dislikes List. */
export async function listAllergens(ctx: ServiceContext, q: ListQuery) {
  const page = await listPage(ctx.db, q, { table: allergens, scope: () => listed(allergens, ctx.appId, q) });
  return mapPage(page, allergenView);
}

type AllergenFields = z.infer<typeof UpdateAllergenSchema>;

/** The body's fields → the allergen's columns (drizzle leaves the undefined ones out). */
const allergenColumns = (b: AllergenFields) => ({
  kind: b.kind,
  nameEn: b.name_en,
  nameAr: b.name_ar,
  icon: b.icon,
  ordering: b.ordering,
});

export async function createAllergen(ctx: ServiceContext, body: z.infer<typeof CreateAllergenSchema>) {
  const inserted = await writeCreated<AllergenRow>(
    ctx,
    "allergen.created",
    allergens,
    allergenRows.insert(ctx, {
      ...allergenColumns(body),
      appId: ctx.appId,
      kind: body.kind,
      nameEn: body.name_en,
      nameAr: body.name_ar,
    }),
  );
  return allergenView(inserted);
}

export async function updateAllergen(ctx: ServiceContext, id: number, body: AllergenFields) {
  await allergenRows.find(ctx, id);
  const [updated] = await write(ctx, changed(ctx, "allergen.updated", id), [
    allergenRows.update(ctx, id, { ...allergenColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return allergenView(await updatedRow(ctx, allergenRows, id, updated));
}

/** Never refused: products name allergens by text, and keep the names they have. */
export async function deleteAllergen(ctx: ServiceContext, id: number): Promise<void> {
  await allergenRows.find(ctx, id);
  await write(ctx, changed(ctx, "allergen.deleted", id), [allergenRows.softDelete(ctx, id)]);
}
