import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type EventSink, emit } from "../../../core/events/outbox";
import type { EventType } from "../../../core/events/registry";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { logTaskFailure } from "../../../core/logging";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { groupByShard } from "../../../db/shards";
import type { Csid, CsidResult, EInvoicingApi, ZatcaMessage } from "../invoices/e-invoice/api";
import { parseCertificate } from "../invoices/e-invoice/certificate";
import { eInvoicingEnvironment } from "../invoices/e-invoice/choose-api";
import { CsrFieldsError, unitCsr } from "../invoices/e-invoice/csr";
import { signEInvoice } from "../invoices/e-invoice/document";
import type { EInvoicingEnvironment } from "../invoices/e-invoice/environments";
import { newUnitKey, publicKeyOf } from "../invoices/e-invoice/keys";
import { complianceSamples, type Seller } from "./compliance-samples";
import { openText, sealKey, sealText, unitContext } from "./sealing";
import { einvoiceUnits, type UnitMessage } from "./tables";
import { type OnboardMessage, unitEvent } from "./units";

/**
 * Onboarding and renewal of a unit (docs/zatca.md, "Keys, onboarding and renewal"), in the webhooks'
 * Worker, woken by `einvoice.onboard`: the OTP taken once (compare-and-set: a redelivered message
 * finds none and does nothing), a new key, the CSR, the compliance CSID, the compliance checks, the
 * production CSID (or, renewing, the renewed one), and the unit `active` with its key and CSIDs
 * sealed, in one guarded batch with its event. A refusal keeps ZATCA's messages on the unit:
 * `failed` (register again) or, renewing, `active` on its old CSID (renew again).
 */

type Unit = typeof einvoiceUnits.$inferSelect;

export type OnboardingDeps = { api: EInvoicingApi; environment: EInvoicingEnvironment; secret: string };

/** What ZATCA (or our own check) said, as the unit keeps it. */
const messagesOf = (errors: ZatcaMessage[]): UnitMessage[] =>
  errors.map((e) => ({ code: e.code, category: e.category, message: e.message }));

class Refused extends Error {
  constructor(readonly messages: UnitMessage[]) {
    super(messages.map((m) => m.message).join(" "));
  }
}

const local = (code: string, message: string): Refused => new Refused([{ code, category: "local", message }]);

/** The CSID, or the refusal with ZATCA's words (a retryable answer too: the OTP is spent, so a retry needs a new one). */
function csidOf(result: CsidResult, step: string, key: Uint8Array): Csid {
  if (result.kind === "issued") {
    const certified = parseCertificate(result.csid.certificate).publicKey;
    const own = publicKeyOf(key);
    if (certified.length !== own.length || certified.some((b, i) => b !== own[i]))
      throw local(
        "local-certificate-not-unit-key",
        `ZATCA's ${step} certifies another key than the unit's: the developer portal issues one fixed test ` +
          "certificate to every unit, which cannot stamp this unit's documents. Onboard on the simulation or core.",
      );
    return result.csid;
  }
  if (result.kind === "rejected") throw new Refused(messagesOf(result.errors));
  if (result.kind === "retryable")
    throw local(
      "local-zatca-unavailable",
      `ZATCA did not answer the ${step} (${result.reason}): try again with a new OTP.`,
    );
  if (result.kind === "credentials_refused")
    throw local("local-credentials-refused", `ZATCA refused the unit's credentials at the ${step} (401).`);
  throw local("local-unexpected-answer", `ZATCA's answer to the ${step} was not a CSID (${result.kind}).`);
}

/** The seller's details by the table's name (the account module's index would bring zod into this Worker). */
const sellerQuery = (db: Db, appId: number) =>
  db
    .select({
      vatNumber: sql<string | null>`vat_number`,
      sellerName: sql<string | null>`seller_name`,
      commercialRegistration: sql<string | null>`commercial_registration`,
      sellerAddress: sql<string | null>`seller_address`,
    })
    .from(sql`store_settings`)
    .where(sql`app_id = ${appId}`);

