import { and, eq, ne, or, type SQL, sql } from "drizzle-orm";
import { forgetCustomerStanding } from "../../../core/auth";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { literalEvent } from "../../../core/events/outbox";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import {
  type ListParent,
  type ListQuery,
  type ListSpec,
  listPage,
  mapPage,
  offIndex,
  type Page,
} from "../../../core/listing";
import { containsText, inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { revokeCustomerSessions } from "../auth/tokens";
import { checkPlace, placesNamed, refuseUnknownPlace } from "../locations/places";
import { parseMobile } from "../phone";
import { readTogether } from "../reads";
import { CUSTOMER_LANGS, customers } from "../tables";
import type { CreateCustomer, Customer, UpdateCustomer } from "./schemas";

type CustomerRow = typeof customers.$inferSelect;

/** The store's customers: find-or-404 `customer_not_found`, and their `customer.*` events. */
export const customerRecords = tenantTable(customers, {
  label: "Customer",
  notFound: "customer_not_found",
  events: { created: "customer.created", updated: "customer.updated", deleted: "customer.deleted" },
});

/** The live customer `id` of the store (its row), or 404 `customer_not_found`. */
export const findCustomer = (ctx: ServiceContext, id: number): Promise<CustomerRow> => customerRecords.find(ctx, id);

/**
 * A live customer of the store as the parent of a list of theirs (core/list-page): checked in the
 * list's own statement, 404 `customer_not_found` when it is not.
 */
export const liveCustomerParent = (ctx: ServiceContext, id: number): ListParent => ({
  exists: sql`EXISTS (SELECT 1 FROM ${customers} WHERE ${and(customerRecords.live(ctx), eq(customers.id, id))})`,
  notFound: () => ApiError.notFound("customer_not_found", `Customer ${id}`),
});

/**
 * A list's query for a customer's list whose statement checks the customer (`liveCustomerParent`):
 * a customer that is not the store's is its 404 before anything is said of the query, as when the
 * customer was read first.
 */
export async function customerListQuery(ctx: ServiceContext, id: number, parse: () => ListQuery): Promise<ListQuery> {
  try {
    return parse();
  } catch (error) {
    await findCustomer(ctx, id);
    throw error;
  }
}

export function customerView(r: CustomerRow): Customer {
  return {
    id: r.id,
    country_code: r.countryCode,
    username: r.username,
    mobile_number: r.mobileNumber,
    email: r.email,
    name: r.name,
    lang: r.lang,
    current_city_id: r.currentCityId,
    is_email_verified: r.isEmailVerified,
    is_mobile_verified: r.isMobileVerified,
    is_blocked: r.isBlocked,
    is_deleted: r.isDeleted,
    is_verified: r.isMobileVerified,
    national_id: r.nationalId,
    secondary_mobile_number: r.secondaryMobileNumber,
    date_of_birth: r.dateOfBirth,
    avatar: r.avatar,
    joined_at: r.joinedAt,
    custom_fields: r.customFields ?? null,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
  };
}

/**
 * The customers of the given ids as orders, invoices and subscriptions embed them, deleted ones
 * included (an order keeps its customer), in one query. Ids of other stores are absent.
 */
export async function loadCustomers(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, Customer>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.appId, ctx.appId), inList(customers.id, [...new Set(ids)])));
  return new Map(rows.map((r) => [r.id, customerView(r)]));
}

/**
 * The customers (deleted ones too) that `ids` selects (a subquery), as a part of a larger statement
 * (core/json-rows). The store's column is kept off its index (`+`): by it, SQLite would walk all the
 * store's customers to find a few ids.
 */
export const customersJson = (appId: number, ids: SQL): SQL =>
  rowsJson(customers, and(eq(offIndex(customers.appId), appId), sql`${customers.id} IN ${ids}`)!);

/** The customers of a `customersJson` part, by id. */
export const customersFromJson = (json: unknown): Map<number, Customer> =>
  new Map(decodeRows(customers, json).map((r) => [r.id, customerView(r)]));

/** One customer of the store as the API shows it; 404 `customer_not_found` unless live (or `includeDeleted`). */
export async function loadCustomer(
  ctx: ServiceContext,
  id: number,
  opts: { includeDeleted?: boolean } = {},
): Promise<Customer> {
  if (!opts.includeDeleted) return customerView(await findCustomer(ctx, id));
  const found = (await loadCustomers(ctx, [id])).get(id);
  if (!found) throw ApiError.notFound("customer_not_found", `Customer ${id}`);
  return found;
}

/**
 * One search term: a substring of the name or email, or, when the term looks like a phone number,
 * its digits in the stored E.164 number or the national form, whichever form it was typed in
 * ("0534…", "966534…", "+966 53…", "00966 53…").
 */
