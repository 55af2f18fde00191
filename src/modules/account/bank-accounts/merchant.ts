import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { BankAccountListSchema, BankAccountSchema, CreateBankAccountSchema, UpdateBankAccountSchema } from "./schemas";
import {
  BANK_ACCOUNT_LIST,
  createBankAccount,
  deleteBankAccount,
  getBankAccount,
  listBankAccounts,
  updateBankAccount,
} from "./service";

const ACCOUNTS = "/dashboard/admin/bank-accounts/";
const MANAGED =
  "MA4 lists the accounts; the store needs a way to add and keep them (the account a bank transfer is paid into).";

export const bankAccountsRouter = createRouter();

/** The store's bank accounts (MA4); the writes are beyond the spec, which only lists them. */
crudRoutes(bankAccountsRouter, {
  names: { one: "bank account", many: "bank accounts" },
  tag: "Merchant account",
  collection: ACCOUNTS,
  member: `${ACCOUNTS}{bank_account_id}/`,
  param: "bank_account_id",
  notFound: "bank_account_not_found",
  view: BankAccountSchema,
  list: {
    operationId: "listBankAccounts",
    summary: "List Bank Accounts",
    specId: "MA4",
    permission: "can_retrieve_app_config",
    description: "The store's bank accounts, the default first; each `iban` is masked.",
    spec: BANK_ACCOUNT_LIST,
    schema: BankAccountListSchema,
    run: listBankAccounts,
  },
  get: {
    operationId: "getBankAccount",
    summary: "Bank Account Details",
    beyondSpec: MANAGED,
    permission: "can_retrieve_app_config",
    description: "One bank account of the store, its `iban` masked.",
    run: getBankAccount,
  },
  create: {
    operationId: "createBankAccount",
    summary: "Create Bank Account",
    beyondSpec: MANAGED,
    permission: "can_update_app_config",
    description:
      "Adds a bank account. The IBAN is checked (the country's length and the ISO 13616 mod-97 check digits) " +
      "and stored without spaces, in upper case; it is answered masked. The account becomes the default when " +
      "`is_default` is true (the previous default stops being it, with its own `bank_account.updated`) or when " +
      "the store has no default yet. Emits `bank_account.created`.",
    errors: { 409: ["iban_already_registered"] },
    body: CreateBankAccountSchema,
    run: createBankAccount,
  },
  update: {
    operationId: "updateBankAccount",
    summary: "Update Bank Account",
    beyondSpec: MANAGED,
    permission: "can_update_app_config",
    description:
      "Changes the fields given. `is_default: true` takes the default from the account that had it; " +
      "an inactive account is never the default (setting `status: inactive` unsets it). Emits `bank_account.updated`.",
    errors: { 409: ["iban_already_registered"] },
    body: UpdateBankAccountSchema,
    run: updateBankAccount,
  },
  remove: {
    operationId: "deleteBankAccount",
    summary: "Delete Bank Account",
    beyondSpec: MANAGED,
    permission: "can_update_app_config",
    description: "Removes the account (a soft delete); when it was the default, the store has none until one is set.",
    run: deleteBankAccount,
  },
});
