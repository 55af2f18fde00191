import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the sales-channels module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    // Sales channels (MX1–MX6): B's connection and listing are with X, never A; A's requests go to X.
    listConnectionRequests: (f) => ({ query: `?id=${f.mealCommerce.bConnection}` }),
    getConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
    deleteConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
    acceptConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
    rejectConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
    activateConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
    deactivateConnectionRequest: (f) => ({ path: { connection_request_id: String(f.mealCommerce.bConnection) } }),
    sendConnectionRequest: (f) => ({ body: { provider_app_id: f.stores.x, message: "x" } }),
    getChannelProfile: () => ({}),
    updateChannelProfile: () => ({ body: { is_listed: true } }),
    listProviderPlans: (f) => ({ query: `?provider_app_id=${f.stores.b}` }),
    listPlanListings: (f) => ({ query: `?id=${f.mealCommerce.bListing}` }),
    createPlanListing: (f) => ({ body: { provider_app_id: f.stores.b, plan_id: f.meals.plan } }),
    updatePlanListing: (f) => ({ path: { plan_listing_id: String(f.mealCommerce.bListing) }, body: { ordering: 1 } }),
    deletePlanListing: (f) => ({ path: { plan_listing_id: String(f.mealCommerce.bListing) } }),
  },
};
