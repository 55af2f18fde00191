import { and, eq, ne, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { liveRow, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError, type FieldErrors } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page, searchColumns } from "../../../core/listing";
import { minorOfMajor, toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { basisPointsOf, majorOrNull, shownValue, stateOf, type VoucherRow } from "../rules";
import { VOUCHER_DISCOUNT_ON, VOUCHER_KINDS, VOUCHER_STATUSES, vouchers } from "../tables";
import type { CreateVoucher, UpdateVoucher, Voucher } from "./schemas";

export const voucherRecords = tenantTable(vouchers, {
  label: "Voucher",
  notFound: "voucher_not_found",
  events: { created: "voucher.created", updated: "voucher.updated", deleted: "voucher.deleted" },
});

export function voucherView(v: VoucherRow, at = nowIso()): Voucher {
  return {
    id: v.id,
    code: v.code,
    title_en: v.titleEn,
    title_ar: v.titleAr,
    kind: v.kind,
    value: shownValue(v),
    discount_on: v.discountOn,
    min_order_amount: toMajor(v.minOrderMinor),
    max_discount_amount: majorOrNull(v.maxDiscountMinor),
    starts_at: v.startsAt,
    ends_at: v.endsAt,
    usage_limit: v.usageLimit,
    per_customer_limit: v.perCustomerLimit,
    usage_count: v.usageCount,
    item_ids: v.itemIds,
    category_ids: v.categoryIds,
    is_featured: v.isFeatured,
    status: v.status,
    state: stateOf(v, at),
    custom_fields: v.customFields ?? null,
    app_id: v.appId,
    created_at: v.createdAt,
    modified_at: v.modifiedAt,
    deleted_at: v.deletedAt,
    is_deleted: v.isDeleted,
    ordering: v.ordering,
  };
}

export const VOUCHER_LIST: ListSpec = {
  fields: {
    id: { column: vouchers.id, kind: "integer" },
    code: { column: vouchers.code, kind: "string" },
    kind: { column: vouchers.kind, kind: "string", values: VOUCHER_KINDS },
    discount_on: { column: vouchers.discountOn, kind: "string", values: VOUCHER_DISCOUNT_ON },
    status: { column: vouchers.status, kind: "string", values: VOUCHER_STATUSES },
    is_featured: { column: vouchers.isFeatured, kind: "boolean" },
    starts_at: { column: vouchers.startsAt, kind: "datetime", nullable: true },
    ends_at: { column: vouchers.endsAt, kind: "datetime", nullable: true },
    usage_count: { column: vouchers.usageCount, kind: "integer" },
    ordering: { column: vouchers.ordering, kind: "integer" },
    created_at: { column: vouchers.createdAt, kind: "datetime" },
  },
  search: searchColumns(vouchers.code, vouchers.titleEn, vouchers.titleAr),
  searchDescription: "Matches the code or either title (substring); may repeat, all terms must match.",
  defaultOrder: "-created_at",
  idColumn: vouchers.id,
  sync: { modifiedAt: vouchers.modifiedAt, softDeleted: true },
};

export async function listVouchers(ctx: ServiceContext, q: ListQuery): Promise<Page<Voucher>> {
  const at = nowIso();
  const page = await listPage(ctx.db, q, { table: vouchers, scope: () => voucherRecords.listed(ctx, q) });
  return mapPage(page, (v) => voucherView(v, at));
}

export const getVoucher = async (ctx: ServiceContext, id: number): Promise<Voucher> =>
  voucherView(await voucherRecords.find(ctx, id));

/** The stored `value` of a kind: basis points or minor units; a 400 naming `value` otherwise. */
function storedValue(kind: VoucherRow["kind"], value: number): number {
  const stored = kind === "percentage" ? basisPointsOf(value) : minorOfMajor(value);
  if (stored === null || stored < 1) {
    throw ApiError.validation({
      value: [
        kind === "percentage"
          ? "A percentage: more than 0, at most 100, at most 2 decimals."
          : "Money: more than 0, at most 2 decimals.",
      ],
    });
  }
  return stored;
}

/**
 * The ids of `item_ids` / `category_ids` that are not live records of the store, as a 400 (or
 * null). The catalogue's tables belong to the items module: they are read here by name.
 */
async function scopeRefusal(
  ctx: ServiceContext,
  itemIds: number[] = [],
  categoryIds: number[] = [],
): Promise<ApiError | null> {
  if (!itemIds.length && !categoryIds.length) return null;
  const missing = (table: "items" | "item_categories", ids: number[]) =>
    sql`SELECT ${table} AS t, value AS id FROM json_each(${JSON.stringify(ids)})
      WHERE value NOT IN (SELECT id FROM ${sql.identifier(table)} WHERE ${liveRow(ctx.appId)})`;
  const rows = await ctx.db.all<{ t: string; id: number }>(
    sql`${missing("items", itemIds)} UNION ALL ${missing("item_categories", categoryIds)}`,
  );
  const errors: FieldErrors = {};
  const name = { items: ["item_ids", "Items"], item_categories: ["category_ids", "Item categories"] } as const;
  for (const [table, [field, what]] of Object.entries(name)) {
    const gone = rows.filter((r) => r.t === table).map((r) => r.id);
    if (gone.length) errors[field] = [`${what} not in the store: ${gone.join(", ")}.`];
  }
  return Object.keys(errors).length ? ApiError.validation(errors) : null;
}

const codeTaken = (code: string, id?: number) =>
  ApiError.conflict(
    "voucher_code_taken",
    `Another voucher of this store has the code ${code}.`,
    id === undefined ? {} : { voucher_id: id },
  );

/** The 409 when another live voucher of the store has the code (or null). */
async function takenCodeRefusal(ctx: ServiceContext, code: string | undefined, self?: number) {
  if (code === undefined) return null;
  const [other] = await ctx.db
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(
      and(voucherRecords.live(ctx), eq(vouchers.code, code), self === undefined ? undefined : ne(vouchers.id, self)),
    )
    .limit(1);
  return other ? codeTaken(code, other.id) : null;
}

/** A race on the live-code unique index is the same 409 as the check before it. */
async function takingCode<T>(code: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (code && /UNIQUE constraint failed: vouchers\./.test(String((err as Error)?.message))) throw codeTaken(code);
    throw err;
  }
}

