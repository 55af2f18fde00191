import { and, eq, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { auditCreated, auditedChange } from "../../../core/audit";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { literalEvent, rowEvent } from "../../../core/events/outbox";
import type { EventType } from "../../../core/events/registry";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page, searchColumns } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { BANK_ACCOUNT_STATUSES, bankAccounts } from "../tables";
import { BANK_ACCOUNT_AUDIT } from "./audit";
import { maskIban } from "./iban";
import type { BankAccount, CreateBankAccount, UpdateBankAccount } from "./schemas";

const records = tenantTable(bankAccounts, {
  label: "Bank account",
  notFound: "bank_account_not_found",
  events: { created: "bank_account.created", updated: "bank_account.updated", deleted: "bank_account.deleted" },
});

type Row = typeof bankAccounts.$inferSelect;

const view = (r: Row): BankAccount => ({
  id: r.id,
  bank_name_en: r.bankNameEn,
  bank_name_ar: r.bankNameAr,
  iban: maskIban(r.iban),
  account_holder: r.accountHolder,
  is_default: r.isDefault,
  status: r.status,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
});

export const BANK_ACCOUNT_LIST: ListSpec = {
  fields: {
    id: { column: bankAccounts.id, kind: "integer" },
    bank_name_en: { column: bankAccounts.bankNameEn, kind: "string" },
    bank_name_ar: { column: bankAccounts.bankNameAr, kind: "string" },
    account_holder: { column: bankAccounts.accountHolder, kind: "string" },
    is_default: { column: bankAccounts.isDefault, kind: "boolean" },
    status: { column: bankAccounts.status, kind: "string", values: BANK_ACCOUNT_STATUSES },
    created_at: { column: bankAccounts.createdAt, kind: "datetime" },
  },
  search: searchColumns(bankAccounts.bankNameEn, bankAccounts.bankNameAr, bankAccounts.accountHolder),
  searchDescription: "Matches the bank's names and the account holder.",
  // The default account first, then the newest.
  defaultOrder: "-is_default",
  idColumn: bankAccounts.id,
  sync: { modifiedAt: bankAccounts.modifiedAt, softDeleted: false },
};

/** MA4 */
export async function listBankAccounts(ctx: ServiceContext, q: ListQuery): Promise<Page<BankAccount>> {
  return mapPage(await listPage(ctx.db, q, { table: bankAccounts, scope: () => records.live(ctx) }), view);
}

export const getBankAccount = async (ctx: ServiceContext, id: number): Promise<BankAccount> =>
  view(await records.find(ctx, id));

const isLiveDefault = (appId: number) => and(live(bankAccounts, appId), eq(bankAccounts.isDefault, true)) as SQL;

/** The `{ id }` event of the live rows of the store matching `where` (at most one each time it is used here). */
const eventOf = (ctx: ServiceContext, type: EventType, where: SQL): SQL =>
  rowEvent(type, bankAccounts, and(records.live(ctx), where)!, sql`json_object('id', id)`);

/**
 * Making an account the default takes it from the one before, in the same batch (the unique index
 * allows one a store). The plan names that account before taking it; returns its event.
 */
function takeDefault(ctx: ServiceContext, plan: BatchPlan, at: string, except?: number): SQL {
  const where =
    except === undefined ? isLiveDefault(ctx.appId) : and(isLiveDefault(ctx.appId), ne(bankAccounts.id, except));
  const previous = plan.find("previous_default", sql`SELECT ${bankAccounts.id} FROM ${bankAccounts} WHERE ${where}`);
  audited(ctx, plan, "bank_account.updated", sql`${bankAccounts.id} = ${previous.id}`, "previous_default_audit", [
    ctx.db.update(bankAccounts).set({ isDefault: false, modifiedAt: at }).where(where),
  ]);
  return eventOf(ctx, "bank_account.updated", sql`${bankAccounts.id} = ${previous.id}`);
}

/** `changes` to the live account of the store that `where` selects, with its audit row (`after`: see `auditedChange`). */
const audited = (
  ctx: ServiceContext,
  plan: BatchPlan,
  action: "bank_account.updated" | "bank_account.deleted",
  where: SQL,
  after: string | undefined,
  changes: BatchItem<"sqlite">[],
) =>
  auditedChange(
    plan,
    ctx.audit,
    BANK_ACCOUNT_AUDIT,
    { appId: ctx.appId, action, where: and(records.live(ctx), where)!, after },
    changes,
  );

/** Aborts the batch when another live account of the store has `iban`. */
const ibanFree = (ctx: ServiceContext, iban: string, except?: number): BatchItem<"sqlite"> =>
  abortUnless(
    ctx.db,
    sql`NOT EXISTS (SELECT 1 FROM ${bankAccounts} WHERE ${and(
      records.live(ctx),
      eq(bankAccounts.iban, iban),
      except === undefined ? undefined : ne(bankAccounts.id, except),
    )})`,
    "bank account IBAN is free",
  );

