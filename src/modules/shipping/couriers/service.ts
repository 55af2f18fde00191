import { and, eq, inArray, isNotNull, notInArray, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { refuseWhileUsed, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError, type FieldErrors } from "../../../core/errors";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, mapPage, type Page, searchColumns } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { placesOf } from "../../customers";
import { carriersOf, type ShippingEnv } from "../carriers";
import { FINAL_STATUSES } from "../shipments/machine";
import { COURIER_TYPES, couriers, type PriceRule, shipments } from "../tables";
import type { Courier, CreateCourier, PriceRuleInput, UpdateCourier } from "./schemas";

export type CourierRow = typeof couriers.$inferSelect;

export const courierRecords = tenantTable(couriers, {
  label: "Courier",
  notFound: "courier_not_found",
  events: { created: "courier.created", updated: "courier.updated", deleted: "courier.deleted" },
});

export const courierView = (r: CourierRow): Courier => ({
  id: r.id,
  type: r.type,
  code: r.code,
  name_en: r.nameEn,
  name_ar: r.nameAr,
  logo: r.logo,
  is_active: r.isActive,
  cod_supported: r.codSupported,
  services: r.services,
  coverage: { cities: r.coverageCities, districts: r.coverageDistricts },
  price_rules: r.priceRules.map((p) => ({
    city_id: p.city_id,
    weight_from: p.weight_from_g / 1000,
    weight_to: p.weight_to_g / 1000,
    price: toMajor(p.price_minor),
  })),
  estimated_days_min: r.estimatedDaysMin,
  estimated_days_max: r.estimatedDaysMax,
  custom_fields: r.customFields ?? null,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
});

export const COURIER_LIST: ListSpec = {
  fields: {
    id: { column: couriers.id, kind: "integer" },
    type: { column: couriers.type, kind: "string", values: COURIER_TYPES },
    code: { column: couriers.code, kind: "string", nullable: true },
    name_en: { column: couriers.nameEn, kind: "string" },
    name_ar: { column: couriers.nameAr, kind: "string" },
    is_active: { column: couriers.isActive, kind: "boolean" },
    cod_supported: { column: couriers.codSupported, kind: "boolean" },
    estimated_days_min: { column: couriers.estimatedDaysMin, kind: "integer", nullable: true },
    estimated_days_max: { column: couriers.estimatedDaysMax, kind: "integer", nullable: true },
    ordering: { column: couriers.ordering, kind: "integer" },
    created_at: { column: couriers.createdAt, kind: "datetime" },
    modified_at: { column: couriers.modifiedAt, kind: "datetime" },
  },
  search: searchColumns(couriers.nameEn, couriers.nameAr, couriers.code),
  searchDescription: "Names (English, Arabic) and the carrier's code.",
  defaultOrder: "id",
  idColumn: couriers.id,
};

/**
 * The integrated carriers as courier rows of the store: added the first time the store reads its
 * couriers (a mirror, so that lists filter and page them with the custom ones, and shipments can
 * name them by id). Their profile is the adapter's; the merchant cannot change them.
 */
export async function mirrorCarriers(
  ctx: ServiceContext,
  env: ShippingEnv,
  opts: { someMissing?: boolean } = {},
): Promise<boolean> {
  const adapters = carriersOf(env);
  if (!adapters.length) return false;
  const codes = adapters.map((a) => a.code);
  // A read that counted them (`mirroredSql`) knows some are missing: the insert skips the others.
  const have = opts.someMissing
    ? []
    : await ctx.db
        .select({ code: couriers.code })
        .from(couriers)
        .where(and(eq(couriers.appId, ctx.appId), isNotNull(couriers.code), inArray(couriers.code, codes)));
  const missing = adapters.filter((a) => !have.some((h) => h.code === a.code));
  if (!missing.length) return false;
  await ctx.db
    .insert(couriers)
    .values(
      missing.map((a) => ({
        appId: ctx.appId,
        type: "integrated" as const,
        code: a.code,
        nameEn: a.profile.name_en,
        nameAr: a.profile.name_ar,
        logo: a.profile.logo,
        codSupported: a.profile.cod_supported,
        services: a.profile.services,
        estimatedDaysMin: a.profile.estimated_days_min,
        estimatedDaysMax: a.profile.estimated_days_max,
      })),
    )
    // Two first reads at once: the unique (app, code) index keeps one row each.
    .onConflictDoNothing();
  return true;
}

