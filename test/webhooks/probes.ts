import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the webhooks module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    listWebhooks: (f) => ({ query: `?id=${f.bWebhook.id}` }),
    createWebhook: () => ({ body: { url: "https://hooks.tenant-a.example.org/in", events: ["ticket.created"] } }),
    deleteWebhooksByUrl: (f) => ({ query: `?url=${encodeURIComponent(f.bWebhook.url)}` }),
    listWebhookLogs: (f) => ({ query: `?webhook=${f.bWebhook.id}` }),
    updateWebhook: (f) => ({ path: { webhook_id: String(f.bWebhook.id) }, body: { is_active: false } }),
    deleteWebhook: (f) => ({ path: { webhook_id: String(f.bWebhook.id) } }),
    testWebhook: (f) => ({ path: { webhook_id: String(f.bWebhook.id) } }),
    rotateWebhookSecret: (f) => ({ path: { webhook_id: String(f.bWebhook.id) } }),
    listWebhookDeliveries: (f) => ({ query: `?webhook=${f.bWebhook.id}` }),
    resendWebhookDelivery: (f) => ({ path: { delivery_id: f.bDelivery } }),
    recoverWebhook: (f) => ({
      path: { webhook_id: String(f.bWebhook.id) },
      body: { since: "2020-01-01T00:00:00Z" },
    }),
  },
};
