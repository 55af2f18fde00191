import type { z } from "@hono/zod-openapi";
import { and, count, eq } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { toMajor, toMinor } from "../../core/money";
import { nowIso } from "../../core/time";
import { emit, newEvent } from "../../events/outbox";
import {
  type CreateDiscountSchema,
  type CreateItemImageSchema,
  type DiscountSchema,
  IMAGES_MAX,
  type UpdateDiscountSchema,
  type UpdateItemImageSchema,
} from "./schemas";
import { itemDiscounts, itemImages, items } from "./tables";

type DiscountRow = typeof itemDiscounts.$inferSelect;
type ImageRow = typeof itemImages.$inferSelect;
type Kind = "percentage" | "fixed";

/** Percentages are kept in basis points, fixed amounts in minor units. */
const stored = (kind: Kind, value: number) =>
  kind === "percentage" ? Math.round(value * 100) : toMinor(value.toFixed(2))!;
const served = (kind: Kind, value: number) => (kind === "percentage" ? value / 100 : toMajor(value));

function discountView(d: DiscountRow): z.infer<typeof DiscountSchema> {
  return {
    id: d.id,
    item: d.itemId,
    kind: d.kind,
    value: served(d.kind, d.value),
    trial_kind: d.trialKind,
    trial_value: d.trialKind && d.trialValue !== null ? served(d.trialKind, d.trialValue) : null,
    is_usage_price: d.isUsagePrice,
    starts_at: d.startsAt,
    ends_at: d.endsAt,
  };
}

const imageView = (i: ImageRow) => ({ id: i.id, url: i.url, alt_en: i.altEn, alt_ar: i.altAr, ordering: i.ordering });

/** The item or variant, live and the store's own; the changes below are `item.updated` for it. */
async function liveItem(ctx: ServiceContext, id: number) {
  const row = await ctx.db
    .select({ id: items.id })
    .from(items)
    .where(and(eq(items.appId, ctx.appId), eq(items.isDeleted, false), eq(items.id, id)))
    .get();
  if (!row) throw ApiError.notFound(`Item ${id}`);
}

async function currentDiscount(ctx: ServiceContext, itemId: number) {
  return ctx.db
    .select()
    .from(itemDiscounts)
    .where(
      and(eq(itemDiscounts.appId, ctx.appId), eq(itemDiscounts.itemId, itemId), eq(itemDiscounts.isDeleted, false)),
    )
    .get();
}

export async function getDiscount(ctx: ServiceContext, itemId: number) {
  await liveItem(ctx, itemId);
  const d = await currentDiscount(ctx, itemId);
  if (!d) throw ApiError.notFound(`A discount of item ${itemId}`);
  return discountView(d);
}

/** An item has at most one discount: a second is 409 `discount_exists` (update that one). */
export async function createDiscount(ctx: ServiceContext, itemId: number, input: z.infer<typeof CreateDiscountSchema>) {
  await liveItem(ctx, itemId);
  if (await currentDiscount(ctx, itemId))
    throw ApiError.conflict("discount_exists", `Item ${itemId} has a discount already; update it instead.`);
  // A deleted discount row keeps its place (one row per item): it is brought back with the new values.
  const values = {
    kind: input.kind,
    value: stored(input.kind, input.value),
    trialKind: input.trial_kind ?? null,
    trialValue: input.trial_kind && input.trial_value != null ? stored(input.trial_kind, input.trial_value) : null,
    isUsagePrice: input.is_usage_price ?? false,
    startsAt: input.starts_at ? new Date(input.starts_at).toISOString() : null,
    endsAt: input.ends_at ? new Date(input.ends_at).toISOString() : null,
    isDeleted: false,
    deletedAt: null,
    modifiedAt: nowIso(),
  };
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(itemDiscounts)
        .values({ appId: ctx.appId, itemId, ...values })
        .onConflictDoUpdate({ target: itemDiscounts.itemId, set: values }),
    ],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
  return getDiscount(ctx, itemId);
}

