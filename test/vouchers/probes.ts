import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the vouchers module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    // Vouchers (MV1, MV2, CA14): B's voucher by id, by code, or B's item in a scope.
    listVouchers: (f) => ({ query: `?id=${f.commerce.bVoucher.id}` }),
    getVoucher: (f) => ({ path: { voucher_id: String(f.commerce.bVoucher.id) } }),
    createVoucher: (f) => ({
      body: { code: "AOWN", title_en: "Mine", title_ar: "لي", kind: "fixed", value: 1, item_ids: [f.bItem] },
    }),
    updateVoucher: (f) => ({ path: { voucher_id: String(f.commerce.bVoucher.id) }, body: { title_en: "Taken" } }),
    deleteVoucher: (f) => ({ path: { voucher_id: String(f.commerce.bVoucher.id) } }),
    getVoucherDiscount: (f) => ({ body: { code: f.commerce.bVoucher.code, cart_amount: 10 } }),
    updateVoucherUsage: (f) => ({
      path: { code: f.commerce.bVoucher.code },
      body: { order_id: f.commerce.aOther.order, action: "use" },
    }),
    listFeaturedVouchers: () => ({}),
  },
  otherCustomer: {
    // Commerce: the other customer's cart, order, recurring purchase and card, or their location in a body.
    listFeaturedVouchers: () => ({}),
  },
};
