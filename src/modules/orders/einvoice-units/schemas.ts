import { z } from "@hono/zod-openapi";
import { humanText } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { INVOICE_TYPES } from "../einvoices/units";
import { UnitRef } from "./events";

const dateTime = z.string().openapi({ format: "date-time" });
const otp = z
  .string()
  .regex(/^\d{6}$/, "Must be the six digits the Fatoora portal gave (valid for one hour, once).")
  .openapi({
    description: "The OTP from ZATCA's Fatoora portal (onboarding an EGS unit): six digits, one use, one hour.",
  });
/** A CSR field: what ZATCA's CA copies into the certificate, so no padding and at most 128 characters. */
const csrText = (description: string) => humanText(128).min(1, "Required; must not be empty.").openapi({ description });

export const EInvoicingUnitSchema = UnitRef.extend({
  branch: z.string().openapi({ description: "The CSR's OU: the branch (a VAT group member's 10-digit TIN)." }),
  registered_address: z.string().openapi({ description: "The CSR's registeredAddress: the branch's address." }),
  industry: z.string().openapi({ description: "The CSR's businessCategory." }),
  invoice_types: z.array(z.enum(INVOICE_TYPES)).openapi({ description: "What the unit issues (the CSR's title)." }),
  egs_serial: z.string().openapi({ description: "The unit's serial in its certificate (SN's `3-<uuid>`)." }),
  last_icv: z.number().int().openapi({ description: "The last invoice counter value issued." }),
  signed_icv: z.number().int().openapi({ description: "The last counter value signed (the chain's head)." }),
  created_at: dateTime,
  modified_at: dateTime,
}).openapi("EInvoicingUnit", {
  description:
    "A ZATCA e-invoicing unit (EGS) of the store: `onboarding` → `active` (or `failed`), `renewing` → `active`. " +
    "Its private key and CSID secrets never leave the server.",
});

export const EInvoicingUnitListSchema = envelopeSchema(EInvoicingUnitSchema, "EInvoicingUnitList");

export const RegisterUnitSchema = z
  .object({
    otp,
    name: csrText("The CSR's CN: the unit's name, unique to the store (e.g. `POS-1`, `Web shop`)."),
    branch: csrText("The CSR's OU: the branch's name; for a VAT group member, its 10-digit TIN."),
    industry: csrText("The CSR's businessCategory: the store's industry (e.g. `Food and drink`)."),
    registered_address: csrText(
      "The CSR's registeredAddress: the branch's address. Defaults to the store's `seller_address`.",
    ).optional(),
    invoice_types: z
      .array(z.enum(INVOICE_TYPES))
      .min(1, "Name at least one of standard, simplified.")
      .refine((t) => new Set(t).size === t.length, "Must not repeat a type.")
      .default(["simplified"])
      .openapi({ description: "What the unit issues: `simplified` (B2C, reported), `standard` (B2B, cleared)." }),
  })
  .strict()
  .openapi("RegisterEInvoicingUnit");
export type RegisterUnit = z.infer<typeof RegisterUnitSchema>;

export const RenewUnitSchema = z.object({ otp }).strict().openapi("RenewEInvoicingUnit");
export type RenewUnit = z.infer<typeof RenewUnitSchema>;
