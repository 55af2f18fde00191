import { z } from "@hono/zod-openapi";
import { ById, defineEvents } from "../../../core/events/registry";
import { EINVOICE_UNIT_STATUSES } from "../einvoices/tables";

/** A unit in an event: enough to know what changed without reading it (never its key or secrets). */
export const UnitRef = ById.extend({
  name: z.string(),
  status: z.enum(EINVOICE_UNIT_STATUSES),
  production_not_after: z.string().nullable().openapi({ description: "When the production CSID expires." }),
  messages: z
    .array(z.object({ code: z.string(), category: z.string(), message: z.string() }))
    .openapi({ description: "ZATCA's messages of the last onboarding or renewal that did not succeed." }),
});

/** The events of a store's ZATCA e-invoicing units (docs/zatca.md, "Keys, onboarding and renewal"). */
export const einvoiceUnitEvents = defineEvents({
  "einvoice_unit.created": {
    description: "A store registered an e-invoicing unit with ZATCA: it is `onboarding` until its production CSID.",
    data: UnitRef,
  },
  "einvoice_unit.activated": {
    description: "A unit passed ZATCA's compliance checks and got its production CSID: its invoices are signed now.",
    data: UnitRef,
  },
  "einvoice_unit.onboarding_failed": {
    description: "A unit's onboarding ended without a production CSID (`failed`, ZATCA's `messages`): register again.",
    data: UnitRef,
  },
  "einvoice_unit.renewing": {
    description: "A unit's production CSID is being renewed with a new OTP; it goes on issuing meanwhile.",
    data: UnitRef,
  },
  "einvoice_unit.renewed": {
    description: "A unit's production CSID was renewed (a new key and certificate); its chain goes on.",
    data: UnitRef,
  },
  "einvoice_unit.renewal_failed": {
    description: "A unit's renewal was refused (ZATCA's `messages`): it is `active` on its old CSID; renew again.",
    data: UnitRef,
  },
  "einvoice_unit.expiring": {
    description: "A unit's production CSID expires within 30 days (`production_not_after`): renew it with a new OTP.",
    data: UnitRef,
  },
});
