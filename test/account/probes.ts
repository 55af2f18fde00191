import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the account module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    // Merchant account (MA1–MA6): B's settings, bank account, wallet and organization.
    getMerchantSettings: () => ({}),
    updateMerchantSettings: () => ({ body: { address: "A" } }),
    patchMerchantSettings: () => ({ body: { address: "A" } }),
    listBankAccounts: (f) => ({ query: `?id=${f.commerce.bBankAccount}` }),
    getBankAccount: (f) => ({ path: { bank_account_id: String(f.commerce.bBankAccount) } }),
    // B's IBAN is A's to register too: a 409 would tell A that another store holds it.
    createBankAccount: (f) => ({
      body: { bank_name_en: "Mine", bank_name_ar: "لي", iban: f.commerce.bIban, account_holder: "A" },
    }),
    updateBankAccount: (f) => ({
      path: { bank_account_id: String(f.commerce.bBankAccount) },
      body: { account_holder: "Taken" },
    }),
    deleteBankAccount: (f) => ({ path: { bank_account_id: String(f.commerce.bBankAccount) } }),
    getOrganizationConfig: (f) => ({ orgId: f.stores.b }),
    listAuditEvents: (f) => ({ query: `?resource_id=${f.commerce.bBankAccount}` }),
    getAuditEvent: (f) => ({ path: { audit_event_id: String(f.commerce.bAuditEvent) } }),
    // B's API keys: A's list never shows them, and A's id-taking operations answer 404.
    listApiKeys: (f) => ({ query: `?id=${f.commerce.bApiKey}` }),
    createApiKey: () => ({ body: { name: "Mine", permissions: ["can_read_order"] } }),
    getApiKey: (f) => ({ path: { api_key_id: String(f.commerce.bApiKey) } }),
    revokeApiKey: (f) => ({ path: { api_key_id: String(f.commerce.bApiKey) } }),
    rotateApiKey: (f) => ({ path: { api_key_id: String(f.commerce.bApiKey) } }),
  },
};