export async function updateDiscount(ctx: ServiceContext, itemId: number, input: z.infer<typeof UpdateDiscountSchema>) {
  await liveItem(ctx, itemId);
  const d = await currentDiscount(ctx, itemId);
  if (!d) throw ApiError.notFound(`A discount of item ${itemId}`);
  const kind = input.kind ?? d.kind;
  const value = input.value ?? served(d.kind, d.value);
  if (kind === "percentage" && value > 100) throw ApiError.validation({ value: ["A percentage is at most 100."] });
  const trialKind = input.trial_kind !== undefined ? input.trial_kind : d.trialKind;
  const trialValue =
    input.trial_value !== undefined
      ? input.trial_value
      : d.trialKind && d.trialValue !== null
        ? served(d.trialKind, d.trialValue)
        : null;
  if ((trialKind === null) !== (trialValue === null))
    throw ApiError.validation({ trial_value: ["Give trial_kind and trial_value together."] });
  const startsAt =
    input.starts_at !== undefined ? (input.starts_at ? new Date(input.starts_at).toISOString() : null) : d.startsAt;
  const endsAt =
    input.ends_at !== undefined ? (input.ends_at ? new Date(input.ends_at).toISOString() : null) : d.endsAt;
  if (startsAt && endsAt && startsAt >= endsAt) throw ApiError.validation({ ends_at: ["Must be after starts_at."] });
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(itemDiscounts)
        .set({
          kind,
          value: stored(kind, value),
          trialKind,
          trialValue: trialKind && trialValue !== null ? stored(trialKind, trialValue) : null,
          isUsagePrice: input.is_usage_price ?? d.isUsagePrice,
          startsAt,
          endsAt,
          modifiedAt: nowIso(),
        })
        .where(eq(itemDiscounts.id, d.id)),
    ],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
  return getDiscount(ctx, itemId);
}

export async function deleteDiscount(ctx: ServiceContext, itemId: number): Promise<void> {
  await liveItem(ctx, itemId);
  const d = await currentDiscount(ctx, itemId);
  if (!d) throw ApiError.notFound(`A discount of item ${itemId}`);
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(itemDiscounts)
        .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
        .where(eq(itemDiscounts.id, d.id)),
    ],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
}

async function image(ctx: ServiceContext, itemId: number, imageId: number): Promise<ImageRow> {
  const row = await ctx.db
    .select()
    .from(itemImages)
    .where(
      and(
        eq(itemImages.appId, ctx.appId),
        eq(itemImages.itemId, itemId),
        eq(itemImages.id, imageId),
        eq(itemImages.isDeleted, false),
      ),
    )
    .get();
  if (!row) throw ApiError.notFound(`Image ${imageId} of item ${itemId}`);
  return row;
}

export async function addImage(ctx: ServiceContext, itemId: number, input: z.infer<typeof CreateItemImageSchema>) {
  await liveItem(ctx, itemId);
  const [{ n }] = (await ctx.db
    .select({ n: count() })
    .from(itemImages)
    .where(and(eq(itemImages.itemId, itemId), eq(itemImages.isDeleted, false)))) as [{ n: number }];
  if (n >= IMAGES_MAX)
    throw ApiError.conflict("too_many_images", `An item has at most ${IMAGES_MAX} images; delete one first.`);
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(itemImages)
        .values({
          appId: ctx.appId,
          itemId,
          url: input.url,
          altEn: input.alt_en ?? "",
          altAr: input.alt_ar ?? "",
          ordering: input.ordering ?? n + 1,
        })
        .returning(),
    ],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
  return imageView((results[0] as ImageRow[])[0]!);
}

export async function updateImage(
  ctx: ServiceContext,
  itemId: number,
  imageId: number,
  input: z.infer<typeof UpdateItemImageSchema>,
) {
  await liveItem(ctx, itemId);
  await image(ctx, itemId, imageId);
  const set = {
    modifiedAt: nowIso(),
    ...(input.url !== undefined && { url: input.url }),
    ...(input.alt_en !== undefined && { altEn: input.alt_en }),
    ...(input.alt_ar !== undefined && { altAr: input.alt_ar }),
    ...(input.ordering !== undefined && { ordering: input.ordering }),
  };
  await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(itemImages).set(set).where(eq(itemImages.id, imageId))],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
  return imageView(await image(ctx, itemId, imageId));
}

export async function deleteImage(ctx: ServiceContext, itemId: number, imageId: number): Promise<void> {
  await liveItem(ctx, itemId);
  await image(ctx, itemId, imageId);
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(itemImages)
        .set({ isDeleted: true, deletedAt: at, modifiedAt: at })
        .where(eq(itemImages.id, imageId)),
    ],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
}
