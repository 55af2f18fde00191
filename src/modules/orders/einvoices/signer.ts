import { and, asc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { logTaskFailure } from "../../../core/logging";
import { nowIso } from "../../../core/time";
import { createDb, type Db } from "../../../db/client";
import { everyShardBinding } from "../../../db/shards";
import { type CsidCertificate, parseCertificate } from "../invoices/e-invoice/certificate";
import { signEInvoice } from "../invoices/e-invoice/document";
import { openKey } from "../invoices/e-invoice/keys";
import { invoiceItems, invoices, orders } from "../tables";
import { EInvoiceNotBuildable, einvoiceInputOf, type SellerSettings } from "./input";
import { einvoices, einvoiceUnits, ISSUING_UNIT_STATUSES, type ZatcaMessage } from "./tables";

/**
 * The signer (docs/zatca.md, "Where the signing runs"), in the webhooks' Worker: it signs a unit's
 * documents in counter order, each with the previous one's hash as its PIH, and moves the unit's
 * head (`signed_icv`, `last_hash`) compare-and-set in the batch that stores them. Two signers of
 * one unit at once never fork the chain: the second's batch finds the head moved and re-reads.
 */

/** Documents read and signed per round: one read and one write batch for each this many. */
const CHUNK = 25;

type Unit = typeof einvoiceUnits.$inferSelect;

/** What a signing round needs of a unit's next documents: ONE batch of reads. */
async function readRound(db: Db, appId: number, unitId: number) {
  const next = db
    .select({ invoiceId: einvoices.invoiceId })
    .from(einvoices)
    .where(
      and(
        eq(einvoices.unitId, unitId),
        gt(einvoices.icv, sql`(SELECT signed_icv FROM einvoice_units WHERE id = ${unitId})`),
      ),
    )
    .orderBy(asc(einvoices.icv))
    .limit(CHUNK);
  const ids = sql`(SELECT invoice_id FROM (${next}))`;
  const [units, docs, rows, lines, originals, orderRows, settings] = await db.batch([
    db.select().from(einvoiceUnits).where(eq(einvoiceUnits.id, unitId)),
    db.select().from(einvoices).where(sql`${einvoices.invoiceId} IN ${ids}`).orderBy(asc(einvoices.icv)),
    db.select().from(invoices).where(sql`${invoices.id} IN ${ids}`),
    db.select().from(invoiceItems).where(sql`${invoiceItems.invoiceId} IN ${ids}`).orderBy(asc(invoiceItems.id)),
    db
      .select({ id: invoices.id, serial: invoices.serial })
      .from(invoices)
      .where(sql`${invoices.id} IN (SELECT refunded_invoice_id FROM invoices WHERE id IN ${ids})`),
    db
      .select({ id: orders.id, receiver: orders.receiver, buyer: orders.buyer })
      .from(orders)
      .where(sql`${orders.id} IN (SELECT order_id FROM invoices WHERE id IN ${ids})`),
    sellerSettingsQuery(db, appId),
  ]);
  return { unit: units[0], docs, rows, lines, originals, orderRows, settings: sellerSettingsOf(settings[0]) };
}

/**
 * The seller's settings by the table's name, not through the account module's index: its schemas
 * would bring zod into this Worker's bundle (a delivery's isolate starts with all of it).
 */
const sellerSettingsQuery = (db: Db, appId: number) =>
  db
    .select({
      commercialRegistration: sql<string | null>`commercial_registration`,
      sellerAddress: sql<string | null>`seller_address`,
      defaultLang: sql<string | null>`default_lang`,
    })
    .from(sql`store_settings`)
    .where(sql`app_id = ${appId}`);

function sellerSettingsOf(
  row: { commercialRegistration: string | null; sellerAddress: string | null; defaultLang: string | null } | undefined,
): SellerSettings {
  return {
    commercialRegistration: row?.commercialRegistration ?? null,
    sellerAddress: row?.sellerAddress ? JSON.parse(row.sellerAddress) : null,
    defaultLang: row?.defaultLang === "en" ? "en" : "ar",
  };
}

/** The unit's stamp: its key opened with the Worker's secret, and its CSID's certificate. */
async function stampOf(unit: Unit, secret: string) {
  const certificate = unit.productionCertificate ?? unit.complianceCertificate;
  if (!unit.privateKeySealed || !certificate) throw new Error(`e-invoicing unit ${unit.id} has no key or certificate`);
  const privateKey = await openKey(secret, `${unit.appId}:${unit.id}`, unit.privateKeySealed);
  return { privateKey, certificate: parseCertificate(certificate) as CsidCertificate };
}

/**
 * A document that cannot be built: its reason kept on it, the chain waiting there. Its invoice's
 * `modified_at` moves when the reason is new (Invoice Details shows it), not on each retry of the
 * cron's sweep, which finds the same reason until the store's settings change.
 */
function stalled(
  db: Db,
  doc: { id: number; invoiceId: number },
  error: EInvoiceNotBuildable,
  at: string,
): BatchItem<"sqlite">[] {
  const messages: ZatcaMessage[] = [{ type: "error", code: error.code, message: error.message }];
  return [
    db
      .update(invoices)
      .set({ modifiedAt: at })
      .where(
        and(
          eq(invoices.id, doc.invoiceId),
          sql`EXISTS (SELECT 1 FROM einvoices WHERE id = ${doc.id} AND xml IS NULL
            AND zatca_messages <> ${JSON.stringify(messages)})`,
        ),
      ),
    db
      .update(einvoices)
      .set({ zatcaMessages: messages, attempts: sql`${einvoices.attempts} + 1` })
      .where(and(eq(einvoices.id, doc.id), sql`${einvoices.xml} IS NULL`)),
  ];
}

type Round = { signed: number; stalled: boolean };

/**
 * Signs one round of a unit's next documents; answers how many it signed, or null when another
 * signer moved the head meanwhile (read again). Stops at a document that cannot be built yet.
 */
async function signRound(db: Db, appId: number, unitId: number, secret: string): Promise<Round | null> {
  const round = await readRound(db, appId, unitId);
  const { unit } = round;
  if (!unit || !(ISSUING_UNIT_STATUSES as readonly string[]).includes(unit.status) || !round.docs.length)
    return { signed: 0, stalled: false };
  const stamp = await stampOf(unit, secret);
  const invoiceOf = new Map(round.rows.map((r) => [r.id, r]));
  const serialOf = new Map(round.originals.map((r) => [r.id, r.serial]));
  const orderOf = new Map(round.orderRows.map((r) => [r.id, r]));
  const at = nowIso();
  const writes: BatchItem<"sqlite">[] = [
    // The compare-and-set: the batch applies only on the head this round read.
    abortUnless(
      db,
      sql`EXISTS (SELECT 1 FROM einvoice_units WHERE id = ${unitId} AND signed_icv = ${unit.signedIcv}
        AND last_hash = ${unit.lastHash})`,
      "einvoice-head",
    ),
  ];
  let head = { icv: unit.signedIcv, hash: unit.lastHash };
  let isStalled = false;
  for (const doc of round.docs) {
    const invoice = invoiceOf.get(doc.invoiceId);
    // Counters are taken one by one in the invoices' batches: the next document is always head + 1.
    if (!invoice || doc.icv !== head.icv + 1) break;
    try {
      const input = einvoiceInputOf({
        invoice,
        lines: round.lines.filter((l) => l.invoiceId === invoice.id),
        order: orderOf.get(invoice.orderId),
        creditedSerial: invoice.refundedInvoiceId === null ? null : (serialOf.get(invoice.refundedInvoiceId) ?? null),
        settings: round.settings,
        chain: { icv: doc.icv, uuid: doc.uuid, pih: head.hash },
      });
      const signed = signEInvoice(input, stamp);
      writes.push(
        db
          .update(einvoices)
          // Its attempts and messages from here on are its submission's (a build's failures are behind it).
          .set({
            pih: head.hash,
            invoiceHash: signed.invoiceHash,
            xml: signed.xml,
            qr: signed.qr,
            signedAt: at,
            attempts: 0,
            zatcaMessages: [],
          })
          .where(and(eq(einvoices.id, doc.id), sql`${einvoices.xml} IS NULL`)),
        // Its invoice shows the signature (`zatca_qr`, the e-invoice's hash): a mirror of the invoices sees it.
        db.update(invoices).set({ modifiedAt: at }).where(eq(invoices.id, invoice.id)),
      );
      head = { icv: doc.icv, hash: signed.invoiceHash };
    } catch (error) {
      if (!(error instanceof EInvoiceNotBuildable)) throw error;
      writes.push(...stalled(db, doc, error, at));
      isStalled = true;
      logTaskFailure("sign e-invoices", error, { app_id: appId });
      break;
    }
  }
  const signedCount = head.icv - unit.signedIcv;
  writes.push(
    db
      .update(einvoiceUnits)
      .set({ signedIcv: head.icv, lastHash: head.hash, modifiedAt: at })
      .where(and(eq(einvoiceUnits.id, unitId), eq(einvoiceUnits.signedIcv, unit.signedIcv))),
  );
  try {
    await db.batch(writes as [BatchItem<"sqlite">]);
  } catch (error) {
    if (isGuardAbort(error)) return null;
    throw error;
  }
  return { signed: signedCount, stalled: isStalled };
}

/**
 * Signs a unit's documents until none waits, or one cannot be built yet (the store's settings lack
 * what it needs: the cron's sweep tries again); answers how many it signed.
 */
export async function signUnit(db: Db, appId: number, unitId: number, secret: string): Promise<number> {
  let total = 0;
  for (;;) {
    const round = await signRound(db, appId, unitId, secret);
    if (round === null) continue; // another signer moved the head: read it again
    total += round.signed;
    if (round.stalled || round.signed === 0) return total;
  }
}

/** The store's issuing units with documents waiting, on its shard's `db`. */
async function waitingUnits(db: Db, appIds?: number[]) {
  return db
    .select({ id: einvoiceUnits.id, appId: einvoiceUnits.appId })
    .from(einvoiceUnits)
    .where(
      and(
        inArray(einvoiceUnits.status, [...ISSUING_UNIT_STATUSES]),
        sql`${einvoiceUnits.signedIcv} < ${einvoiceUnits.lastIcv}`,
        appIds ? inArray(einvoiceUnits.appId, appIds) : undefined,
      ) as SQL,
    );
}

/** Signs every waiting document of the stores `appIds` on a shard's `db`. */
export async function signStores(db: Db, appIds: number[], secret: string): Promise<number> {
  let total = 0;
  for (const unit of await waitingUnits(db, appIds)) total += await signUnit(db, unit.appId, unit.id, secret);
  return total;
}

/** The cron's sweep: what a lost wake-up (or a failed one) left unsigned, on every shard. */
export async function signWaitingEverywhere(env: Env): Promise<void> {
  for (const { name, d1 } of everyShardBinding(env)) {
    const db = createDb(d1);
    try {
      const units = await waitingUnits(db);
      for (const unit of units) await signUnit(db, unit.appId, unit.id, env.EINVOICE_KEY_SECRET);
    } catch (error) {
      logTaskFailure("sign e-invoices", error, { shard: name });
    }
  }
}