function searchCustomers(term: string) {
  const conditions: SQL[] = [containsText(customers.name, term), containsText(customers.email, term)];
  if (/^[\d\s+().-]+$/.test(term)) {
    // "00" is the international prefix, as "+" is: the digits after it start with the calling code.
    const digits = term.replace(/\D/g, "").slice(/^\s*00/.test(term) ? 2 : 0);
    if (digits.length >= 2) {
      conditions.push(containsText(customers.mobileNumber, digits), containsText(customers.username, digits));
    }
  }
  return { where: or(...conditions)!, indexed: false };
}

export const CUSTOMER_LIST: ListSpec = {
  fields: {
    id: { column: customers.id, kind: "integer" },
    country_code: { column: customers.countryCode, kind: "string" },
    mobile_number: { column: customers.mobileNumber, kind: "string" },
    username: { column: customers.username, kind: "string" },
    email: { column: customers.email, kind: "string", nullable: true },
    name: { column: customers.name, kind: "string", nullable: true },
    lang: { column: customers.lang, kind: "string", values: CUSTOMER_LANGS },
    current_city_id: { column: customers.currentCityId, kind: "integer", nullable: true },
    is_email_verified: { column: customers.isEmailVerified, kind: "boolean" },
    is_mobile_verified: { column: customers.isMobileVerified, kind: "boolean" },
    is_verified: { column: customers.isMobileVerified, kind: "boolean" },
    is_blocked: { column: customers.isBlocked, kind: "boolean" },
    national_id: { column: customers.nationalId, kind: "string", nullable: true },
    secondary_mobile_number: { column: customers.secondaryMobileNumber, kind: "string", nullable: true },
    date_of_birth: { column: customers.dateOfBirth, kind: "date", nullable: true },
    joined_at: { column: customers.joinedAt, kind: "datetime" },
    created_at: { column: customers.createdAt, kind: "datetime" },
    modified_at: { column: customers.modifiedAt, kind: "datetime" },
  },
  search: searchCustomers,
  searchDescription:
    "Matches the name or email (substring), or the mobile number in any form (`0534…`, `966534…`, " +
    "`+966 53…`); may repeat, all terms must match.",
  defaultOrder: "-created_at",
  idColumn: customers.id,
  sync: { modifiedAt: customers.modifiedAt, softDeleted: true },
};

export async function listCustomers(ctx: ServiceContext, q: ListQuery): Promise<Page<Customer>> {
  return mapPage(
    await listPage(ctx.db, q, { table: customers, scope: () => customerRecords.listed(ctx, q) }),
    customerView,
  );
}

export const getCustomer = (ctx: ServiceContext, id: number): Promise<Customer> => loadCustomer(ctx, id);

/** The live customers of the store, other than `self`, who have the number `e164`. */
const holdersOf = (ctx: ServiceContext, e164: string, self?: number) =>
  and(
    customerRecords.live(ctx),
    eq(customers.mobileNumber, e164),
    self === undefined ? undefined : ne(customers.id, self),
  );

/** The 409 naming the live customer of the store (not `self`) who has the number, or null when none does. */
async function takenBy(ctx: ServiceContext, e164: string, self?: number): Promise<ApiError | null> {
  const [other] = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(holdersOf(ctx, e164, self))
    .limit(1);
  return other ? mobileTaken(e164, other.id) : null;
}

/** The 409 when another live customer of the store has the number. */
async function refuseTakenMobile(ctx: ServiceContext, e164: string): Promise<void> {
  const taken = await takenBy(ctx, e164);
  if (taken) throw taken;
}

const mobileTaken = (e164: string, customerId?: number) =>
  ApiError.conflict(
    "customer_mobile_taken",
    `Another customer of this store has the mobile number ${e164}.`,
    customerId === undefined ? {} : { customer_id: customerId },
  );

/** Runs a write; a race on the live-number unique index is the same 409 as the check before it. */
async function takingMobile<T>(e164: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (e164 && /UNIQUE constraint failed: customers\./.test(String((err as Error)?.message))) throw mobileTaken(e164);
    throw err;
  }
}

const SECONDARY_FIELDS = { country_code: "country_code", mobile_number: "secondary_mobile_number" };

const secondaryOf = async (ctx: ServiceContext, countryCode: string, value: string | null | undefined) =>
  value == null ? value : (await parseMobile(ctx, countryCode, value, SECONDARY_FIELDS)).e164;

/** What a customer's place check calls the city (the district is never given). */
const CITY_FIELD = { city: "current_city_id", district: "district_id" };

