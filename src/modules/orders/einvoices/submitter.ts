import { and, asc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/sqlite-core";
import { type EventMessage, type EventSink, emit, newEvent } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { logTaskFailure } from "../../../core/logging";
import type { Db } from "../../../db/client";
import type { ZatcaMessage as ApiMessage, Credentials, EInvoicingApi } from "../invoices/e-invoice/api";
import { openKey } from "../invoices/e-invoice/keys";
import { invoices } from "../tables";
import { einvoices, einvoiceUnits, ISSUING_UNIT_STATUSES, type ZatcaMessage } from "./tables";

/**
 * Reporting and clearance (docs/zatca.md), in the webhooks' Worker after the signer: a unit's signed
 * documents go to ZATCA in counter order (ZATCA checks each one's PIH against the previous document
 * it received, so a document waiting for a retry holds the unit's later ones). Simplified documents
 * are reported, standard ones cleared (reported when ZATCA switched clearance off). Each submission
 * is claimed first (compare-and-set on `attempts`), so a redelivered message or a second consumer
 * never sends a document twice; each answer is recorded with its event in ONE guarded batch.
 */

/** Documents read per round. */
const CHUNK = 25;
/** Minutes before the 1st, 2nd, 3rd and 4th retry; hourly after. */
const BACKOFF_MINUTES = [1, 5, 15, 60];
/** A claimed submission's lease: another consumer may take the document after it (ZATCA answers in 15 s or times out). */
const LEASE_S = 120;
/** The longest a queue message may be delayed. */
const MAX_DELAY_S = 12 * 3600;

/** The public system's words for a return invoice whose original was not accepted (design reference, 5.2). */
export const PARENT_NOT_PUBLISHED = "Parent invoice must be successfully published before creating a return invoice";

/** Seconds before a document's next attempt: the backoff after `attempts` sends, or ZATCA's Retry-After when longer. */
export function retryDelaySeconds(attempts: number, retryAfterSeconds: number | null): number {
  const backoff = (BACKOFF_MINUTES[attempts - 1] ?? 60) * 60;
  return Math.min(Math.max(backoff, retryAfterSeconds ?? 0), MAX_DELAY_S);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A standard (B2B) document: KSA-2's transaction code starts 01 (simplified ones 02). */
const isStandard = (xml: string) => /<cbc:InvoiceTypeCode name="01/.test(xml);

/** The QR of a document (ZATCA's own, in a cleared one). */
function qrOf(xml: string): string | null {
  const m = /<cbc:ID>QR<\/cbc:ID>\s*<cac:Attachment>\s*<cbc:EmbeddedDocumentBinaryObject[^>]*>([^<]+)</.exec(xml);
  return m ? m[1]!.trim() : null;
}

const asMessages = (type: ZatcaMessage["type"], list: ApiMessage[]): ZatcaMessage[] =>
  list.map((m) => ({ type, code: m.code, ...(m.category && { category: m.category }), message: m.message }));

/** A refund invoice's original, beside it. */
const original = alias(invoices, "original");

/** What a submission reads of a unit and its next documents: ONE batch of reads. */
async function readRound(db: Db, unitId: number) {
  const [units, docs] = await db.batch([
    db.select().from(einvoiceUnits).where(eq(einvoiceUnits.id, unitId)),
    db
      .select({
        id: einvoices.id,
        appId: einvoices.appId,
        invoiceId: einvoices.invoiceId,
        uuid: einvoices.uuid,
        invoiceHash: einvoices.invoiceHash,
        xml: einvoices.xml,
        attempts: einvoices.attempts,
        nextAttemptAt: einvoices.nextAttemptAt,
        orderId: invoices.orderId,
        serial: invoices.serial,
        refundedInvoiceId: invoices.refundedInvoiceId,
        originalStatus: original.zatcaStatus,
      })
      .from(einvoices)
      .innerJoin(invoices, eq(invoices.id, einvoices.invoiceId))
      .leftJoin(original, eq(original.id, invoices.refundedInvoiceId))
      .where(
        and(
          eq(einvoices.unitId, unitId),
          isNull(einvoices.submittedAt),
          isNotNull(einvoices.xml),
          eq(invoices.zatcaStatus, "pending"),
        ),
      )
      .orderBy(asc(einvoices.icv))
      .limit(CHUNK),
  ]);
  return { unit: units[0], docs: docs as Due[] };
}

/** A signed document waiting for its answer. */
type Due = {
  id: number;
  appId: number;
  invoiceId: number;
  uuid: string;
  invoiceHash: string;
  xml: string;
  attempts: number;
  nextAttemptAt: string | null;
  orderId: number;
  serial: string | null;
  refundedInvoiceId: number | null;
  originalStatus: string | null;
};

type Unit = typeof einvoiceUnits.$inferSelect;

/** The unit's production CSID: its certificate and its secret, sealed as its key is (`<app_id>:<unit_id>`). */
async function credentialsOf(unit: Unit, secret: string): Promise<Credentials | null> {
  if (!unit.productionCertificate || !unit.productionSecretSealed) return null;
  const opened = await openKey(secret, `${unit.appId}:${unit.id}`, unit.productionSecretSealed);
  return { binarySecurityToken: btoa(unit.productionCertificate), secret: new TextDecoder().decode(opened) };
}

/** The answer's batch applies only while the document is as its claim left it (no one recorded it meanwhile). */
const unanswered = (db: Db, doc: Due, attempts: number) =>
  abortUnless(
    db,
    sql`EXISTS (SELECT 1 FROM einvoices WHERE id = ${doc.id} AND attempts = ${attempts} AND submitted_at IS NULL)`,
    "einvoice-answer",
  );

/** Takes the document for one submission; false when another consumer has it (or recorded it). */
async function claim(db: Db, doc: Due, now: number): Promise<boolean> {
  const rows = await db
    .update(einvoices)
    .set({ attempts: doc.attempts + 1, nextAttemptAt: iso(now + LEASE_S * 1000) })
    .where(
      and(
        eq(einvoices.id, doc.id),
        eq(einvoices.attempts, doc.attempts),
        isNull(einvoices.submittedAt),
        sql`(${einvoices.nextAttemptAt} IS NULL OR ${einvoices.nextAttemptAt} <= ${iso(now)})`,
      ),
    )
    .returning({ id: einvoices.id });
  return rows.length === 1;
}

type Final = { status: "reported" | "cleared" | "rejected"; messages: ZatcaMessage[]; cleared?: string };

/** A final answer with its event, in ONE batch guarded on the claim; false when someone recorded it first. */
async function recordFinal(db: Db, sink: EventSink, doc: Due, attempts: number, f: Final, at: string) {
  const data = { id: doc.invoiceId, order_id: doc.orderId, serial: doc.serial };
  const event: EventMessage =
    f.status === "rejected"
      ? newEvent(doc.appId, "invoice.zatca_rejected", {
          ...data,
          zatca_status: "rejected",
          errors: f.messages.filter((m) => m.type === "error"),
        })
      : newEvent(doc.appId, "invoice.zatca_reported", {
          ...data,
          zatca_status: f.status,
          warnings: f.messages.filter((m) => m.type === "warning"),
        });
  const changes: BatchItem<"sqlite">[] = [
    unanswered(db, doc, attempts),
    db
      .update(einvoices)
      .set({
        zatcaMessages: f.messages,
        submittedAt: at,
        nextAttemptAt: null,
        // A cleared document is the one ZATCA returned, with its stamp and QR.
        ...(f.cleared !== undefined && { xml: f.cleared, qr: qrOf(f.cleared) ?? sql`${einvoices.qr}` }),
      })
      .where(eq(einvoices.id, doc.id)),
    db
      .update(invoices)
      .set({ zatcaStatus: f.status, modifiedAt: at })
      .where(and(eq(invoices.id, doc.invoiceId), eq(invoices.zatcaStatus, "pending"))),
  ];
  return guarded(() => emit(db, sink, changes, [event]));
}

async function guarded(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (isGuardAbort(error)) return false;
    throw error;
  }
}

/** What a unit's round ended on: nothing left, a wait (seconds, for the queue's delay), or a stop. */
export type Submitted = { submitted: number; retryInSeconds: number | null };

/**
 * Submits a unit's signed documents in counter order until none is due; answers how many got a
 * final answer, and in how many seconds the unit's next document is due when one waits for a retry.
 */
export async function submitUnit(
  db: Db,
  sink: EventSink,
  api: EInvoicingApi,
  unitId: number,
  secret: string,
  clock: () => number = Date.now,
): Promise<Submitted> {
  let submitted = 0;
  for (;;) {
    const { unit, docs } = await readRound(db, unitId);
    const stop = (retryInSeconds: number | null = null) => ({ submitted, retryInSeconds });
    if (!unit || unit.credentialsRefusedAt || !(ISSUING_UNIT_STATUSES as readonly string[]).includes(unit.status))
      return stop();
    const credentials = await credentialsOf(unit, secret);
    if (!credentials) return stop();
    // The answers this round recorded: a credit note's original is often the document before it.
    const answered = new Map<number, Final["status"]>();
    for (const doc of docs) {
      const now = clock();
      const at = iso(now);
      if (doc.nextAttemptAt && doc.nextAttemptAt > at)
        return stop(Math.ceil((Date.parse(doc.nextAttemptAt) - now) / 1000));
      const originalStatus =
        doc.refundedInvoiceId === null ? null : (answered.get(doc.refundedInvoiceId) ?? doc.originalStatus);
      if (originalStatus === "pending") return stop(); // waits for its original
      if (originalStatus === "rejected") {
        const messages: ZatcaMessage[] = [
          { type: "error", code: "parent-invoice-not-published", message: PARENT_NOT_PUBLISHED },
        ];
        if (!(await recordFinal(db, sink, doc, doc.attempts, { status: "rejected", messages }, at))) return stop();
        answered.set(doc.invoiceId, "rejected");
        submitted++;
        continue;
      }
      if (!(await claim(db, doc, now))) return stop(); // another consumer is on this unit
      const attempts = doc.attempts + 1;
      const sent = { invoiceHash: doc.invoiceHash, uuid: doc.uuid, xml: doc.xml };
      let answer = isStandard(doc.xml) ? await api.clear(credentials, sent) : await api.report(credentials, sent);
      if (answer.kind === "clearance_off") answer = await api.report(credentials, sent);
      let final: Final | null = null;
      switch (answer.kind) {
        case "reported":
        case "cleared":
          final = {
            status: answer.kind,
            messages: [...asMessages("info", answer.info), ...asMessages("warning", answer.warnings)],
            ...(answer.kind === "cleared" && { cleared: answer.clearedInvoice }),
          };
          break;
        case "already_submitted":
          // ZATCA accepted this hash before (409 reported, 208 cleared): an earlier send whose answer was lost.
          final = { status: answer.status === 208 ? "cleared" : "reported", messages: [] };
          break;
        case "rejected":
          final = {
            status: "rejected",
            messages: [...asMessages("error", answer.errors), ...asMessages("warning", answer.warnings)],
          };
          break;
        case "retryable": {
          const delay = retryDelaySeconds(attempts, answer.retryAfterSeconds);
          logTaskFailure("submit e-invoices", new Error(answer.reason), { app_id: doc.appId });
          await guarded(() =>
            db.batch([
              unanswered(db, doc, attempts),
              db
                .update(einvoices)
                .set({ nextAttemptAt: iso(now + delay * 1000) })
                .where(eq(einvoices.id, doc.id)),
            ]),
          );
          return stop(delay);
        }
        case "credentials_refused":
          await refuseCredentials(db, sink, unit, doc, attempts, answer.message, at);
          return stop();
      }
      // Not recorded: another consumer got there first, and goes on with the unit.
      if (!(await recordFinal(db, sink, doc, attempts, final, at))) return stop();
      answered.set(doc.invoiceId, final.status);
      submitted++;
    }
    if (docs.length < CHUNK) return stop();
  }
}

/** 401: the unit's submissions stop, once, with the event that tells the merchant; the document waits. */
async function refuseCredentials(
  db: Db,
  sink: EventSink,
  unit: Unit,
  doc: Due,
  attempts: number,
  message: string,
  at: string,
) {
  const first = and(eq(einvoiceUnits.id, unit.id), isNull(einvoiceUnits.credentialsRefusedAt)) as SQL;
  const reason = message || "ZATCA refused the production CSID (401).";
  await guarded(() =>
    emit(
      db,
      sink,
      [
        unanswered(db, doc, attempts),
        db.update(einvoices).set({ nextAttemptAt: null }).where(eq(einvoices.id, doc.id)),
        db.update(einvoiceUnits).set({ credentialsRefusedAt: at, modifiedAt: at }).where(first),
      ],
      [newEvent(unit.appId, "einvoice_unit.credentials_refused", { id: unit.id, message: reason })],
      { guard: sql`EXISTS (SELECT 1 FROM einvoice_units WHERE ${first})` },
    ),
  );
}

/** A shard's units with a document due for submission (`appIds`: of those stores only). */
async function dueUnits(db: Db, at: string, appIds?: number[]) {
  const stores = appIds ? sql`AND e.app_id IN (SELECT value FROM json_each(${JSON.stringify(appIds)}))` : sql``;
  return db.all<{ unitId: number }>(sql`SELECT DISTINCT e.unit_id AS unitId FROM einvoices e
    WHERE e.submitted_at IS NULL AND e.xml IS NOT NULL AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= ${at})
    ${stores}`);
}

/**
 * Submits what is due of the stores `appIds` (every store without), on a shard's `db`; answers the
 * soonest retry among them, in seconds (null when none waits).
 */
export async function submitStores(
  db: Db,
  sink: EventSink,
  api: EInvoicingApi,
  secret: string,
  appIds?: number[],
  clock: () => number = Date.now,
): Promise<Submitted> {
  const total: Submitted = { submitted: 0, retryInSeconds: null };
  for (const { unitId } of await dueUnits(db, iso(clock()), appIds)) {
    const r = await submitUnit(db, sink, api, unitId, secret, clock);
    total.submitted += r.submitted;
    if (r.retryInSeconds !== null)
      total.retryInSeconds = Math.min(total.retryInSeconds ?? r.retryInSeconds, r.retryInSeconds);
  }
  return total;
}
