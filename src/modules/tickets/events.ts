import { z } from "@hono/zod-openapi";
import { defineEvents, type RegisteredEvents } from "../../core/events/registry";
import { TICKET_STATUSES } from "./tables";

/** The events the tickets module emits, with the schema of their `data`. */
const TicketStatus = z.enum(TICKET_STATUSES);

export const ticketEvents = defineEvents({
  "ticket.created": {
    description: "A ticket was issued (status `pending`).",
    data: z.object({
      id: z.number().int(),
      status: TicketStatus,
      item: z.number().int(),
      date: z.string(),
      time: z.string().nullable(),
    }),
  },
  "ticket.updated": {
    description: "A ticket's status, date or time changed (Bulk Update Tickets).",
    data: z.object({
      id: z.number().int(),
      previous_status: TicketStatus,
      changes: z.object({
        status: TicketStatus.optional(),
        date: z.string().optional(),
        time: z.string().nullable().optional(),
      }),
    }),
  },
  "ticket.checked_in": {
    description: "A ticket's token was validated and the ticket checked in.",
    data: z.object({ id: z.number().int(), checked_in_at: z.string(), previous_status: TicketStatus }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof ticketEvents> {}
}
