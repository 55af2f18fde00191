import { sql } from "drizzle-orm";
import type { AuditSubject } from "../../../core/audit";
import { bankAccounts } from "../tables";

/**
 * A bank account as the audit trail shows it: the IBAN by its last four characters only (enough
 * for the owner to tell accounts apart; the whole IBAN stays in the accounts table, which
 * payments need, and is never copied into a log).
 */
export const BANK_ACCOUNT_AUDIT: AuditSubject = {
  resourceType: "bank_account",
  table: bankAccounts,
  snapshot: sql`json_object(
    'bank_name_en', bank_name_en,
    'bank_name_ar', bank_name_ar,
    'iban_last4', substr(iban, -4),
    'account_holder', account_holder,
    'is_default', json(CASE WHEN is_default THEN 'true' ELSE 'false' END),
    'status', status,
    'created_at', created_at)`,
};
