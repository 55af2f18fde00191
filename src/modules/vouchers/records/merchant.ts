import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { CreateVoucherSchema, UpdateVoucherSchema, VoucherListSchema, VoucherSchema } from "./schemas";
import { createVoucher, deleteVoucher, getVoucher, listVouchers, updateVoucher, VOUCHER_LIST } from "./service";

const VOUCHERS = "/merchant/vouchers/";
const beyondSpec =
  "The spec names only Get Voucher Discount (MV1) and Update Voucher Usage (MV2), which assume vouchers " +
  "exist: the merchant needs to create and manage them.";
const WRITE_RULES =
  "`code` is 3–32 letters, digits, `-` or `_`, stored in upper case and unique among the store's live vouchers " +
  "(409 `voucher_code_taken`). `item_ids` and `category_ids` must name the store's items and item categories " +
  "(a 400 lists those that do not). `ends_at` must be after `starts_at`.";

export const voucherRecordsRouter = createRouter();

/** Vouchers: the merchant's discount codes (list, details, create, update, soft delete). */
crudRoutes(voucherRecordsRouter, {
  names: { one: "voucher", many: "vouchers" },
  tag: "Vouchers",
  collection: VOUCHERS,
  member: `${VOUCHERS}{voucher_id}/`,
  param: "voucher_id",
  notFound: "voucher_not_found",
  view: VoucherSchema,
  list: {
    operationId: "listVouchers",
    summary: "List Vouchers",
    description: "The store's vouchers, with each one's computed `state`. Filter by `status`, `is_featured`, `code`….",
    beyondSpec,
    permission: "can_read_order",
    spec: VOUCHER_LIST,
    schema: VoucherListSchema,
    run: listVouchers,
  },
  get: {
    operationId: "getVoucher",
    summary: "Voucher Details",
    beyondSpec,
    permission: "can_read_order",
    run: getVoucher,
  },
  create: {
    operationId: "createVoucher",
    summary: "Create Voucher",
    description: `${WRITE_RULES} Emits \`voucher.created\`.`,
    beyondSpec,
    permission: "can_write_order",
    errors: { 409: ["voucher_code_taken"] },
    body: CreateVoucherSchema,
    run: createVoucher,
  },
  update: {
    operationId: "updateVoucher",
    summary: "Update Voucher",
    description: `Changes the given fields. ${WRITE_RULES} Changing \`kind\` needs \`value\` too. Emits \`voucher.updated\`.`,
    beyondSpec,
    permission: "can_write_order",
    errors: { 409: ["voucher_code_taken"] },
    body: UpdateVoucherSchema,
    run: updateVoucher,
  },
  remove: {
    operationId: "deleteVoucher",
    summary: "Delete Voucher",
    description:
      "A soft delete: the code can no longer be applied (and may be given to a new voucher); its recorded uses " +
      "stay. Emits `voucher.deleted`.",
    beyondSpec,
    permission: "can_write_order",
    run: deleteVoucher,
  },
});
