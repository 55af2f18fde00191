import { z } from "@hono/zod-openapi";
import { humanText } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { CustomerSchema } from "../../customers";
import { ItemSchema } from "../../items";
import {
  INVOICE_STATUSES,
  INVOICE_TYPES,
  PAYMENT_PROVIDERS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  ZATCA_STATUSES,
} from "../tables";
import { PDF_LANGS } from "./links";

/** Money in JSON: major units (design reference 1.1). */
const amount = (description?: string) => z.number().openapi({ ...(description && { description }), example: 115 });
const dateTime = z.string().openapi({ format: "date-time" });
const customFields = z.record(z.string(), z.unknown()).nullable();
const pdfLink = (lang: string) =>
  z
    .string()
    .url()
    .openapi({
      description: `A signed link to the invoice as a PDF in ${lang}, valid for 7 days (a later read gives a fresh one).`,
    });

/** The invoice a refund invoice gives back, in short (FOUND fields). */
export const RefundedInvoiceSchema = z
  .object({
    id: z.number().int(),
    serial: z.string(),
    issued_at: dateTime.nullable(),
    total_amount: amount(),
    currency: z.string(),
    status: z.enum(INVOICE_STATUSES),
    invoice_pdf_en: pdfLink("English"),
    invoice_pdf_ar: pdfLink("Arabic"),
    invoice_pdf: pdfLink("English and Arabic side by side (the bilingual tax invoice Saudi merchants print)"),
    custom_fields: customFields,
  })
  .openapi("RefundedInvoice");

/** The Invoice object of design reference 5.2 (FOUND fields). */
export const InvoiceSchema = z
  .object({
    id: z.number().int(),
    custom_fields: customFields,
    order_id: z.number().int(),
    customer: z
      .union([CustomerSchema, z.null()])
      .openapi({ description: "Null for a store wallet top-up (no customer)." }),
    invoice_pdf_en: pdfLink("English"),
    invoice_pdf_ar: pdfLink("Arabic"),
    invoice_pdf: pdfLink("English and Arabic side by side (the bilingual tax invoice Saudi merchants print)"),
    serial: z.string().openapi({
      description: 'Assigned when the invoice is paid (or a refund issued); "-" before.',
      example: "INV-000042",
    }),
    refunded_invoice: z.union([RefundedInvoiceSchema, z.null()]).openapi({
      description: "On a refund invoice: the invoice it gives back.",
    }),
    app_id: z.number().int(),
    created_at: dateTime,
    invoice_reference_id: z.number().int().nullable().openapi({
      description: "On a refund invoice (a credit note): the id of the invoice it references; null otherwise.",
    }),
    invoice_reference_serial: z.string().nullable().openapi({ description: "That invoice's serial." }),
    type: z.enum(INVOICE_TYPES),
    status: z.enum(INVOICE_STATUSES),
    refund_reason: z.string().nullable(),
    issued_at: dateTime.nullable(),
    due_at: dateTime.nullable(),
    sub_total_amount: amount("The lines' amounts, VAT included, before discounts."),
    shipping_amount: amount(),
    setup_amount: amount(),
    net_amount: amount("sub_total_amount + shipping_amount + setup_amount."),
    sub_total_discounts_amount: amount(),
    shipping_discounts_amount: amount(),
    total_discounts_amount: amount("sub_total_discounts_amount + shipping_discounts_amount."),
    total_amount_excluding_tax: amount(),
    tax_percentage: z.number().openapi({ example: 15 }),
    tax_amount: amount(),
    total_amount: amount("VAT included, after discounts: total_amount_excluding_tax + tax_amount."),
    wallet_redeem_amount: amount(),
    total_amount_with_redeem: amount("What the customer pays: total_amount − wallet_redeem_amount."),
    currency: z.string().openapi({ example: "SAR" }),
    payment_method: z.string().nullable(),
    payment_provider: z.enum(PAYMENT_PROVIDERS).nullable(),
    is_auto_renewal: z.boolean(),
    invoice_provider: z
      .literal("internal")
      .openapi({ description: "Who issues the document: this API's own generator." }),
    zatca_status: z
      .enum(ZATCA_STATUSES)
      .nullable()
      .openapi({
        description:
          "The e-invoice's standing with ZATCA: `pending` (to be signed or submitted), `reported`, `cleared`, " +
          "`rejected` (see `einvoice.messages`), `not_required` (the store has no e-invoicing unit); null without a serial.",
      }),
    zatca_qr: z
      .string()
      .nullable()
      .openapi({
        description:
          "The tax invoice's QR code content (ZATCA TLV, base64). With an e-invoice (Phase 2): its QR (seller, VAT " +
          "number, time, total, VAT, the document's hash, signature and public key), null until it is signed. " +
          "Otherwise Phase 1's (seller, VAT number, time, total and VAT): null until the invoice has a serial, when " +
          "the store turned the QR off, or without a VAT number.",
      }),
    invoice_error: z.string().nullable().openapi({ description: "Always null: the document is generated here." }),
    modified_at: dateTime.openapi({
      description:
        "When the invoice last changed, its e-invoice's signature, ZATCA's answer and its lines' refunded " +
        "quantities included.",
    }),
  })
  .openapi("Invoice");

export type Invoice = z.infer<typeof InvoiceSchema>;