/**
 * How many of the offered carriers the store's couriers already mirror, as a scalar subquery: a
 * read asks it in its own statement and calls `mirrorCarriers` only when some are missing (the
 * store's first read), so that a store's later reads wait for D1 once.
 */
function mirroredSql(ctx: ServiceContext, env: ShippingEnv) {
  const codes = carriersOf(env).map((a) => a.code);
  if (!codes.length) return sql`0`;
  return sql`(SELECT count(DISTINCT ${couriers.code}) FROM ${couriers}
    WHERE ${couriers.appId} = ${ctx.appId} AND ${couriers.code} IN ${codes})`;
}

/** Whether a read's `mirroredSql` says the store mirrors every offered carrier. */
const allMirrored = (env: ShippingEnv, mirrored: unknown) => Number(mirrored) >= carriersOf(env).length;

/** The store's couriers a list may show: custom ones and the integrated carriers offered here. */
export const visibleCouriers = (ctx: ServiceContext, env: ShippingEnv) => {
  const offered = carriersOf(env).map((a) => a.code);
  return and(
    courierRecords.live(ctx),
    sql`(${couriers.type} = 'custom' OR ${couriers.code} IN ${offered.length ? offered : [""]})`,
  )!;
};

export async function listCouriers(ctx: ServiceContext, env: ShippingEnv, q: ListQuery): Promise<Page<Courier>> {
  const read = () =>
    listPageWith(ctx.db, q, { table: couriers, scope: () => visibleCouriers(ctx, env) }, () => ({
      mirrored: mirroredSql(ctx, env),
    }));
  let first: Awaited<ReturnType<typeof read>>;
  try {
    first = await read();
  } catch (error) {
    // A page past the last may be one that the carriers not yet mirrored fill.
    if (!(error instanceof ApiError) || !(await mirrorCarriers(ctx, env))) throw error;
    return mapPage((await read()).page, courierView);
  }
  if (allMirrored(env, first.nested.mirrored)) return mapPage(first.page, courierView);
  await mirrorCarriers(ctx, env, { someMissing: true });
  return mapPage((await read()).page, courierView);
}

/** Every courier of the store a checkout may consider (bounded: a store keeps a handful). */
export async function allCouriers(ctx: ServiceContext, env: ShippingEnv): Promise<CourierRow[]> {
  await mirrorCarriers(ctx, env);
  return ctx.db.select().from(couriers).where(visibleCouriers(ctx, env)).orderBy(couriers.id).limit(500);
}

/** The store's courier `id` (or a subquery of it) as a list shows it, mirroring the carriers on the store's first read. */
export async function courierRow(
  ctx: ServiceContext,
  env: ShippingEnv,
  id: number | SQL,
): Promise<CourierRow | undefined> {
  const read = async () => {
    const r = await ctx.db.get<{ rows: string | null; mirrored: number }>(
      sql`SELECT ${rowsJson(couriers, and(visibleCouriers(ctx, env), eq(couriers.id, sql`${id}`))!)} AS "rows", ${mirroredSql(ctx, env)} AS "mirrored"`,
    );
    return { row: decodeRows(couriers, r?.rows ?? "[]")[0], mirrored: r?.mirrored };
  };
  const first = await read();
  if (allMirrored(env, first.mirrored)) return first.row;
  await mirrorCarriers(ctx, env, { someMissing: true });
  return (await read()).row;
}

export async function findCourier(ctx: ServiceContext, env: ShippingEnv, id: number): Promise<CourierRow> {
  const row = await courierRow(ctx, env, id);
  if (!row) throw ApiError.notFound("courier_not_found", `Courier ${id}`);
  return row;
}

export const courierDetails = async (ctx: ServiceContext, env: ShippingEnv, id: number) =>
  courierView(await findCourier(ctx, env, id));

const toRule = (r: PriceRuleInput): PriceRule => ({
  city_id: r.city_id,
  weight_from_g: r.weight_from,
  weight_to_g: r.weight_to,
  price_minor: r.price,
});

type Coverage = { cities: number[]; districts: number[] };