export async function createCustomer(ctx: ServiceContext, input: CreateCustomer): Promise<Customer> {
  const mobile = await parseMobile(ctx, input.country_code, input.mobile_number);
  const secondary = await secondaryOf(ctx, mobile.countryCode, input.secondary_mobile_number);
  // The city and the number are checked in one round trip; the city's 400 still comes first.
  await readTogether(
    checkPlace(ctx, { cityId: input.current_city_id }, CITY_FIELD),
    refuseTakenMobile(ctx, mobile.e164),
  );
  const row = await takingMobile(mobile.e164, () =>
    customerRecords.create(ctx, {
      appId: ctx.appId,
      countryCode: mobile.countryCode,
      mobileNumber: mobile.e164,
      username: mobile.national,
      name: input.name,
      email: input.email,
      lang: input.lang,
      dateOfBirth: input.date_of_birth,
      nationalId: input.national_id,
      secondaryMobileNumber: secondary,
      currentCityId: input.current_city_id,
      avatar: input.avatar,
      customFields: input.custom_fields,
    }),
  );
  return customerView(row);
}

/**
 * Update Customer: a partial change. A new mobile number (or email) is not verified until the
 * customer proves it again; `country_code` alone would re-read the old number, so it needs one.
 */
export async function updateCustomer(ctx: ServiceContext, id: number, input: UpdateCustomer): Promise<Customer> {
  return customerView(await changeCustomer(ctx, id, input));
}

/**
 * `updateCustomer`'s change, answering the row as it is now (the profile shows more of it): the
 * customer and the city read in one round trip, then one batch that holds the customer live and the
 * new number free, writes the change and its event (and a block's end of every session), and
 * answers the row.
 */
export async function changeCustomer(ctx: ServiceContext, id: number, input: UpdateCustomer): Promise<CustomerRow> {
  const [current, places] = await readTogether(
    findCustomer(ctx, id),
    placesNamed(ctx, { cityId: input.current_city_id }),
  );
  if (input.country_code !== undefined && input.mobile_number === undefined) {
    throw ApiError.validation({ mobile_number: ["Required when `country_code` changes."] });
  }
  const mobile =
    input.mobile_number === undefined
      ? undefined
      : await parseMobile(ctx, input.country_code ?? current.countryCode, input.mobile_number);
  const countryCode = mobile?.countryCode ?? current.countryCode;
  const secondary = await secondaryOf(ctx, countryCode, input.secondary_mobile_number);
  refuseUnknownPlace(places, { cityId: input.current_city_id }, CITY_FIELD);
  const newMobile = mobile && mobile.e164 !== current.mobileNumber ? mobile : undefined;
  const newEmail = input.email !== undefined && input.email !== current.email;
  const plan = new BatchPlan(ctx.db);
  plan.guard(
    sql`EXISTS (SELECT 1 FROM ${customers} WHERE ${and(customerRecords.live(ctx), eq(customers.id, id))})`,
    "customer",
    ApiError.notFound("customer_not_found", `Customer ${id}`),
  );
  if (newMobile) {
    plan.guard(sql`NOT EXISTS (SELECT 1 FROM ${customers} WHERE ${holdersOf(ctx, newMobile.e164, id)})`, "mobile", () =>
      takenBy(ctx, newMobile.e164, id),
    );
  }
  const changed = plan.read<CustomerRow>(
    customerRecords
      .update(ctx, id, {
        modifiedAt: nowIso(),
        ...(newMobile && {
          countryCode: newMobile.countryCode,
          mobileNumber: newMobile.e164,
          username: newMobile.national,
          isMobileVerified: false,
        }),
        ...(newEmail && { email: input.email, isEmailVerified: false }),
        name: input.name,
        lang: input.lang,
        dateOfBirth: input.date_of_birth,
        nationalId: input.national_id,
        secondaryMobileNumber: secondary,
        currentCityId: input.current_city_id,
        avatar: input.avatar,
        customFields: input.custom_fields,
        isBlocked: input.is_blocked,
      })
      .returning(),
  );
  // A blocked customer's sessions end now: no refresh succeeds.
  if (input.is_blocked === true && !current.isBlocked) plan.add(revokeCustomerSessions(ctx.db, ctx.appId, id));
  plan.event(literalEvent(ctx.appId, "customer.updated", { id }));
  const result = await takingMobile(newMobile?.e164, () => plan.run(ctx.events));
  // And the auth path refuses their access tokens (at once in this isolate, within a second in
  // others; see core/auth.ts).
  if (input.is_blocked !== undefined && input.is_blocked !== current.isBlocked) forgetCustomerStanding(ctx.appId, id);
  return result.rows(changed)[0]!;
}
