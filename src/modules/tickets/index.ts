/** What other modules may use of the tickets module. */
export { ticketErrorCodes } from "./errors";
export { ticketEvents } from "./events";
export { ticketFulfillmentRowsSql } from "./fulfillment-rows";
export { createTickets, type NewTicket } from "./service";
