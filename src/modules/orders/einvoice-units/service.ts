import { and, eq, inArray, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { sealText } from "../einvoices/sealing";
import { EINVOICE_UNIT_STATUSES, einvoiceUnits } from "../einvoices/tables";
import { onboardWakeUp, titleOf, typesOf, unitEvent } from "../einvoices/units";
import type { RegisterUnit, RenewUnit } from "./schemas";

/**
 * A store's ZATCA e-invoicing units (docs/zatca.md, "Keys, onboarding and renewal"), as the API
 * Worker serves them: registering and renewing only record the request (the OTP sealed) and wake
 * the consumer in the webhooks' Worker, which holds the e-invoice core (keys, CSR, ZATCA's API).
 */

type UnitRow = typeof einvoiceUnits.$inferSelect;

/** The statuses that hold a store's one unit: a new registration waits for these to end. */
const HOLDING = ["onboarding", "active", "renewing"] as const;

/** The unit as the API shows it: never its key, its CSIDs' secrets or the OTP. */
export const unitView = (u: UnitRow) => ({
  id: u.id,
  name: u.name,
  status: u.status,
  branch: u.branch,
  registered_address: u.registeredAddress,
  industry: u.industry,
  invoice_types: typesOf(u.invoiceTypes),
  egs_serial: u.egsSerial,
  production_not_after: u.productionNotAfter,
  messages: u.messages,
  last_icv: u.lastIcv,
  signed_icv: u.signedIcv,
  created_at: u.createdAt,
  modified_at: u.modifiedAt,
});
export type UnitView = ReturnType<typeof unitView>;

export const UNIT_LIST: ListSpec = {
  fields: {
    id: { column: einvoiceUnits.id, kind: "integer" },
    name: { column: einvoiceUnits.name, kind: "string" },
    status: { column: einvoiceUnits.status, kind: "string", values: EINVOICE_UNIT_STATUSES },
    production_not_after: { column: einvoiceUnits.productionNotAfter, kind: "datetime", nullable: true },
    created_at: { column: einvoiceUnits.createdAt, kind: "datetime" },
  },
  defaultOrder: "-created_at",
  idColumn: einvoiceUnits.id,
  // Units are never deleted: a failed or revoked one is a status the mirror keeps.
  sync: { modifiedAt: einvoiceUnits.modifiedAt, softDeleted: false },
};

/** The OTP's sealing context: its row's serial, since the row's id is not known before its insert. */
export const otpContext = (appId: number, egsSerial: string) => `${appId}:${egsSerial}`;

const VAT_NUMBER = /^3\d{13}3$/;

/** The seller's settings the CSR takes (by the table's name: one statement of the read batch). */
const sellerQuery = (ctx: ServiceContext) =>
  ctx.db
    .select({
      vatNumber: sql<string | null>`vat_number`,
      sellerName: sql<string | null>`seller_name`,
      sellerAddress: sql<string | null>`seller_address`,
    })
    .from(sql`store_settings`)
    .where(sql`app_id = ${ctx.appId}`);

const unitExists = (unitId: number) =>
  ApiError.conflict(
    "einvoice_unit_exists",
    `The store's e-invoicing unit ${unitId} is onboarding or issuing: renew it, or wait until its onboarding ends.`,
    { unit_id: unitId },
  );

/** A holding unit of the store's, if any: the refusal of a registration that lost a race. */
const holdingUnit = (ctx: ServiceContext) =>
  ctx.db
    .select({ id: einvoiceUnits.id })
    .from(einvoiceUnits)
    .where(and(eq(einvoiceUnits.appId, ctx.appId), inArray(einvoiceUnits.status, [...HOLDING])))
    .limit(1);

/**
 * Registers a unit: one read (the seller's settings, a unit already held), one guarded batch (the
 * unit `onboarding` with its OTP sealed, `einvoice_unit.created`, the consumer's wake-up).
 */
export async function registerUnit(ctx: ServiceContext, input: RegisterUnit, secret: string): Promise<UnitView> {
  const [sellers, held] = await ctx.db.batch([sellerQuery(ctx), holdingUnit(ctx)]);
  if (held[0]) throw unitExists(held[0].id);
  const seller = sellers[0];
  const address = seller?.sellerAddress ? (JSON.parse(seller.sellerAddress) as Record<string, string>) : null;
  const missing = [
    ...(seller?.vatNumber && VAT_NUMBER.test(seller.vatNumber) ? [] : ["vat_number"]),
    ...(seller?.sellerName ? [] : ["seller_name"]),
    // The documents need the national address, whatever the CSR names.
    ...(address ? [] : ["seller_address"]),
  ];
  if (missing.length)
    throw ApiError.conflict(
      "einvoice_seller_incomplete",
      `ZATCA's CSR needs the store's ${missing.join(", ")} (a VAT number is 15 digits, starting and ending with 3): ` +
        "set them in the store's settings, then register the unit.",
      { missing },
    );
  // A VAT group (11th digit 1) names its member by TIN in the CSR's OU (Security Features standard, 2.2).
  if (seller!.vatNumber![10] === "1" && !/^\d{10}$/.test(input.branch))
    throw ApiError.validation({ branch: ["The store's VAT number is a VAT group's: give the member's 10-digit TIN."] });
  const registeredAddress =
    input.registered_address ??
    `${address!.building_number} ${address!.street}, ${address!.district}, ${address!.city} ${address!.postal_code}`;
  const egsSerial = `3-${crypto.randomUUID()}`;
  const plan = new BatchPlan(ctx.db);
  plan.guard(
    sql`NOT EXISTS (SELECT 1 FROM einvoice_units WHERE app_id = ${ctx.appId} AND status IN ('onboarding', 'active', 'renewing'))`,
    "einvoice-unit-held",
    async () => {
      const [unit] = await holdingUnit(ctx);
      return unit ? unitExists(unit.id) : null;
    },
  );
  const unit = plan.insert(
    "einvoice_unit",
    ctx.db
      .insert(einvoiceUnits)
      .values({
        appId: ctx.appId,
        egsSerial,
        status: "onboarding",
        name: input.name,
        branch: input.branch,
        registeredAddress,
        industry: input.industry,
        invoiceTypes: titleOf(input.invoice_types),
        otpSealed: await sealText(secret, otpContext(ctx.appId, egsSerial), input.otp),
      })
      .returning(),
  );
  plan.event(unitEvent("einvoice_unit.created", unit.id), onboardWakeUp(unit.id));
  return unitView((await plan.run(ctx.events)).row<UnitRow>(unit));
}

const unitQuery = (ctx: ServiceContext, unitId: number) =>
  ctx.db
    .select()
    .from(einvoiceUnits)
    .where(and(eq(einvoiceUnits.id, unitId), eq(einvoiceUnits.appId, ctx.appId)));

async function findUnit(ctx: ServiceContext, unitId: number): Promise<UnitRow> {
  const [unit] = await unitQuery(ctx, unitId);
  if (!unit) throw ApiError.notFound("einvoice_unit_not_found", `E-invoicing unit ${unitId}`);
  return unit;
}

export const getUnit = async (ctx: ServiceContext, unitId: number): Promise<UnitView> =>
  unitView(await findUnit(ctx, unitId));

export async function listUnits(ctx: ServiceContext, q: ListQuery): Promise<Page<UnitView>> {
  const page = await listPage(ctx.db, q, { table: einvoiceUnits, scope: () => eq(einvoiceUnits.appId, ctx.appId) });
  return mapPage(page, unitView);
}

const notRenewable = (unit: { id: number; status: string }) =>
  ApiError.invalidTransition(`E-invoicing unit ${unit.id}`, unit.status, "renewed", ["renew (when active)"]);

/**
 * Renews an active unit's production CSID: the unit `renewing` with the new OTP sealed (it goes on
 * issuing on its current CSID), `einvoice_unit.renewing` and the consumer's wake-up. One read, one
 * guarded batch.
 */
export async function renewUnit(ctx: ServiceContext, unitId: number, input: RenewUnit, secret: string) {
  const unit = await findUnit(ctx, unitId);
  if (unit.status !== "active") throw notRenewable(unit);
  const active = and(
    eq(einvoiceUnits.id, unitId),
    eq(einvoiceUnits.appId, ctx.appId),
    eq(einvoiceUnits.status, "active"),
  );
  const plan = new BatchPlan(ctx.db);
  plan.guard(sql`EXISTS (SELECT 1 FROM einvoice_units WHERE ${active})`, "einvoice-unit-active", async () => {
    const [now] = await unitQuery(ctx, unitId);
    return now ? notRenewable(now) : ApiError.notFound("einvoice_unit_not_found", `E-invoicing unit ${unitId}`);
  });
  const updated = plan.read<UnitRow>(
    ctx.db
      .update(einvoiceUnits)
      .set({
        status: "renewing",
        otpSealed: await sealText(secret, otpContext(ctx.appId, unit.egsSerial), input.otp),
        messages: [],
        modifiedAt: nowIso(),
      })
      .where(active)
      .returning(),
  );
  plan.event(unitEvent("einvoice_unit.renewing", unitId), onboardWakeUp(unitId));
  return unitView((await plan.run(ctx.events)).rows(updated)[0]!);
}
