import { z } from "@hono/zod-openapi";
import { DATE_WORDS, orNull } from "../../core/fields";
import { envelopeSchema } from "../../core/listing";
import { isIsoDate, normaliseTime } from "../../core/time";
import { ItemSchema } from "../items";
import { TICKET_STATUSES } from "./tables";

export const TicketSchema = z
  .object({
    id: z.number().int(),
    created_at: z.string().openapi({ format: "date-time" }),
    invoice_item_id: z.number().int(),
    item: ItemSchema,
    name_en: z.string(),
    name_ar: z.string(),
    status: z.enum(TICKET_STATUSES),
    total_amount: z.number().openapi({ description: "In major units." }),
    date: z.string().openapi({ format: "date" }),
    time: z.string().nullable().openapi({ description: "HH:MM:SS, or null for an all-day ticket." }),
    customer_name: z.string().nullable(),
    customer_email: z.string().nullable(),
    customer_phone: z.string().nullable(),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Ticket");

export type Ticket = z.infer<typeof TicketSchema>;

export const TicketListSchema = envelopeSchema(TicketSchema, "TicketList");

export const BULK_UPDATE_MAX = 100;

const dateField = z.string().refine(isIsoDate, DATE_WORDS).openapi({ format: "date", example: "2026-12-01" });
const timeField = z
  .string()
  .transform((s, ctx) => {
    const t = normaliseTime(s);
    if (t) return t;
    ctx.addIssue({ code: "custom", message: "Must be a time, HH:MM:SS." });
    return z.NEVER;
  })
  .openapi({ type: "string", example: "18:30:00" });

export const BulkUpdateTicketsSchema = z
  .object({
    ids: z
      .array(z.number().int().positive())
      .min(1)
      .max(BULK_UPDATE_MAX)
      .refine((ids) => new Set(ids).size === ids.length, "Ids must not repeat.")
      .openapi({ description: `The tickets to change: 1 to ${BULK_UPDATE_MAX} ids.`, uniqueItems: true }),
    status: z.enum(TICKET_STATUSES).exclude(["checked_in"]).optional().openapi({
      description: "New status. `checked_in` is reached only through check-in, with the ticket's token.",
    }),
    date: dateField.optional(),
    time: orNull(timeField, "string").optional(),
  })
  .strict()
  .refine((b) => b.status !== undefined || b.date !== undefined || b.time !== undefined, {
    message: "Give at least one of status, date, time.",
    path: ["body"],
  })
  .openapi("BulkUpdateTickets");

export const BulkUpdateTicketsResultSchema = z
  .object({ count: z.number().int(), results: z.array(TicketSchema) })
  .openapi("BulkUpdateTicketsResult");

export const CheckInSchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(200)
      .openapi({ description: "The token printed in the ticket's QR code.", example: "tkt_Q2hlY2staW4gdG9rZW4" }),
    validate_only: z.boolean().default(false).openapi({
      description: "When true, only checks that the ticket would be admitted; nothing changes.",
    }),
  })
  .strict()
  .openapi("CheckInTicket");

export const CheckInResultSchema = z
  .object({
    checked_in: z.boolean().openapi({ description: "False when `validate_only` was sent." }),
    checked_in_at: z.string().nullable().openapi({ format: "date-time" }),
    ticket: TicketSchema,
  })
  .openapi("CheckInResult");
