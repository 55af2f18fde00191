import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { listed, tenantTable } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, namedListSpec } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { changed, insertedRow, updatedRow, write } from "../shared";
import { restaurantVariants } from "../tables";
import type { CreateRestaurantVariantSchema, UpdateRestaurantVariantSchema } from "./schemas";
import { activeRestaurantParent, restaurantRows } from "./service";
import { restaurantVariantView } from "./views";

/**
 * The variants (diets such as keto or low carb) a restaurant offers; products name theirs by
 * `name_en`. A change is the restaurant's (`restaurant.updated`).
 */

const restaurantVariantRows = tenantTable(restaurantVariants, {
  label: "Restaurant variant",
  notFound: "restaurant_variant_not_found",
});

export const RESTAURANT_VARIANT_LIST: ListSpec = {
  ...namedListSpec(restaurantVariants),
  sync: { modifiedAt: restaurantVariants.modifiedAt, softDeleted: true },
};

/**
 * Product Variants List: the same rows, chosen by the product's `variant` names, so a variant
 * leaves it when the product changes, not the variant: `modified_at` only, as the public
 * catalogue's other lists of visible rows.
 */
export const PRODUCT_VARIANT_LIST: ListSpec = {
  ...RESTAURANT_VARIANT_LIST,
  sync: { modifiedAt: restaurantVariants.modifiedAt, softDeleted: false },
};

/** Restaurant Variants List: the variants of an active restaurant. */
export async function listRestaurantVariants(ctx: ServiceContext, q: ListQuery, restaurantId: number) {
  const page = await listPage(ctx.db, q, {
    table: restaurantVariants,
    parent: activeRestaurantParent(ctx, restaurantId),
    scope: () => and(listed(restaurantVariants, ctx.appId, q), eq(restaurantVariants.restaurantId, restaurantId))!,
  });
  return mapPage(page, restaurantVariantView);
}

type RestaurantVariantFields = z.infer<typeof UpdateRestaurantVariantSchema>;

/** The body's fields → the variant's columns (drizzle leaves the undefined ones out). */
const restaurantVariantColumns = (b: RestaurantVariantFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  ordering: b.ordering,
});

export async function createRestaurantVariant(
  ctx: ServiceContext,
  restaurantId: number,
  body: z.infer<typeof CreateRestaurantVariantSchema>,
) {
  await restaurantRows.find(ctx, restaurantId);
  const [inserted] = await write(ctx, changed(ctx, "restaurant.updated", restaurantId), [
    restaurantVariantRows.insert(ctx, {
      ...restaurantVariantColumns(body),
      appId: ctx.appId,
      restaurantId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
    }),
  ]);
  return restaurantVariantView(insertedRow<typeof restaurantVariants.$inferSelect>(inserted));
}

export async function updateRestaurantVariant(ctx: ServiceContext, id: number, body: RestaurantVariantFields) {
  const variant = await restaurantVariantRows.find(ctx, id);
  const [updated] = await write(ctx, changed(ctx, "restaurant.updated", variant.restaurantId), [
    restaurantVariantRows.update(ctx, id, { ...restaurantVariantColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return restaurantVariantView(await updatedRow(ctx, restaurantVariantRows, id, updated));
}

/** Never refused: products name variants by text, and keep the names they have. */
export async function deleteRestaurantVariant(ctx: ServiceContext, id: number): Promise<void> {
  const variant = await restaurantVariantRows.find(ctx, id);
  await write(ctx, changed(ctx, "restaurant.updated", variant.restaurantId), [
    restaurantVariantRows.softDelete(ctx, id),
  ]);
}
