import { serviceContext } from "../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../core/listing";
import { createRouter, jsonBody, jsonContent } from "../../core/openapi";
import { merchantRoute } from "../../core/routes";
import {
  BulkUpdateTicketsResultSchema,
  BulkUpdateTicketsSchema,
  CheckInResultSchema,
  CheckInSchema,
  TicketListSchema,
} from "./schemas";
import { bulkUpdateTickets, checkInTicket, listTickets, TICKET_LIST } from "./service";

const tags = ["Tickets"];

export const listTicketsRoute = merchantRoute({
  method: "get",
  path: "/merchant/fulfillments/tickets/",
  operationId: "listTickets",
  summary: "List Tickets",
  tags,
  specId: "T1",
  permission: "can_read_order",
  description:
    "Tickets of the store, newest first. Filter on any ticket field by name " +
    "(`status=pending`, `date__gte=2026-12-01`, `item=12`, `customer_email=…`), search with " +
    "`search`, order with `order_by`.",
  request: { query: listQuerySchema(TICKET_LIST) },
  responses: { 200: jsonContent(TicketListSchema, "A page of tickets.") },
});

export const bulkUpdateTicketsRoute = merchantRoute({
  method: "post",
  path: "/merchant/fulfillments/tickets/bulk-update/",
  operationId: "bulkUpdateTickets",
  summary: "Bulk Update Tickets",
  tags,
  specId: "T2",
  errors: { 404: ["tickets_not_found"], 409: ["invalid_transition", "concurrent_update"] },
  permission: "can_write_order",
  description:
    "Changes the status, date or time of up to 100 tickets at once, all or nothing: when any " +
    "id is unknown (404) or cannot take the change (409), nothing is written and `errors` " +
    "names each such id.",
  request: { body: jsonBody(BulkUpdateTicketsSchema) },
  responses: {
    200: jsonContent(BulkUpdateTicketsResultSchema, "The updated tickets."),
  },
});

export const checkInTicketRoute = merchantRoute({
  method: "post",
  path: "/merchant/fulfillments/tickets/check-in/",
  operationId: "checkInTicket",
  summary: "Validate Token and Check in Ticket",
  tags,
  specId: "T3",
  errors: { 404: ["ticket_not_found"], 409: ["ticket_already_checked_in", "ticket_cancelled"] },
  permission: "can_write_order",
  description:
    "Finds the ticket by the token printed in its QR code and checks it in once. " +
    "`validate_only: true` only tells whether it would be admitted. A used ticket gets 409 " +
    "`ticket_already_checked_in` (with `checked_in_at`), a cancelled one 409 " +
    "`ticket_cancelled`, an unknown token or another store's 404: a retry after a lost " +
    "response is told the ticket is already in.",
  request: { body: jsonBody(CheckInSchema) },
  responses: {
    200: jsonContent(CheckInResultSchema, "The ticket, checked in (or validated)."),
  },
});

export const ticketsMerchantRouter = createRouter()
  .openapi(listTicketsRoute, async (c) =>
    c.json(envelopeOf(c, await listTickets(serviceContext(c), listQueryOf(c, TICKET_LIST))), 200),
  )
  .openapi(bulkUpdateTicketsRoute, async (c) =>
    c.json(await bulkUpdateTickets(serviceContext(c), c.req.valid("json")), 200),
  )
  .openapi(checkInTicketRoute, async (c) => c.json(await checkInTicket(serviceContext(c), c.req.valid("json")), 200));