export const InvoiceItemSchema = z
  .object({
    id: z.number().int(),
    custom_fields: customFields,
    item: z.union([ItemSchema, z.null()]).openapi({ description: "The item as it is now; null for a top-up line." }),
    app_id: z.number().int(),
    created_at: dateTime,
    item_id: z.number().int().nullable(),
    name_en: z.string(),
    name_ar: z.string(),
    refund_reason: z.string().nullable(),
    refunded_qty: z.number().int().openapi({ description: "How many of `qty` refund invoices gave back." }),
    amount: amount("Unit price × qty, VAT included, before the voucher discount."),
    qty: z.number().int(),
    net_amount: amount("The line's amount before discounts (as the invoice's net_amount)."),
    voucher_discounts_amount: amount(),
    total_amount_excluding_tax: amount(),
    tax_percentage: z.number(),
    tax_amount: amount(),
    total_amount: amount("VAT included, after the voucher discount."),
    auto_renew: z.boolean(),
    date: z.string().nullable(),
    time: z.string().nullable(),
    order_item: z.number().int().nullable().openapi({ description: "The order line's id." }),
    parent_invoice_item: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "On a refund line: the original line's id." }),
  })
  .openapi("InvoiceItem");

export const InvoiceTransactionSchema = z
  .object({
    id: z.number().int(),
    custom_fields: customFields,
    invoice_id: z.number().int().nullable(),
    type: z.enum(TRANSACTION_TYPES),
    status: z.enum(TRANSACTION_STATUSES),
    amount: amount(),
    currency: z.string(),
    payment_provider: z.enum(PAYMENT_PROVIDERS),
    payment_method: z.string().nullable(),
    provider_reference: z.string().nullable(),
    provider_details: z.record(z.string(), z.unknown()).nullable(),
    created_at: dateTime,
  })
  .openapi("InvoiceTransaction");

/** The invoice's ZATCA e-invoice (docs/zatca.md): its place in the store's chain and what ZATCA said of it. */
export const InvoiceEInvoiceSchema = z
  .object({
    uuid: z.string().uuid().openapi({ description: "The document's UUID (KSA-1), fixed when the invoice is issued." }),
    icv: z.number().int().openapi({ description: "Its counter (KSA-16) in the store's e-invoicing unit's chain." }),
    invoice_hash: z
      .string()
      .nullable()
      .openapi({ description: "The signed document's hash (base64 SHA-256); null until signed." }),
    pih: z
      .string()
      .nullable()
      .openapi({ description: "The previous document's hash (KSA-13) it carries; null until signed." }),
    zatca_status: z.enum(ZATCA_STATUSES).openapi({ description: "As the invoice's `zatca_status`." }),
    messages: z
      .array(
        z.object({
          type: z.enum(["info", "warning", "error"]),
          code: z.string(),
          category: z.string().optional(),
          message: z.string(),
        }),
      )
      .openapi({ description: "ZATCA's info, warnings and errors about the document, as its API gave them." }),
  })
  .openapi("InvoiceEInvoice");

export type InvoiceEInvoice = z.infer<typeof InvoiceEInvoiceSchema>;

export const InvoiceDetailsSchema = InvoiceSchema.extend({
  items: z.array(InvoiceItemSchema),
  transactions: z.array(InvoiceTransactionSchema),
  einvoice: InvoiceEInvoiceSchema.nullable().openapi({
    description:
      "The ZATCA e-invoice (Phase 2): null when `zatca_status` is `not_required` (the store has no e-invoicing unit) " +
      "or the invoice has no serial yet. The signed XML is a download of its own.",
  }),
}).openapi("InvoiceDetails");

export type InvoiceDetails = z.infer<typeof InvoiceDetailsSchema>;
export type InvoiceItem = z.infer<typeof InvoiceItemSchema>;
export type InvoiceTransaction = z.infer<typeof InvoiceTransactionSchema>;

export const InvoiceListSchema = envelopeSchema(InvoiceSchema, "InvoiceList");

/** Invoice Config (MO6): one record per store, defaults until changed. */
export const InvoiceConfigSchema = z
  .object({
    serial_prefix: z
      .string()
      .regex(/^[A-Z0-9-]{1,10}$/, "1 to 10 characters: capital letters A–Z, digits and '-'.")
      .openapi({ description: "Starts every serial (then the store's running number).", example: "INV-" }),
    due_days: z
      .number()
      .int()
      .min(0)
      .max(365)
      .openapi({ description: "Days an unpaid invoice is due after it is issued." }),
    footer_en: z.string().max(500).nullable().openapi({ description: "Printed at the foot of the English PDF." }),
    footer_ar: z.string().max(500).nullable().openapi({ description: "Printed at the foot of the Arabic PDF." }),
    is_zatca_qr_enabled: z
      .boolean()
      .openapi({ description: "Whether invoices carry the ZATCA QR code (`zatca_qr`, and on the PDF)." }),
  })
  .openapi("InvoiceConfig");

export type InvoiceConfig = z.infer<typeof InvoiceConfigSchema>;

export const UpdateInvoiceConfigSchema = InvoiceConfigSchema.extend({
  footer_en: humanText(500, "lines").nullable(),
  footer_ar: humanText(500, "lines").nullable(),
})
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one setting to change.", path: ["body"] })
  .openapi("UpdateInvoiceConfig");

export type UpdateInvoiceConfig = z.infer<typeof UpdateInvoiceConfigSchema>;

export const PdfQuerySchema = z.object({
  lang: z.enum(PDF_LANGS).openapi({
    description: "`en`, `ar` (right to left), or `bilingual`: English and Arabic side by side on one page.",
  }),
  app_id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "Must be a positive integer.")
    .transform(Number)
    .refine(Number.isSafeInteger, "Must be a positive integer of at most 2^53 - 1.")
    .openapi({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "The store." }),
  expires: z
    .string()
    .regex(/^\d{1,12}$/, "Must be a Unix time in seconds.")
    .transform(Number)
    .openapi({ type: "integer", description: "When the link stops working (Unix seconds)." }),
  signature: z.string().min(1).max(100).openapi({ description: "The link's signature." }),
});
