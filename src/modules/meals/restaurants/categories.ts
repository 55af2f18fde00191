import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { listed, live, refuseWhileUsed, tenantTable } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, namedListSpec } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { changed, updatedRow, write, writeCreated } from "../shared";
import { restaurantCategories, restaurants } from "../tables";
import type { CreateRestaurantCategorySchema, UpdateRestaurantCategorySchema } from "./schemas";
import { restaurantCategoryView } from "./views";

/** Restaurant categories (cuisines): what restaurants are filed under. */

const restaurantCategoryRows = tenantTable(restaurantCategories, {
  label: "Restaurant category",
  notFound: "restaurant_category_not_found",
});

export const RESTAURANT_CATEGORY_LIST: ListSpec = {
  ...namedListSpec(restaurantCategories),
  sync: { modifiedAt: restaurantCategories.modifiedAt, softDeleted: true },
};

export async function listRestaurantCategories(ctx: ServiceContext, q: ListQuery) {
  const page = await listPage(ctx.db, q, {
    table: restaurantCategories,
    scope: () => listed(restaurantCategories, ctx.appId, q),
  });
  return mapPage(page, restaurantCategoryView);
}

type RestaurantCategoryFields = z.infer<typeof UpdateRestaurantCategorySchema>;

/** The body's fields → the category's columns (drizzle leaves the undefined ones out). */
const restaurantCategoryColumns = (b: RestaurantCategoryFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  image: b.image,
  ordering: b.ordering,
});

export async function createRestaurantCategory(
  ctx: ServiceContext,
  body: z.infer<typeof CreateRestaurantCategorySchema>,
) {
  const inserted = await writeCreated<typeof restaurantCategories.$inferSelect>(
    ctx,
    "restaurant_category.created",
    restaurantCategories,
    restaurantCategoryRows.insert(ctx, {
      ...restaurantCategoryColumns(body),
      appId: ctx.appId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
    }),
  );
  return restaurantCategoryView(inserted);
}

export async function updateRestaurantCategory(ctx: ServiceContext, id: number, body: RestaurantCategoryFields) {
  await restaurantCategoryRows.find(ctx, id);
  const [updated] = await write(ctx, changed(ctx, "restaurant_category.updated", id), [
    restaurantCategoryRows.update(ctx, id, { ...restaurantCategoryColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return restaurantCategoryView(await updatedRow(ctx, restaurantCategoryRows, id, updated));
}

/** Refused while live restaurants are filed under it, as the catalogue's categories are. */
export async function deleteRestaurantCategory(ctx: ServiceContext, id: number): Promise<void> {
  await restaurantCategoryRows.find(ctx, id);
  const users = await ctx.db
    .select({ id: restaurants.id })
    .from(restaurants)
    .where(and(live(restaurants, ctx.appId), eq(restaurants.categoryId, id)));
  const ids = users.map((r) => r.id);
  refuseWhileUsed(
    "restaurant_category_in_use",
    { restaurants: ids },
    `Restaurants ${ids.join(", ")} are filed under this category; move them first.`,
  );
  await write(ctx, changed(ctx, "restaurant_category.deleted", id), [restaurantCategoryRows.softDelete(ctx, id)]);
}