/** Covered cities and districts exist, districts lie in covered cities, rules name covered cities. */
async function checkCoverage(ctx: ServiceContext, coverage: Coverage, rules: PriceRule[]): Promise<void> {
  const found = await placesOf(ctx, coverage.cities, coverage.districts);
  const errors: FieldErrors = Object.create(null);
  const missingCities = coverage.cities.filter((c) => !found.cities.has(c));
  if (missingCities.length) errors["coverage.cities"] = [`No city ${missingCities.join(", ")}.`];
  coverage.districts.forEach((d, i) => {
    const district = found.districts.get(d);
    if (!district) errors[`coverage.districts.${i}`] = [`No district ${d}.`];
    else if (!coverage.cities.includes(district.cityId))
      errors[`coverage.districts.${i}`] = [`District ${d} is in city ${district.cityId}, which is not covered.`];
  });
  rules.forEach((r, i) => {
    if (r.city_id !== null && !coverage.cities.includes(r.city_id))
      errors[`price_rules.${i}.city_id`] = [`City ${r.city_id} is not covered.`];
  });
  if (Object.keys(errors).length) throw ApiError.validation(errors);
}

const DEFAULT_SERVICES = [{ code: "standard", name_en: "Standard", name_ar: "عادي", cod_supported: true }];

export async function createCourier(ctx: ServiceContext, input: CreateCourier): Promise<Courier> {
  const rules = input.price_rules.map(toRule);
  await checkCoverage(ctx, input.coverage, rules);
  const codSupported = input.cod_supported ?? false;
  return courierView(
    await courierRecords.create(ctx, {
      appId: ctx.appId,
      type: "custom",
      nameEn: input.name_en,
      nameAr: input.name_ar,
      logo: input.logo ?? null,
      isActive: input.is_active ?? true,
      codSupported,
      services: input.services ?? DEFAULT_SERVICES.map((s) => ({ ...s, cod_supported: codSupported })),
      coverageCities: input.coverage.cities,
      coverageDistricts: input.coverage.districts,
      priceRules: rules,
      estimatedDaysMin: input.estimated_days_min ?? null,
      estimatedDaysMax: input.estimated_days_max ?? null,
      customFields: input.custom_fields ?? null,
    }),
  );
}

/** An integrated courier is its adapter's: 409 on a change or a delete. */
function refuseIntegrated(row: CourierRow, action: string): void {
  if (row.type !== "custom")
    throw ApiError.conflict(
      "courier_not_custom",
      `Courier ${row.id} is the ${row.code} carrier's: it cannot be ${action}.`,
    );
}

export async function updateCourier(
  ctx: ServiceContext,
  env: ShippingEnv,
  id: number,
  input: UpdateCourier,
): Promise<Courier> {
  const row = await findCourier(ctx, env, id);
  refuseIntegrated(row, "changed");
  const coverage = input.coverage ?? { cities: row.coverageCities, districts: row.coverageDistricts };
  const rules = input.price_rules ? input.price_rules.map(toRule) : row.priceRules;
  const min = input.estimated_days_min ?? row.estimatedDaysMin;
  const max = input.estimated_days_max ?? row.estimatedDaysMax;
  if (min !== null && max !== null && min > max)
    throw ApiError.validation({ estimated_days_max: ["estimated_days_min must not exceed estimated_days_max."] });
  if (input.coverage || input.price_rules) await checkCoverage(ctx, coverage, rules);
  return courierView(
    await courierRecords.change(ctx, id, {
      modifiedAt: nowIso(),
      nameEn: input.name_en,
      nameAr: input.name_ar,
      logo: input.logo,
      isActive: input.is_active,
      codSupported: input.cod_supported,
      services: input.services,
      coverageCities: input.coverage?.cities,
      coverageDistricts: input.coverage?.districts,
      priceRules: input.price_rules ? rules : undefined,
      estimatedDaysMin: input.estimated_days_min,
      estimatedDaysMax: input.estimated_days_max,
      customFields: input.custom_fields,
    }),
  );
}

export async function deleteCourier(ctx: ServiceContext, env: ShippingEnv, id: number): Promise<void> {
  const row = await findCourier(ctx, env, id);
  refuseIntegrated(row, "deleted");
  const open = await ctx.db
    .select({ id: shipments.id })
    .from(shipments)
    .where(
      and(
        eq(shipments.appId, ctx.appId),
        eq(shipments.courierId, id),
        notInArray(shipments.status, [...FINAL_STATUSES]),
      ),
    )
    .limit(100);
  refuseWhileUsed(
    "courier_in_use",
    { shipments: open.map((s) => s.id) },
    `Courier ${id} carries shipments that are not finished.`,
  );
  await courierRecords.remove(ctx, id);
}