function sellerOf(row: Awaited<ReturnType<typeof sellerQuery>>[number] | undefined): Seller {
  if (!row?.vatNumber || !row.sellerName || !row.sellerAddress)
    throw local("local-seller-incomplete", "The store's vat_number, seller_name or seller_address is not set.");
  return {
    name: row.sellerName,
    vatNumber: row.vatNumber,
    commercialRegistration: row.commercialRegistration,
    address: JSON.parse(row.sellerAddress),
  };
}

/** A new key and its CSR for the unit. */
function newCsr(unit: Unit, seller: Seller, environment: EInvoicingEnvironment) {
  const key = newUnitKey();
  const csr = unitCsr(
    {
      environment,
      commonName: unit.name,
      organization: seller.name,
      organizationUnit: unit.branch,
      unit: { solution: "Commerce", model: "1.0", serial: unit.egsSerial.replace(/^3-/, "") },
      vatNumber: seller.vatNumber,
      invoiceTypes: unit.invoiceTypes,
      address: unit.registeredAddress,
      industry: unit.industry,
    },
    key,
  );
  return { key, csr };
}

/** The unit's columns once it holds a production CSID (its key and secrets sealed to its row). */
async function issuedColumns(unit: Unit, secret: string, key: Uint8Array, production: Csid) {
  const context = unitContext(unit.appId, unit.id);
  return {
    status: "active" as const,
    privateKeySealed: await sealKey(secret, context, key),
    productionCertificate: production.certificate,
    productionSecretSealed: await sealText(secret, context, production.secret),
    productionNotAfter: parseCertificate(production.certificate).notAfter,
    renewalWarnedAt: null,
    // New credentials: the submitter, stopped by a 401 on the old ones, goes on (submitter.ts).
    credentialsRefusedAt: null,
    messages: [],
  };
}

async function onboard(unit: Unit, seller: Seller, otp: string, deps: OnboardingDeps) {
  const { key, csr } = newCsr(unit, seller, deps.environment);
  const compliance = csidOf(await deps.api.complianceCsid(otp, csr), "compliance CSID", key);
  const stamp = { privateKey: key, certificate: parseCertificate(compliance.certificate) };
  for (const input of complianceSamples(seller, unit.invoiceTypes, nowIso())) {
    const signed = signEInvoice(input, stamp);
    const checked = await deps.api.complianceInvoice(compliance, {
      invoiceHash: signed.invoiceHash,
      uuid: input.uuid,
      xml: signed.xml,
    });
    if (checked.kind === "rejected") throw new Refused(messagesOf(checked.errors));
    if (checked.kind !== "passed")
      throw local(
        "local-compliance-check",
        `The compliance check of a ${input.transaction} ${input.kind} did not pass (${checked.kind}).`,
      );
  }
  const production = csidOf(await deps.api.productionCsid(compliance, compliance.requestId), "production CSID", key);
  const context = unitContext(unit.appId, unit.id);
  return {
    ...(await issuedColumns(unit, deps.secret, key, production)),
    complianceCertificate: compliance.certificate,
    complianceSecretSealed: await sealText(deps.secret, context, compliance.secret),
    complianceRequestId: compliance.requestId,
  };
}

async function renew(unit: Unit, seller: Seller, otp: string, deps: OnboardingDeps) {
  if (!unit.productionCertificate || !unit.productionSecretSealed)
    throw local("local-no-production-csid", "The unit has no production CSID to renew.");
  const current = {
    binarySecurityToken: btoa(unit.productionCertificate),
    secret: await openText(deps.secret, unitContext(unit.appId, unit.id), unit.productionSecretSealed),
  };
  const { key, csr } = newCsr(unit, seller, deps.environment);
  const renewed = csidOf(await deps.api.renewCsid(current, otp, csr), "renewed production CSID", key);
  return issuedColumns(unit, deps.secret, key, renewed);
}

/**
 * Onboards (or renews) the unit if its OTP waits; answers whether this call did it. A second call,
 * or a redelivered message, finds the OTP taken and does nothing.
 */
