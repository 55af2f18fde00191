import { sql } from "drizzle-orm";
import { eventPayloadSql, rowEvent } from "../../../core/events/outbox";
import type { EventType } from "../../../core/events/registry";
import { einvoiceUnits } from "./tables";

/**
 * What the API's routes and the onboarding consumer share about a unit: its event payload (the
 * `UnitRef` of einvoice-units/events.ts, built in SQL so that the batch that changes the unit writes
 * it) and the wake-up of its onboarding or renewal. No zod here: the consumer Worker imports it.
 */

/** `UnitRef` over an `einvoice_units` row. */
export const UNIT_REF = sql`json_object('id', id, 'name', name, 'status', status,
  'production_not_after', production_not_after, 'messages', json(messages))`;

/** The event of the unit `unitId` (SQL or a number) as the batch leaves it. */
export const unitEvent = (type: EventType, unitId: unknown) =>
  rowEvent(type, einvoiceUnits, sql`id = ${unitId}`, UNIT_REF);

/** `einvoice.onboard {unit_id}`: wakes the consumer that onboards (or renews) the unit, after the commit. */
export const onboardWakeUp = (unitId: unknown) => sql`SELECT * FROM (WITH r AS MATERIALIZED (
    SELECT 'evt_' || lower(hex(randomblob(16))) AS eid, app_id, id FROM einvoice_units WHERE id = ${unitId})
  SELECT eid AS id, app_id, 'einvoice.onboard' AS type,
    ${eventPayloadSql("einvoice.onboard", sql`eid`, sql`app_id`, sql`json_object('unit_id', id)`)} AS payload FROM r)`;

/** The wake-up's body on the queue (an outbox message). */
export type OnboardMessage = { type: "einvoice.onboard"; app_id: number; data: { unit_id: number } };

/** The CSR's `title` from the invoice types, and back: "1100" standard and simplified, "0100" simplified only. */
export const INVOICE_TYPES = ["standard", "simplified"] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export const titleOf = (types: readonly InvoiceType[]) =>
  `${types.includes("standard") ? 1 : 0}${types.includes("simplified") ? 1 : 0}00`;
export const typesOf = (title: string): InvoiceType[] => INVOICE_TYPES.filter((_, i) => title[i] === "1");
