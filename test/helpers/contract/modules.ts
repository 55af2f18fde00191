import * as account from "../../../src/modules/account";
import * as customers from "../../../src/modules/customers";
import * as items from "../../../src/modules/items";
import * as mealOrders from "../../../src/modules/meal-orders";
import * as meals from "../../../src/modules/meals";
import * as orders from "../../../src/modules/orders";
import * as salesChannels from "../../../src/modules/sales-channels";
import * as shipping from "../../../src/modules/shipping";
import * as tickets from "../../../src/modules/tickets";
import * as vouchers from "../../../src/modules/vouchers";
import * as webhooks from "../../../src/modules/webhooks";

/**
 * Which module serves an operation: the module whose routers (the ones its `index.ts` exports, which
 * the app mounts) register the operation's id. What no module registers, the app serves itself
 * (`src/app.ts`: the health check): "core". Exact, and nothing to keep by hand.
 */
const MODULES = {
  account,
  customers,
  items,
  "meal-orders": mealOrders,
  meals,
  orders,
  "sales-channels": salesChannels,
  shipping,
  tickets,
  vouchers,
  webhooks,
};

export type ModuleName = keyof typeof MODULES | "core";
export const MODULE_NAMES = [...Object.keys(MODULES), "core"] as ModuleName[];

type Registry = { definitions: { type: string; route?: { operationId?: string } }[] };

const served = new Map<string, ModuleName>();
for (const [name, exports] of Object.entries(MODULES) as [ModuleName, Record<string, unknown>][]) {
  for (const value of Object.values(exports)) {
    const registry = (value as { openAPIRegistry?: Registry } | null)?.openAPIRegistry;
    for (const def of registry?.definitions ?? []) {
      const id = def.type === "route" ? def.route?.operationId : undefined;
      if (!id) continue;
      const known = served.get(id);
      if (known && known !== name) throw new Error(`${id} is registered by both ${known} and ${name}`);
      served.set(id, name);
    }
  }
}

/** The module that serves an operation (see above). */
export function moduleOf(operationId: string): ModuleName {
  return served.get(operationId) ?? "core";
}