export async function onboardUnit(
  db: Db,
  sink: EventSink,
  deps: OnboardingDeps,
  appId: number,
  unitId: number,
): Promise<boolean> {
  const [unit] = await db
    .select()
    .from(einvoiceUnits)
    .where(and(eq(einvoiceUnits.id, unitId), eq(einvoiceUnits.appId, appId)));
  if (!unit?.otpSealed || (unit.status !== "onboarding" && unit.status !== "renewing")) return false;
  const taken = await db
    .update(einvoiceUnits)
    .set({ otpSealed: null, modifiedAt: nowIso() })
    .where(
      and(
        eq(einvoiceUnits.id, unitId),
        eq(einvoiceUnits.status, unit.status),
        eq(einvoiceUnits.otpSealed, unit.otpSealed),
      ),
    );
  if ((taken.meta.changes ?? 0) !== 1) return false;
  const renewing = unit.status === "renewing";
  let set: Partial<typeof einvoiceUnits.$inferInsert>;
  let type: EventType;
  try {
    const [sellerRow] = await sellerQuery(db, unit.appId);
    const otp = await openText(deps.secret, `${unit.appId}:${unit.egsSerial}`, unit.otpSealed);
    const seller = sellerOf(sellerRow);
    set = renewing ? await renew(unit, seller, otp, deps) : await onboard(unit, seller, otp, deps);
    type = renewing ? "einvoice_unit.renewed" : "einvoice_unit.activated";
  } catch (thrown) {
    // A field ZATCA would refuse (csr.ts names it), told as the unit's messages.
    const error =
      thrown instanceof CsrFieldsError
        ? new Refused(
            Object.entries(thrown.errors).flatMap(([field, list]) =>
              list.map((message) => ({ code: "local-csr-field", category: field, message })),
            ),
          )
        : thrown;
    if (!(error instanceof Refused)) logTaskFailure("onboard e-invoicing unit", error, { app_id: unit.appId });
    const messages =
      error instanceof Refused
        ? error.messages
        : [
            {
              code: "local-error",
              category: "local",
              message: "The onboarding stopped on an error of ours: try again.",
            },
          ];
    set = { status: renewing ? "active" : "failed", messages };
    type = renewing ? "einvoice_unit.renewal_failed" : "einvoice_unit.onboarding_failed";
  }
  const at = nowIso();
  const mine = and(
    eq(einvoiceUnits.id, unitId),
    eq(einvoiceUnits.status, unit.status),
    sql`${einvoiceUnits.otpSealed} IS NULL`,
  );
  const changes: BatchItem<"sqlite">[] = [
    // The unit as this call took it, not ended meanwhile by the cron's sweep (unit-sweeps.ts).
    abortUnless(db, sql`EXISTS (SELECT 1 FROM einvoice_units WHERE ${mine})`, "einvoice-unit-taken"),
    db
      .update(einvoiceUnits)
      .set({ ...set, modifiedAt: at })
      .where(mine),
  ];
  try {
    await emit(db, sink, changes, unitEvent(type, unitId));
  } catch (error) {
    if (isGuardAbort(error)) return false;
    throw error;
  }
  return true;
}

/** Seconds before a failed wake-up is tried again. */
const RETRY_DELAY_S = 30;

/**
 * The `commerce-einvoices` queue's onboarding wake-ups (consumer.ts hands them here), one unit at a
 * time; a message whose onboarding failed to run is retried.
 */
export async function consumeOnboardMessages(
  messages: readonly Message<OnboardMessage>[],
  env: Env,
  sink: EventSink,
  api: EInvoicingApi,
): Promise<void> {
  const deps: OnboardingDeps = { api, environment: eInvoicingEnvironment(env), secret: env.EINVOICE_KEY_SECRET };
  const groups = await groupByShard(env, messages, (m) => m.body.app_id);
  await Promise.all(
    groups.map(async ({ db, items }) => {
      for (const m of items) {
        try {
          await onboardUnit(db, sink, deps, m.body.app_id, m.body.data.unit_id);
          m.ack();
        } catch (error) {
          logTaskFailure("onboard e-invoicing unit", error, { app_id: m.body.app_id });
          m.retry({ delaySeconds: RETRY_DELAY_S });
        }
      }
    }),
  );
}
