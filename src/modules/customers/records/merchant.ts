import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { CreateCustomerSchema, CustomerListSchema, CustomerSchema, UpdateCustomerSchema } from "./schemas";
import { CUSTOMER_LIST, createCustomer, getCustomer, listCustomers, updateCustomer } from "./service";

const CUSTOMERS = "/merchant/customers/";

export const customerRecordsRouter = createRouter();

const MOBILE =
  "`mobile_number` is validated as a mobile number of `country_code`'s country (a 400 says when it " +
  "is not), stored as E.164 digits (`966534501056`) and echoed in its national form as `username`; " +
  "it is unique among the store's live customers (409 `customer_mobile_taken`, naming `customer_id`).";

/** Customers live in the order service, as the peer's do: `can_read_order` / `can_write_order`. */
crudRoutes(customerRecordsRouter, {
  names: { one: "customer", many: "customers" },
  tag: "Customers",
  collection: CUSTOMERS,
  member: `${CUSTOMERS}{customer_id}/`,
  param: "customer_id",
  notFound: "customer_not_found",
  view: CustomerSchema,
  list: {
    operationId: "listCustomers",
    summary: "List Customers",
    specId: "MC4",
    permission: "can_read_order",
    description:
      "The store's customers (deleted ones are left out). Filter on the customer's fields, " +
      "`search` over name, email and mobile number (any form), `order_by`.",
    spec: CUSTOMER_LIST,
    schema: CustomerListSchema,
    run: listCustomers,
  },
  get: {
    operationId: "getCustomer",
    summary: "Customer Details",
    specId: "MC5",
    permission: "can_read_order",
    run: getCustomer,
  },
  create: {
    operationId: "createCustomer",
    summary: "Create Customer",
    specId: "MC6",
    permission: "can_write_order",
    description: `Creates a customer of the store. ${MOBILE} Emits \`customer.created\`.`,
    errors: { 409: ["customer_mobile_taken"] },
    body: CreateCustomerSchema,
    run: createCustomer,
  },
  update: {
    operationId: "updateCustomer",
    summary: "Update Customer",
    specId: "MC7",
    permission: "can_write_order",
    description:
      `Changes the fields given; the merchant may also block or unblock the customer (\`is_blocked\`). ${MOBILE} ` +
      "A changed mobile number or email is no longer verified; the verification flags are read-only. " +
      "Emits `customer.updated`.",
    errors: { 409: ["customer_mobile_taken"] },
    body: UpdateCustomerSchema,
    run: updateCustomer,
  },
});
