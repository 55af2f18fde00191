import { serviceContext } from "../../../core/context";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import {
  DepositCashbackSchema,
  DepositPointsSchema,
  RedeemFromWalletSchema,
  WalletSchema,
  WalletUpdateSchema,
} from "./schemas";
import { depositCashback, depositPoints, redeemFromWallet, walletOf } from "./service";

const WALLET = "/merchant/customers/{customer_id}/wallet/";
const customerId = idParam("customer_id");
const tags = ["Customer wallets"];

const WRITE =
  "Appends one entry to the customer's append-only ledger and answers 201 with it and the balances " +
  "after it; emits `customer.wallet.updated`. Send an `Idempotency-Key` so that a retry never moves " +
  "the money twice.";

export const getCustomerWalletRoute = merchantRoute({
  method: "get",
  path: WALLET,
  operationId: "getCustomerWallet",
  summary: "Customer Wallet Details",
  tags,
  specId: "MW1",
  permission: "can_read_order",
  description:
    "The customer's points and cashback balances (each the `balance_after` of its latest ledger entry), " +
    "what of them lapses and when, and the last 20 entries.",
  errors: { 404: ["customer_not_found"] },
  request: { params: customerId },
  responses: { 200: jsonContent(WalletSchema, "The customer's wallet.") },
});

export const depositPointsRoute = merchantRoute({
  method: "post",
  path: `${WALLET}deposit-points/`,
  operationId: "depositPoints",
  summary: "Deposit Points",
  tags,
  specId: "MW2",
  permission: "can_write_order",
  idempotent: true,
  description: `Adds points (a whole number) to the customer's wallet, optionally lapsing at \`expires_at\`. ${WRITE}`,
  errors: { 404: ["customer_not_found"] },
  request: { params: customerId, body: jsonBody(DepositPointsSchema) },
  responses: { 201: jsonContent(WalletUpdateSchema, "The new entry and the balances.") },
});

export const depositCashbackRoute = merchantRoute({
  method: "post",
  path: `${WALLET}deposit-cashback/`,
  operationId: "depositCashback",
  summary: "Deposit Cashback",
  tags,
  specId: "MW3",
  permission: "can_write_order",
  idempotent: true,
  description:
    "Adds cashback money (major units, at most 2 decimals; binary float noise such as 0.30000000000000004 " +
    `is 0.30, more decimals are a 400) to the customer's wallet, optionally lapsing at \`expires_at\`. ${WRITE}`,
  errors: { 404: ["customer_not_found"] },
  request: { params: customerId, body: jsonBody(DepositCashbackSchema) },
  responses: { 201: jsonContent(WalletUpdateSchema, "The new entry and the balances.") },
});

export const redeemFromWalletRoute = merchantRoute({
  method: "post",
  path: `${WALLET}redeem/`,
  operationId: "redeemFromWallet",
  summary: "Redeem From Wallet",
  tags,
  specId: "MW4",
  permission: "can_write_order",
  idempotent: true,
  description:
    "Takes points or cashback out of the customer's wallet. A balance never goes below zero: the check and " +
    "the entry are one statement, so concurrent redemptions cannot overdraw; when the balance does not " +
    `cover it, 409 \`insufficient_balance\` with \`available\`. An \`order_id\` must name an order of this ` +
    "customer in the store: 404 `order_not_found` when the store has no such order, 400 on `order_id` when it is " +
    `another customer's (checked in the same statement as the entry). ${WRITE}`,
  errors: { 404: ["customer_not_found", "order_not_found"], 409: ["insufficient_balance"] },
  request: { params: customerId, body: jsonBody(RedeemFromWalletSchema) },
  responses: { 201: jsonContent(WalletUpdateSchema, "The new entry and the balances.") },
});

/** A customer's wallet (MW1–MW4): its balances come from the ledger, never from a stored total. */
export const customerWalletsRouter = createRouter()
  .openapi(getCustomerWalletRoute, async (c) =>
    c.json(await walletOf(serviceContext(c), c.req.valid("param").customer_id), 200),
  )
  .openapi(depositPointsRoute, async (c) =>
    c.json(await depositPoints(serviceContext(c), c.req.valid("param").customer_id, c.req.valid("json")), 201),
  )
  .openapi(depositCashbackRoute, async (c) =>
    c.json(await depositCashback(serviceContext(c), c.req.valid("param").customer_id, c.req.valid("json")), 201),
  )
  .openapi(redeemFromWalletRoute, async (c) =>
    c.json(await redeemFromWallet(serviceContext(c), c.req.valid("param").customer_id, c.req.valid("json")), 201),
  );
