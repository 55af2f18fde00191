import { and, count, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { foundItem, itemRowRead } from "../shared";
import { itemImages } from "../tables";
import { type CreateItemImage, IMAGES_MAX, type ItemImage, type UpdateItemImage } from "./schemas";

type ImageRow = typeof itemImages.$inferSelect;

const records = tenantTable(itemImages, { label: "Image", notFound: "item_image_not_found" });

export const imageView = (i: ImageRow): ItemImage => ({
  id: i.id,
  url: i.url,
  alt_en: i.altEn,
  alt_ar: i.altAr,
  ordering: i.ordering,
});

/**
 * The live item or variant and its live image `imageId`, in one round trip: 404 `item_not_found`,
 * then 404 `item_image_not_found`.
 */
async function findImage(ctx: ServiceContext, itemId: number, imageId: number): Promise<ImageRow> {
  const [item, image] = await ctx.db.batch([
    itemRowRead(ctx, itemId),
    ctx.db
      .select()
      .from(itemImages)
      .where(and(records.live(ctx), eq(itemImages.id, imageId), eq(itemImages.itemId, itemId))),
  ]);
  foundItem(item, itemId, { variantsToo: true });
  if (!image[0]) throw ApiError.notFound("item_image_not_found", `Image ${imageId} of item ${itemId}`);
  return image[0];
}

/** Adds an image to an item or variant, at most `IMAGES_MAX` (409 `too_many_images`); `item.updated`. */
export async function addImage(ctx: ServiceContext, itemId: number, input: CreateItemImage): Promise<ItemImage> {
  const [item, counted] = await ctx.db.batch([
    itemRowRead(ctx, itemId),
    ctx.db
      .select({ n: count() })
      .from(itemImages)
      .where(and(live(itemImages, ctx.appId), eq(itemImages.itemId, itemId))),
  ]);
  foundItem(item, itemId, { variantsToo: true });
  const n = counted[0]?.n ?? 0;
  if (n >= IMAGES_MAX)
    throw ApiError.conflict("too_many_images", `An item has at most ${IMAGES_MAX} images; delete one first.`);
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      records.insert(ctx, {
        appId: ctx.appId,
        itemId,
        url: input.url,
        altEn: input.alt_en ?? "",
        altAr: input.alt_ar ?? "",
        ordering: input.ordering ?? n + 1,
      }),
    ],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
  return imageView((results[0] as ImageRow[])[0]!);
}

export async function updateImage(
  ctx: ServiceContext,
  itemId: number,
  imageId: number,
  input: UpdateItemImage,
): Promise<ItemImage> {
  await findImage(ctx, itemId, imageId);
  const set = {
    modifiedAt: nowIso(),
    url: input.url,
    altEn: input.alt_en,
    altAr: input.alt_ar,
    ordering: input.ordering,
  };
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [records.update(ctx, imageId, set).returning()],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
  // The image as it is now comes back from the update itself (none: deleted meanwhile).
  const row = (results[0] as ImageRow[])[0];
  if (!row) throw ApiError.notFound("item_image_not_found", `Image ${imageId} of item ${itemId}`);
  return imageView(row);
}

export async function deleteImage(ctx: ServiceContext, itemId: number, imageId: number): Promise<void> {
  await findImage(ctx, itemId, imageId);
  await emit(
    ctx.db,
    ctx.events,
    [records.softDelete(ctx, imageId)],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
}
