import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { StoreWalletEntryListSchema, StoreWalletSchema } from "./schemas";
import { listStoreWalletEntries, STORE_WALLET_ENTRY_LIST, storeWalletOf } from "./service";

const WALLET = "/merchant/wallet/";
const tags = ["Store wallet"];

export const getStoreWalletRoute = merchantRoute({
  method: "get",
  path: WALLET,
  operationId: "getStoreWallet",
  summary: "Wallet Details",
  tags,
  specId: "MA1",
  permission: "can_retrieve_app_config",
  description:
    "The store's own wallet: its balance (the `balance_after` of the latest ledger entry), what pending top-ups " +
    "would add once paid, and the 20 latest entries. Top-ups credit it when their order is paid; shipping " +
    "labels and fees are taken from it, never below zero.",
  responses: { 200: jsonContent(StoreWalletSchema, "The store wallet.") },
});

export const listStoreWalletTransactionsRoute = merchantRoute({
  method: "get",
  path: `${WALLET}transactions/`,
  operationId: "listStoreWalletTransactions",
  summary: "List Store Wallet Transactions",
  tags,
  beyondSpec: "Wallet Details shows the 20 latest entries; this pages through the whole ledger behind the balance.",
  permission: "can_retrieve_app_config",
  description: "Every entry of the store wallet's append-only ledger, newest first unless `order_by` says otherwise.",
  request: { query: listQuerySchema(STORE_WALLET_ENTRY_LIST) },
  responses: { 200: jsonContent(StoreWalletEntryListSchema, "A page of ledger entries.") },
});

/** MA1: the store wallet and its ledger (read only: entries come from paid top-ups, labels and fees). */
export const storeWalletRouter = createRouter()
  .openapi(getStoreWalletRoute, async (c) => c.json(await storeWalletOf(serviceContext(c)), 200))
  .openapi(listStoreWalletTransactionsRoute, async (c) =>
    c.json(
      envelopeOf(c, await listStoreWalletEntries(serviceContext(c), listQueryOf(c, STORE_WALLET_ENTRY_LIST))),
      200,
    ),
  );
