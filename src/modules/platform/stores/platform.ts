import type { Context } from "hono";
import { ApiError } from "../../../core/errors";
import { envelopeOf, envelopeSchema, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { platformRoute } from "../../../core/routes";
import { createDb } from "../../../db/client";
import {
  registerStore,
  storeProvisioned,
  storeSuspended,
  tokenDirectory,
  unregisterStore,
} from "../../../db/directory";
import { directoryOf, shardOf, storeShard } from "../../../db/shards";
import type { AppEnv } from "../../../env";
import { ApiKeyWithSecretSchema, IssueApiKeySchema, issueApiKey } from "../../account";
import { copyAuditAfter, eventSinkOf, PLATFORM_BEYOND_SPEC, PLATFORM_TAGS, platformAuditOf } from "../shared";
import { CreateStoreSchema, StoreDetailsSchema, StoreSchema, SuspendStoreSchema } from "./schemas";
import {
  createStore,
  getStore,
  listStores,
  reactivateStore,
  STORE_LIST,
  type StoreDirectory,
  suspendStore,
} from "./service";

const STORES = "/stores/";
const STORE = `${STORES}{store_id}/`;
const tags = PLATFORM_TAGS;
const beyondSpec = PLATFORM_BEYOND_SPEC;
const params = idParam("store_id");

const createRoute = platformRoute({
  method: "post",
  path: STORES,
  operationId: "createStore",
  summary: "Create Store",
  tags,
  beyondSpec,
  description:
    "A new store (an app) of an organization, with its first settings; its `id` is the `app-id` of its " +
    "requests. Issue its first key next (Issue Store API Key).",
  errors: { 404: ["organization_not_found", "shard_not_found"] },
  request: { body: jsonBody(CreateStoreSchema) },
  responses: { 201: jsonContent(StoreDetailsSchema, "The store and its settings.") },
});

const listRoute = platformRoute({
  method: "get",
  path: STORES,
  operationId: "listStores",
  summary: "List Stores",
  tags,
  beyondSpec,
  description: "Every store, oldest first; filter on `organization_id` or `status`.",
  request: { query: listQuerySchema(STORE_LIST) },
  responses: { 200: jsonContent(envelopeSchema(StoreSchema, "StoreList"), "A page of stores.") },
});

const getRoute = platformRoute({
  method: "get",
  path: STORE,
  operationId: "getStore",
  summary: "Store Details",
  tags,
  beyondSpec,
  description: "One store, with its settings.",
  errors: { 404: ["store_not_found"] },
  request: { params },
  responses: { 200: jsonContent(StoreDetailsSchema, "The store and its settings.") },
});

const suspendRoute = platformRoute({
  method: "post",
  path: `${STORE}suspend/`,
  operationId: "suspendStore",
  summary: "Suspend Store",
  tags,
  beyondSpec,
  description:
    "Suspends the store: every merchant, customer and public request for it answers 403 `app_suspended` " +
    "(at once on the server that suspended it, within a second everywhere). Nothing is deleted: its data, its " +
    "keys and its queued and scheduled work are kept, and its webhooks are still delivered. Emits " +
    "`store.suspended`. A suspended store is a 409.",
  errors: { 404: ["store_not_found"], 409: ["invalid_state_transition"] },
  request: { params, body: jsonBody(SuspendStoreSchema) },
  responses: { 200: jsonContent(StoreSchema, "The store, suspended.") },
});

const reactivateRoute = platformRoute({
  method: "post",
  path: `${STORE}reactivate/`,
  operationId: "reactivateStore",
  summary: "Reactivate Store",
  tags,
  beyondSpec,
  description: "Serves the suspended store's requests again. Emits `store.reactivated`. An active store is a 409.",
  errors: { 404: ["store_not_found"], 409: ["invalid_state_transition"] },
  request: { params },
  responses: { 200: jsonContent(StoreSchema, "The store, active.") },
});

const issueKeyRoute = platformRoute({
  method: "post",
  path: `${STORE}api-keys/`,
  operationId: "issueStoreApiKey",
  summary: "Issue Store API Key",
  tags,
  beyondSpec,
  description:
    "A merchant API key of the store (its first, typically: then the store manages its own keys with " +
    "`can_manage_api_keys`), with every permission unless `permissions` says otherwise; `created_by` is null. " +
    "The `secret` is in this answer only. Emits `api_key.created`.",
  errors: { 404: ["store_not_found"] },
  request: { params, body: jsonBody(IssueApiKeySchema) },
  responses: { 201: jsonContent(ApiKeyWithSecretSchema, "The key, with its secret shown this once.") },
});

/** The directory's side of the platform's store operations (step 1 of docs/shards.md). */
const directoryOfStores = (c: Context<AppEnv>): StoreDirectory => ({
  register: (input) => registerStore(c.env, input),
  unregister: (id) => unregisterStore(c.env, id),
  provisioned: (id) => storeProvisioned(c.env, id),
  suspended: (id, to, at) => storeSuspended(c.env, id, to, at),
});

/** The named store's shard: its rows, its key and its audit rows are there. 404 for no such store. */
async function shardOfStore(c: Context<AppEnv>, id: number) {
  const store = await storeShard(c.env, id);
  if (!store) throw ApiError.notFound("store_not_found", `Store ${id}`);
  return store;
}

/** The platform's stores: create, list, read, suspend, reactivate, and issue a key. */
export const storesPlatformRouter = createRouter()
  .openapi(createRoute, async (c) => {
    const input = c.req.valid("json");
    const dbOf = (shard: string) => createDb(shardOf(c.env, shard));
    const store = await createStore(dbOf, eventSinkOf(c), input, platformAuditOf(c), directoryOfStores(c));
    copyAuditAfter(c, store.shard);
    return c.json(store, 201);
  })
  .openapi(listRoute, async (c) =>
    c.json(envelopeOf(c, await listStores(createDb(directoryOf(c.env)), listQueryOf(c, STORE_LIST))), 200),
  )
  .openapi(getRoute, async (c) => {
    const id = c.req.valid("param").store_id;
    const { db, shard } = await shardOfStore(c, id);
    return c.json(await getStore(db, id, shard), 200);
  })
  .openapi(suspendRoute, async (c) => {
    const id = c.req.valid("param").store_id;
    const reason = c.req.valid("json").reason;
    const store = await shardOfStore(c, id);
    const suspended = await suspendStore(store, eventSinkOf(c), id, reason, platformAuditOf(c), directoryOfStores(c));
    copyAuditAfter(c, store.shard);
    return c.json(suspended, 200);
  })
  .openapi(reactivateRoute, async (c) => {
    const id = c.req.valid("param").store_id;
    const store = await shardOfStore(c, id);
    const active = await reactivateStore(store, eventSinkOf(c), id, platformAuditOf(c), directoryOfStores(c));
    copyAuditAfter(c, store.shard);
    return c.json(active, 200);
  })
  .openapi(issueKeyRoute, async (c) => {
    const id = c.req.valid("param").store_id;
    const { db, shard } = await shardOfStore(c, id);
    const input = c.req.valid("json");
    const key = await issueApiKey(db, eventSinkOf(c), id, null, input, platformAuditOf(c), tokenDirectory(c.env));
    copyAuditAfter(c, shard);
    return c.json(key, 201);
  });
