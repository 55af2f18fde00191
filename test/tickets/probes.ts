import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the tickets module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    listTickets: (f) => ({ query: `?id=${f.bTicket.id}` }),
    bulkUpdateTickets: (f) => ({ body: { ids: [f.bTicket.id], status: "cancelled" } }),
    checkInTicket: (f) => ({ body: { token: f.bTicket.token } }),
  },
};
