import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, refuseWhileUsed, tenantTable } from "../../../core/crud/tenant-table";
import { nowIso } from "../../../core/time";
import { changed, insertedRow, updatedRow, write } from "../shared";
import { combos, menuCategories, products } from "../tables";
import type { CreateMenuCategorySchema, UpdateMenuCategorySchema } from "./schemas";
import { menuRows } from "./service";
import { menuCategoryRecordView } from "./views";

/** The categories of a menu; a change is the menu's (`menu.updated`). */

export const menuCategoryRows = tenantTable(menuCategories, {
  label: "Menu category",
  notFound: "menu_category_not_found",
});

type MenuCategoryFields = z.infer<typeof UpdateMenuCategorySchema>;

/** The body's fields → the category's columns (drizzle leaves the undefined ones out). */
const menuCategoryColumns = (b: MenuCategoryFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  image: b.image,
  isSub: b.is_sub,
  isActive: b.is_active,
  customFields: b.custom_fields,
  ordering: b.ordering,
});

export async function createMenuCategory(
  ctx: ServiceContext,
  menuId: number,
  body: z.infer<typeof CreateMenuCategorySchema>,
) {
  await menuRows.find(ctx, menuId);
  const [inserted] = await write(ctx, changed(ctx, "menu.updated", menuId), [
    menuCategoryRows.insert(ctx, {
      ...menuCategoryColumns(body),
      appId: ctx.appId,
      menuId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
    }),
  ]);
  return menuCategoryRecordView(insertedRow<typeof menuCategories.$inferSelect>(inserted));
}

export async function updateMenuCategory(ctx: ServiceContext, id: number, body: MenuCategoryFields) {
  const category = await menuCategoryRows.find(ctx, id);
  const [updated] = await write(ctx, changed(ctx, "menu.updated", category.menuId), [
    menuCategoryRows.update(ctx, id, { ...menuCategoryColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return menuCategoryRecordView(await updatedRow(ctx, menuCategoryRows, id, updated));
}

/** Refused while live products or combos are in it, naming them. */
export async function deleteMenuCategory(ctx: ServiceContext, id: number): Promise<void> {
  const category = await menuCategoryRows.find(ctx, id);
  const [inside, comboRows] = await ctx.db.batch([
    ctx.db
      .select({ id: products.id })
      .from(products)
      .where(and(live(products, ctx.appId), eq(products.categoryId, id))),
    ctx.db
      .select({ id: combos.id })
      .from(combos)
      .where(and(live(combos, ctx.appId), eq(combos.categoryId, id))),
  ]);
  const productIds = inside.map((p) => p.id);
  const comboIds = comboRows.map((k) => k.id);
  refuseWhileUsed(
    "menu_category_in_use",
    { products: productIds, combos: comboIds },
    `Products ${productIds.join(", ") || "none"} and combos ${comboIds.join(", ") || "none"} ` +
      "are in this category; move or delete them first.",
  );
  await write(ctx, changed(ctx, "menu.updated", category.menuId), [menuCategoryRows.softDelete(ctx, id)]);
}
