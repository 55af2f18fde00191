import { ROUTERS } from "../../../src/routers";

/**
 * Which module serves an operation: the module of the router (src/routers.ts, what the app mounts)
 * that registers the operation's id. What no router registers, the app serves itself (`src/app.ts`:
 * the health check): "core". Exact, and nothing to keep by hand.
 */
export type ModuleName = (typeof ROUTERS)[number]["module"] | "core";
export const MODULE_NAMES = [...new Set(ROUTERS.map((r) => r.module)), "core"].sort() as ModuleName[];

type Registry = { definitions: { type: string; route?: { operationId?: string } }[] };

const served = new Map<string, ModuleName>();
for (const r of ROUTERS) {
  const registry = ((await r.load()) as unknown as { openAPIRegistry: Registry }).openAPIRegistry;
  for (const def of registry.definitions) {
    const id = def.type === "route" ? def.route?.operationId : undefined;
    if (!id) continue;
    const known = served.get(id);
    if (known && known !== r.module) throw new Error(`${id} is registered by both ${known} and ${r.module}`);
    served.set(id, r.module);
  }
}

/** The module that serves an operation (see above). */
export function moduleOf(operationId: string): ModuleName {
  return served.get(operationId) ?? "core";
}
