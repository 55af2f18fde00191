import { env } from "cloudflare:workers";
import { storePlaced } from "./factories";
import { type Call, call } from "./request";

/**
 * A platform operation's request: the platform key (the test bindings'), no `app-id`. A store it
 * creates is recorded where placement put it, so that `shardFor` finds its rows.
 */
export async function platformCall(path: string, opts: Call = {}): Promise<Response> {
  const res = await call(path, { token: env.PLATFORM_API_KEY, appId: null, ...opts });
  if (opts.method === "POST" && path === "/platform/v1/stores/" && res.status === 201) {
    const store = (await res.clone().json()) as { id: number; shard: string };
    storePlaced(store.id, store.shard);
  }
  return res;
}

let serial = 0;

/** A new organization and store through the platform routes; answers the store's id and its organization's. */
export async function platformStore(
  settings: Record<string, unknown> = {},
): Promise<{ orgId: number; storeId: number }> {
  serial += 1;
  const org = await platformCall("/platform/v1/organizations/", { method: "POST", body: { name: `Org ${serial}` } });
  const orgId = ((await org.json()) as { id: number }).id;
  const store = await platformCall("/platform/v1/stores/", {
    method: "POST",
    body: { organization_id: orgId, name_en: `Store ${serial}`, name_ar: `متجر ${serial}`, settings },
  });
  if (store.status !== 201) throw new Error(`store: ${store.status} ${await store.text()}`);
  return { orgId, storeId: ((await store.json()) as { id: number }).id };
}