/** Runs a batch with an IBAN guard; a failed guard is the 409 naming the account that has it. */
async function withIbanGuard<T>(ctx: ServiceContext, iban: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!iban || !isGuardAbort(error)) throw error;
    const [taken] = await ctx.db
      .select({ id: bankAccounts.id })
      .from(bankAccounts)
      .where(and(records.live(ctx), eq(bankAccounts.iban, iban)))
      .limit(1);
    throw ApiError.conflict("iban_already_registered", "Another bank account of the store has this IBAN.", {
      bank_account_id: taken?.id ?? null,
    });
  }
}

/**
 * Adds an account. It is the default when asked, or when the store has none yet (and it is
 * active); the IBAN must not be another live account's.
 */
export async function createBankAccount(ctx: ServiceContext, input: CreateBankAccount): Promise<BankAccount> {
  const at = nowIso();
  const status = input.status ?? "active";
  const isDefault: boolean | SQL =
    status === "inactive"
      ? false
      : (input.is_default ?? sql`NOT EXISTS (SELECT 1 FROM ${bankAccounts} WHERE ${isLiveDefault(ctx.appId)})`);
  const insert = ctx.db
    .insert(bankAccounts)
    .values({
      appId: ctx.appId,
      createdAt: at,
      modifiedAt: at,
      bankNameEn: input.bank_name_en,
      bankNameAr: input.bank_name_ar,
      iban: input.iban,
      accountHolder: input.account_holder,
      isDefault,
      status,
    })
    .returning();
  const plan = new BatchPlan(ctx.db).add(ibanFree(ctx, input.iban));
  const taken = isDefault === true ? takeDefault(ctx, plan, at) : undefined;
  const account = plan.insert("account", insert);
  auditCreated(plan, ctx.audit, BANK_ACCOUNT_AUDIT, { appId: ctx.appId, action: "bank_account.created", row: account });
  plan.event(eventOf(ctx, "bank_account.created", sql`${bankAccounts.id} = ${account.id}`), ...(taken ? [taken] : []));
  const result = await withIbanGuard(ctx, input.iban, () => plan.run(ctx.events));
  return view(result.row<Row>(account));
}

/** Changes an account; an inactive account is never the default (making one inactive unsets it). */
export async function updateBankAccount(
  ctx: ServiceContext,
  id: number,
  input: UpdateBankAccount,
): Promise<BankAccount> {
  const row = await records.find(ctx, id);
  const status = input.status ?? row.status;
  if (input.is_default === true && status === "inactive") {
    throw ApiError.validation({ is_default: ["An inactive account cannot be the default; make it active too."] });
  }
  const at = nowIso();
  const isDefault = status === "inactive" ? false : input.is_default;
  const update = records.update(ctx, id, {
    modifiedAt: at,
    bankNameEn: input.bank_name_en,
    bankNameAr: input.bank_name_ar,
    iban: input.iban,
    accountHolder: input.account_holder,
    status: input.status,
    isDefault,
  });
  const plan = new BatchPlan(ctx.db);
  if (input.iban) plan.add(ibanFree(ctx, input.iban, id));
  const taken = isDefault === true && !row.isDefault ? takeDefault(ctx, plan, at, id) : undefined;
  audited(ctx, plan, "bank_account.updated", eq(bankAccounts.id, id), "account_audit", [update]);
  plan.event(eventOf(ctx, "bank_account.updated", eq(bankAccounts.id, id)), ...(taken ? [taken] : []));
  // The account as it is now, read in the same batch: the write waits for D1 twice, not three times.
  const now = plan.read<Row>(
    ctx.db
      .select()
      .from(bankAccounts)
      .where(and(records.live(ctx), eq(bankAccounts.id, id))),
  );
  const [after] = (await withIbanGuard(ctx, input.iban, () => plan.run(ctx.events))).rows(now);
  if (!after) throw ApiError.notFound("bank_account_not_found", `Bank account ${id}`);
  return view(after);
}

/** Removes an account (a soft delete), with its audit row and event in one batch. */
export async function deleteBankAccount(ctx: ServiceContext, id: number): Promise<void> {
  await records.find(ctx, id);
  const plan = new BatchPlan(ctx.db);
  audited(ctx, plan, "bank_account.deleted", eq(bankAccounts.id, id), undefined, [records.softDelete(ctx, id)]);
  await plan.event(literalEvent(ctx.appId, "bank_account.deleted", { id })).run(ctx.events);
}

/**
 * The store's default bank account, IBAN whole, for bank-transfer payment instructions; null when
 * the store has none (no account, or none made the default).
 */
export async function defaultBankAccount(
  db: Db,
  appId: number,
): Promise<{ id: number; bankNameEn: string; bankNameAr: string; iban: string; accountHolder: string } | null> {
  const [row] = await db
    .select({
      id: bankAccounts.id,
      bankNameEn: bankAccounts.bankNameEn,
      bankNameAr: bankAccounts.bankNameAr,
      iban: bankAccounts.iban,
      accountHolder: bankAccounts.accountHolder,
    })
    .from(bankAccounts)
    .where(isLiveDefault(appId))
    .limit(1);
  return row ?? null;
}
