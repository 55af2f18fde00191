import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { foundItem, itemRowRead } from "../shared";
import { itemDiscounts } from "../tables";
import { type CreateDiscount, type Discount, PERCENT_MAX, type UpdateDiscount } from "./schemas";

type DiscountRow = typeof itemDiscounts.$inferSelect;

const records = tenantTable(itemDiscounts, { label: "Discount", notFound: "discount_not_found" });

/**
 * Percentages are kept in basis points, fixed amounts in minor units: both are the hundredths the
 * schemas parse the values to, and are served back as the numbers they were.
 */
const served = toMajor;
const instant = (at: string | null) => (at ? new Date(at).toISOString() : null);

function discountView(d: DiscountRow): Discount {
  return {
    id: d.id,
    item: d.itemId,
    kind: d.kind,
    value: served(d.value),
    trial_kind: d.trialKind,
    trial_value: d.trialKind && d.trialValue !== null ? served(d.trialValue) : null,
    is_usage_price: d.isUsagePrice,
    starts_at: d.startsAt,
    ends_at: d.endsAt,
  };
}

/** The item's live discount (one per item), if any, as a statement for a caller's `db.batch`. */
const currentDiscount = (ctx: ServiceContext, itemId: number) =>
  ctx.db
    .select()
    .from(itemDiscounts)
    .where(and(live(itemDiscounts, ctx.appId), eq(itemDiscounts.itemId, itemId)));

/** The live item or variant and its discount, in one round trip: 404 `item_not_found`, else its discount if any. */
async function itemAndDiscount(ctx: ServiceContext, itemId: number): Promise<DiscountRow | undefined> {
  const [item, discount] = await ctx.db.batch([itemRowRead(ctx, itemId), currentDiscount(ctx, itemId)]);
  foundItem(item, itemId, { variantsToo: true });
  return discount[0];
}

/** The live item or variant and its discount: 404 `item_not_found`, then 404 `discount_not_found`. */
async function findDiscount(ctx: ServiceContext, itemId: number): Promise<DiscountRow> {
  const d = await itemAndDiscount(ctx, itemId);
  if (!d) throw ApiError.notFound("discount_not_found", `A discount of item ${itemId}`);
  return d;
}

export async function getDiscount(ctx: ServiceContext, itemId: number): Promise<Discount> {
  return discountView(await findDiscount(ctx, itemId));
}

/** An item has at most one discount: a second is 409 `discount_exists` (update that one). */
export async function createDiscount(ctx: ServiceContext, itemId: number, input: CreateDiscount): Promise<Discount> {
  if (await itemAndDiscount(ctx, itemId))
    throw ApiError.conflict("discount_exists", `Item ${itemId} has a discount already; update it instead.`);
  // A deleted discount row keeps its place (one row per item): it is brought back with the new values.
  const values = {
    kind: input.kind,
    value: input.value,
    trialKind: input.trial_kind ?? null,
    trialValue: input.trial_kind && input.trial_value != null ? input.trial_value : null,
    isUsagePrice: input.is_usage_price ?? false,
    startsAt: instant(input.starts_at ?? null),
    endsAt: instant(input.ends_at ?? null),
    isDeleted: false,
    deletedAt: null,
    modifiedAt: nowIso(),
  };
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(itemDiscounts)
        .values({ appId: ctx.appId, itemId, ...values })
        .onConflictDoUpdate({ target: itemDiscounts.itemId, set: values })
        .returning(),
    ],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
  return discountView((results[0] as DiscountRow[])[0]!);
}

/**
 * Any fields, checked together with the stored ones (a percentage at most 100, trial fields together, ends after
 * starts).
 */
export async function updateDiscount(ctx: ServiceContext, itemId: number, input: UpdateDiscount): Promise<Discount> {
  const d = await findDiscount(ctx, itemId);
  const kind = input.kind ?? d.kind;
  const value = input.value ?? d.value;
  if (kind === "percentage" && value > PERCENT_MAX)
    throw ApiError.validation({ value: ["A percentage is at most 100."] });
  const trialKind = input.trial_kind !== undefined ? input.trial_kind : d.trialKind;
  const trialValue =
    input.trial_value !== undefined ? input.trial_value : d.trialKind && d.trialValue !== null ? d.trialValue : null;
  if ((trialKind === null) !== (trialValue === null))
    throw ApiError.validation({ trial_value: ["Give trial_kind and trial_value together."] });
  if (trialKind === "percentage" && trialValue !== null && trialValue > PERCENT_MAX)
    throw ApiError.validation({ trial_value: ["A percentage is at most 100."] });
  const startsAt = input.starts_at !== undefined ? instant(input.starts_at) : d.startsAt;
  const endsAt = input.ends_at !== undefined ? instant(input.ends_at) : d.endsAt;
  if (startsAt && endsAt && startsAt >= endsAt) throw ApiError.validation({ ends_at: ["Must be after starts_at."] });
  const set = {
    kind,
    value,
    trialKind,
    trialValue: trialKind && trialValue !== null ? trialValue : null,
    isUsagePrice: input.is_usage_price ?? d.isUsagePrice,
    startsAt,
    endsAt,
    modifiedAt: nowIso(),
  };
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [records.update(ctx, d.id, set).returning()],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
  // The discount as it is now comes back from the update itself (none: deleted meanwhile).
  const row = (results[0] as DiscountRow[])[0];
  if (!row) throw ApiError.notFound("discount_not_found", `A discount of item ${itemId}`);
  return discountView(row);
}

export async function deleteDiscount(ctx: ServiceContext, itemId: number): Promise<void> {
  const d = await findDiscount(ctx, itemId);
  await emit(
    ctx.db,
    ctx.events,
    [records.softDelete(ctx, d.id)],
    [newEvent(ctx.appId, "item.updated", { id: itemId })],
  );
}
