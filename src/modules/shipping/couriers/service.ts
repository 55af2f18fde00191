import { and, type Column, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import { batchStatement, selectColumns } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { refuseWhileUsed, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError, type FieldErrors } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, mapPage, type Page, searchColumns } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { outcomeOf } from "../../../core/outcome";
import { nowIso } from "../../../core/time";
import { placesOf } from "../../customers";
import { carriersOf, type ShippingEnv } from "../carriers";
import { openShipmentsUsing } from "../shipments/machine";
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
  sync: { modifiedAt: couriers.modifiedAt, softDeleted: false },
};

/**
 * The integrated carriers as courier rows of the store: added the first time the store reads its
 * couriers (a mirror, so that lists filter and page them with the custom ones, and shipments can
 * name them by id). Their profile is the adapter's; the merchant cannot change them.
 */
export async function mirrorCarriers(ctx: ServiceContext, env: ShippingEnv): Promise<boolean> {
  const adapters = carriersOf(env);
  if (!adapters.length) return false;
  const codes = adapters.map((a) => a.code);
  const have = await ctx.db
    .select({ code: couriers.code })
    .from(couriers)
    .where(and(eq(couriers.appId, ctx.appId), isNotNull(couriers.code), inArray(couriers.code, codes)));
  if (adapters.every((a) => have.some((h) => h.code === a.code))) return false;
  await mirrorStatement(ctx, env);
  return true;
}

/**
 * The insert of the offered carriers the store does not mirror yet: a read that counted them
 * (`mirroredSql`) and found some missing sends it in one batch with its read again.
 */
function mirrorStatement(ctx: ServiceContext, env: ShippingEnv) {
  return (
    ctx.db
      .insert(couriers)
      .values(
        carriersOf(env).map((a) => ({
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
      // The mirrored ones, and two first reads at once: the unique (app, code) index keeps one row each.
      .onConflictDoNothing()
  );
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
  // The store's first read: the page waits for the mirror (the list's read cannot join its batch).
  await mirrorStatement(ctx, env);
  return mapPage((await read()).page, courierView);
}

/**
 * Every courier of the store a checkout may consider (bounded: a store keeps a handful): one round
 * trip, or on the store's first read two (the mirror's insert and the read again, in one batch).
 */
export async function allCouriers(ctx: ServiceContext, env: ShippingEnv): Promise<CourierRow[]> {
  const read = () => ctx.db.select().from(couriers).where(visibleCouriers(ctx, env)).orderBy(couriers.id).limit(500);
  const [rows, counted] = await Promise.all([
    read(),
    ctx.db.get<{ mirrored: number }>(sql`SELECT ${mirroredSql(ctx, env)} AS "mirrored"`),
  ]);
  if (allMirrored(env, counted?.mirrored)) return rows;
  return (await ctx.db.batch([mirrorStatement(ctx, env), read()]))[1];
}

/**
 * The store's courier `id` (or a subquery of it) as a list shows it: one round trip, or on the
 * store's first read two (the mirror's insert and the read again, in one batch).
 */
export async function courierRow(
  ctx: ServiceContext,
  env: ShippingEnv,
  id: number | SQL,
): Promise<CourierRow | undefined> {
  const query = sql`SELECT ${rowsJson(couriers, and(visibleCouriers(ctx, env), eq(couriers.id, sql`${id}`))!)} AS "rows", ${mirroredSql(ctx, env)} AS "mirrored"`;
  type Read = { rows: string | null; mirrored: number } | undefined;
  let read = await ctx.db.get<Read>(query);
  if (!allMirrored(env, read?.mirrored)) {
    const [, again] = await ctx.db.batch([
      mirrorStatement(ctx, env),
      batchStatement(ctx.db, query, selectColumns(["rows", "mirrored"])),
    ]);
    [read] = again as unknown as Read[];
  }
  return decodeRows(couriers, read?.rows ?? "[]")[0];
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

/** Covered cities and districts exist (as `placesOf` found them), districts lie in covered cities, rules name covered cities. */
function checkCoverage(found: Awaited<ReturnType<typeof placesOf>>, coverage: Coverage, rules: PriceRule[]): void {
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
  checkCoverage(await placesOf(ctx, input.coverage.cities, input.coverage.districts), input.coverage, rules);
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

/** A custom courier's coverage as it is stored (the ids of `column`), as a subquery for `placesOf`. */
const storedCoverage = (ctx: ServiceContext, id: number, column: Column) =>
  sql`(SELECT c.value FROM ${couriers}, json_each(${column}) c
    WHERE ${and(courierRecords.live(ctx), eq(couriers.id, id))})`;

/**
 * The courier and the places its coverage names are read together (the stored coverage by
 * subqueries when the change keeps it), then one batch changes it and answers its row.
 */
export async function updateCourier(
  ctx: ServiceContext,
  env: ShippingEnv,
  id: number,
  input: UpdateCourier,
): Promise<Courier> {
  const [rowOf, places] = await Promise.all([
    outcomeOf(findCourier(ctx, env, id)),
    input.coverage || input.price_rules
      ? placesOf(
          ctx,
          input.coverage?.cities ?? storedCoverage(ctx, id, couriers.coverageCities),
          input.coverage?.districts ?? storedCoverage(ctx, id, couriers.coverageDistricts),
        )
      : null,
  ]);
  const row = rowOf();
  refuseIntegrated(row, "changed");
  const coverage = input.coverage ?? { cities: row.coverageCities, districts: row.coverageDistricts };
  const rules = input.price_rules ? input.price_rules.map(toRule) : row.priceRules;
  const min = input.estimated_days_min ?? row.estimatedDaysMin;
  const max = input.estimated_days_max ?? row.estimatedDaysMax;
  if (min !== null && max !== null && min > max)
    throw ApiError.validation({ estimated_days_max: ["estimated_days_min must not exceed estimated_days_max."] });
  if (places) checkCoverage(places, coverage, rules);
  const set = {
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
  };
  // The row was read above: the update answers it as it is now (`courierRecords.change` would read it again).
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [courierRecords.update(ctx, id, set).returning()],
    [newEvent(ctx.appId, "courier.updated", { id })],
  );
  const [changed] = results[0] as CourierRow[];
  if (!changed) throw ApiError.notFound("courier_not_found", `Courier ${id}`);
  return courierView(changed);
}

/** Refused while it carries unfinished shipments (read with the courier); the soft delete is one batch. */
export async function deleteCourier(ctx: ServiceContext, env: ShippingEnv, id: number): Promise<void> {
  const [rowOf, open] = await Promise.all([
    outcomeOf(findCourier(ctx, env, id)),
    openShipmentsUsing(ctx, shipments.courierId, id),
  ]);
  refuseIntegrated(rowOf(), "deleted");
  refuseWhileUsed(
    "courier_in_use",
    { shipments: open.map((s) => s.id) },
    `Courier ${id} carries shipments that are not finished.`,
  );
  await emit(
    ctx.db,
    ctx.events,
    [courierRecords.softDelete(ctx, id)],
    [newEvent(ctx.appId, "courier.deleted", { id })],
  );
}