export async function createVoucher(ctx: ServiceContext, input: CreateVoucher): Promise<Voucher> {
  const value = storedValue(input.kind, input.value);
  // Both checks read in one round trip; the scope's 400 comes before the code's 409.
  const refusals = await Promise.all([
    scopeRefusal(ctx, input.item_ids, input.category_ids),
    takenCodeRefusal(ctx, input.code),
  ]);
  const refusal = refusals.find((r) => r !== null);
  if (refusal) throw refusal;
  const row = await takingCode(input.code, () =>
    voucherRecords.create(ctx, {
      appId: ctx.appId,
      code: input.code,
      titleEn: input.title_en,
      titleAr: input.title_ar,
      kind: input.kind,
      value,
      discountOn: input.discount_on,
      minOrderMinor: input.min_order_amount ?? 0,
      maxDiscountMinor: input.max_discount_amount ?? null,
      startsAt: input.starts_at ?? null,
      endsAt: input.ends_at ?? null,
      usageLimit: input.usage_limit ?? null,
      perCustomerLimit: input.per_customer_limit ?? null,
      itemIds: input.item_ids,
      categoryIds: input.category_ids,
      isFeatured: input.is_featured,
      status: input.status,
      customFields: input.custom_fields ?? null,
      ordering: input.ordering,
    }),
  );
  return voucherView(row);
}

/** Update Voucher: a partial change; the window is checked against the stored bound not given. */
export async function updateVoucher(ctx: ServiceContext, id: number, input: UpdateVoucher): Promise<Voucher> {
  // Every read in one round trip, refused in the order of the checks: the voucher, its window, the
  // scope, the code (another live voucher's; the voucher's own code is never another's).
  const [current, scope, taken] = await Promise.all([
    voucherRecords.get(ctx, id),
    scopeRefusal(ctx, input.item_ids, input.category_ids),
    takenCodeRefusal(ctx, input.code, id),
  ]);
  if (!current) throw ApiError.notFound("voucher_not_found", `Voucher ${id}`);
  const kind = input.kind ?? current.kind;
  const value = input.value === undefined ? undefined : storedValue(kind, input.value);
  const startsAt = input.starts_at === undefined ? current.startsAt : input.starts_at;
  const endsAt = input.ends_at === undefined ? current.endsAt : input.ends_at;
  if (startsAt && endsAt && endsAt <= startsAt) {
    const field = input.ends_at === undefined ? "starts_at" : "ends_at";
    throw ApiError.validation({ [field]: ["`ends_at` must be after `starts_at`."] });
  }
  if (scope) throw scope;
  if (taken) throw taken;
  const row = await takingCode(input.code, () =>
    changeVoucher(ctx, id, {
      modifiedAt: nowIso(),
      code: input.code,
      titleEn: input.title_en,
      titleAr: input.title_ar,
      kind: input.kind,
      value,
      discountOn: input.discount_on,
      minOrderMinor: input.min_order_amount,
      maxDiscountMinor: input.max_discount_amount,
      startsAt: input.starts_at,
      endsAt: input.ends_at,
      usageLimit: input.usage_limit,
      perCustomerLimit: input.per_customer_limit,
      itemIds: input.item_ids,
      categoryIds: input.category_ids,
      isFeatured: input.is_featured,
      status: input.status,
      customFields: input.custom_fields,
      ordering: input.ordering,
    }),
  );
  return voucherView(row);
}

/**
 * The change of a voucher already found, with its `voucher.updated` event, in one batch that
 * answers the row as it is now (a voucher deleted meanwhile is the 404 of the find).
 */
async function changeVoucher(ctx: ServiceContext, id: number, set: Partial<VoucherRow>): Promise<VoucherRow> {
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [voucherRecords.update(ctx, id, set).returning()],
    [newEvent(ctx.appId, "voucher.updated", { id })],
    { guard: sql`EXISTS (SELECT 1 FROM vouchers WHERE id = ${id} AND ${liveRow(ctx.appId)})` },
  );
  const row = (results[0] as VoucherRow[])[0];
  if (!row) throw ApiError.notFound("voucher_not_found", `Voucher ${id}`);
  return row;
}

export const deleteVoucher = (ctx: ServiceContext, id: number): Promise<void> => voucherRecords.remove(ctx, id);
