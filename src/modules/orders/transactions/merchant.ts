import { invalidatesPublicCache } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { DeclineTransactionSchema, TransactionListSchema, TransactionSchema } from "./schemas";
import {
  captureTransaction,
  declineTransaction,
  listTransactions,
  TRANSACTION_LIST,
  transactionDetails,
} from "./service";

const tags = ["Transactions"];
const transactionId = idParam("transaction_id");
const REVIEW =
  "Only payments the merchant sees arrive are captured or declined by hand: `bank_transfer` (pending_review) " +
  "and `cash_on_delivery` (pending). A card payment moves by its gateway's callback; anything else is a 409 " +
  "`invalid_state_transition` naming the status and `allowed_actions`.";

export const listTransactionsRoute = merchantRoute({
  method: "get",
  path: "/merchant/transactions/",
  operationId: "listTransactions",
  summary: "List Transactions",
  tags,
  specId: "MO9",
  permission: "can_read_order",
  description:
    "Every payment, capture, decline and refund with its provider and the provider's reference; filters on " +
    "type, status, provider, order, invoice, amount and dates.",
  request: { query: listQuerySchema(TRANSACTION_LIST) },
  responses: { 200: jsonContent(TransactionListSchema, "A page of transactions.") },
});

export const getTransactionRoute = merchantRoute({
  method: "get",
  path: "/merchant/transactions/{transaction_id}/",
  operationId: "getTransaction",
  summary: "Transaction Details",
  tags,
  specId: "MO9",
  permission: "can_read_order",
  description: "One transaction with the provider's details and what can be done with it (`allowed_actions`).",
  request: { params: transactionId },
  errors: { 404: ["transaction_not_found"] },
  responses: { 200: jsonContent(TransactionSchema, "The transaction.") },
});

export const captureTransactionRoute = merchantRoute({
  method: "post",
  path: "/merchant/transactions/{transaction_id}/capture/",
  operationId: "captureBankTransfer",
  summary: "Capture Bank Transfer",
  tags,
  specId: "MO10",
  permission: "can_write_order",
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "The money arrived: the transaction is captured, its invoice paid (serial and ZATCA QR assigned) and its " +
    `order completed, in one batch. ${REVIEW} Emits \`transaction.captured\`, \`invoice.paid\`, \`order.paid\`.`,
  request: { params: transactionId },
  errors: { 404: ["transaction_not_found"], 409: ["invalid_state_transition"] },
  responses: { 200: jsonContent(TransactionSchema, "The captured transaction.") },
});

export const declineTransactionRoute = merchantRoute({
  method: "post",
  path: "/merchant/transactions/{transaction_id}/decline/",
  operationId: "declineBankTransfer",
  summary: "Decline Bank Transfer",
  tags,
  specId: "MO11",
  permission: "can_write_order",
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "The transfer never came: the transaction is declined with the reason, and its pending order cancelled in " +
    `the same batch (stock, voucher use and wallet redemption given back). ${REVIEW} Emits ` +
    "`transaction.declined`, `order.cancelled`.",
  request: { params: transactionId, body: jsonBody(DeclineTransactionSchema) },
  errors: { 404: ["transaction_not_found"], 409: ["invalid_state_transition"] },
  responses: { 200: jsonContent(TransactionSchema, "The declined transaction.") },
});

export const transactionsRouter = createRouter();
// Stock changes: the cached catalogue reads (stock) of the store are made fresh before the answer.
transactionsRouter.use("/merchant/transactions/:id/decline/", invalidatesPublicCache());
transactionsRouter.openapi(listTransactionsRoute, async (c) =>
  c.json(envelopeOf(c, await listTransactions(serviceContext(c), listQueryOf(c, TRANSACTION_LIST))), 200),
);
transactionsRouter.openapi(getTransactionRoute, async (c) =>
  c.json(await transactionDetails(serviceContext(c), c.req.valid("param").transaction_id), 200),
);
transactionsRouter.openapi(captureTransactionRoute, async (c) =>
  c.json(await captureTransaction(serviceContext(c), c.req.valid("param").transaction_id), 200),
);
transactionsRouter.openapi(declineTransactionRoute, async (c) =>
  c.json(
    await declineTransaction(serviceContext(c), c.req.valid("param").transaction_id, c.req.valid("json").reason),
    200,
  ),
);
