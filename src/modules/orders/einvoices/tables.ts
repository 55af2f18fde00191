import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { invoices } from "../tables";

/*
 * ZATCA Phase 2's chain (docs/zatca.md, "The chain"): each e-invoicing unit (EGS) of a store keeps
 * one unbroken chain of documents, ICV 1, 2, 3 … each carrying the previous document's hash. The
 * counter is taken in the invoice's own batch (`last_icv`); the signer moves the head (`signed_icv`,
 * `last_hash`) one document at a time, compare-and-set.
 */

/** `failed`: onboarding ended without a production CSID (ZATCA's messages kept); register again with a new OTP. */
export const EINVOICE_UNIT_STATUSES = ["onboarding", "active", "renewing", "revoked", "failed"] as const;
export type EInvoiceUnitStatus = (typeof EINVOICE_UNIT_STATUSES)[number];

/** The statuses in which a unit issues documents: a renewing unit goes on with its chain. */
export const ISSUING_UNIT_STATUSES = ["active", "renewing"] as const;

/** The chain's first PIH (hash.ts's FIRST_PIH, repeated so that the API's bundle holds no e-invoice code). */
export const CHAIN_START_HASH =
  "NWZlY2ViNjZmZmM4NmYzOGQ5NTI3ODZjNmQ2OTZjNzljMmRiYzIzOWRkNGU5MWI0NjcyOWQ3M2EyN2ZiNTdlOQ==";

/** A message of ZATCA's onboarding answers (or of ours, code `local-*`), as the unit shows it. */
export type UnitMessage = { code: string; category: string; message: string };

export const einvoiceUnits = sqliteTable(
  "einvoice_units",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    /** The CSR's `3-<uuid>` (the unit's serial in its certificate's subjectAltName). */
    egsSerial: text("egs_serial").notNull(),
    status: text("status", { enum: EINVOICE_UNIT_STATUSES }).notNull().default("onboarding"),
    /** The CSR's own fields (docs/zatca.md, "Keys"): CN, OU, registeredAddress, businessCategory, title. */
    name: text("name").notNull().default(""),
    branch: text("branch").notNull().default(""),
    registeredAddress: text("registered_address").notNull().default(""),
    industry: text("industry").notNull().default(""),
    /** The CSR's title: standard (first digit) and simplified (second) documents, e.g. "0100". */
    invoiceTypes: text("invoice_types").notNull().default("0100"),
    /** The merchant's Fatoora OTP (one hour, one use), sealed, until the consumer takes it. */
    otpSealed: text("otp_sealed"),
    /** ZATCA's (or our) messages of the last onboarding or renewal that did not succeed. */
    messages: text("messages", { mode: "json" }).$type<UnitMessage[]>().notNull().default([]),
    /** When the merchant was told the production CSID expires within 30 days (once per certificate). */
    renewalWarnedAt: text("renewal_warned_at"),
    /** The unit's secp256k1 secret, sealed (keys.ts: AES-GCM under the Worker secret, `<app_id>:<unit_id>`). */
    privateKeySealed: text("private_key_sealed"),
    /** The compliance CSID: its certificate (base64 DER), its secret (sealed), its expiry. */
    complianceCertificate: text("compliance_certificate"),
    complianceSecretSealed: text("compliance_secret_sealed"),
    complianceRequestId: text("compliance_request_id"),
    /** The production CSID, which stamps the documents once the unit is active. */
    productionCertificate: text("production_certificate"),
    productionSecretSealed: text("production_secret_sealed"),
    productionNotAfter: text("production_not_after"),
    /** The last ICV issued (taken in an invoice's batch). */
    lastIcv: integer("last_icv").notNull().default(0),
    /** The chain's head: the last signed ICV and its document's hash (the next PIH). */
    signedIcv: integer("signed_icv").notNull().default(0),
    lastHash: text("last_hash").notNull().default(CHAIN_START_HASH),
    /**
     * When ZATCA refused the production CSID (401): the unit's submissions stop until its CSID is
     * replaced (renewal clears it); its documents are still signed and wait, pending.
     */
    credentialsRefusedAt: text("credentials_refused_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    modifiedAt: text("modified_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [index("einvoice_units_app_idx").on(t.appId, t.status, t.id)],
);

/** What ZATCA said of a document: its info, warnings and errors, as its API gives them. */
export type ZatcaMessage = { type: "info" | "warning" | "error"; code: string; category?: string; message: string };

export const einvoices = sqliteTable(
  "einvoices",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    unitId: integer("unit_id")
      .notNull()
      .references(() => einvoiceUnits.id),
    icv: integer("icv").notNull(),
    /** KSA-1: the UUID that names the document to ZATCA, fixed when the row is made. */
    uuid: text("uuid").notNull(),
    /** Set when signed: the previous document's hash, this one's, the signed XML and its Phase 2 QR. */
    pih: text("pih"),
    invoiceHash: text("invoice_hash"),
    xml: text("xml"),
    qr: text("qr"),
    signedAt: text("signed_at"),
    /** ZATCA's answers; the status is the invoice's `zatca_status` (one place, `not_required` included). */
    zatcaMessages: text("zatca_messages", { mode: "json" }).$type<ZatcaMessage[]>().notNull().default([]),
    attempts: integer("attempts").notNull().default(0),
    /** Not before then: a retry's backoff, or the lease of a submission in flight. */
    nextAttemptAt: text("next_attempt_at"),
    /** When its final answer was recorded (ZATCA's, or the rejection of a credit note whose original was rejected). */
    submittedAt: text("submitted_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    uniqueIndex("einvoices_invoice_idx").on(t.invoiceId),
    uniqueIndex("einvoices_unit_icv_idx").on(t.unitId, t.icv),
    index("einvoices_app_idx").on(t.appId, t.id),
    // The submitter's queue: a unit's documents without a final answer, in counter order.
    index("einvoices_unsubmitted_idx").on(t.unitId, t.icv).where(sql`submitted_at IS NULL`),
  ],
);
