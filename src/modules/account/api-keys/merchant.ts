import type { Context } from "hono";
import { serviceContext } from "../../../core/context";
import { listQueryWith } from "../../../core/list-query-with";
import { envelopeOf, envelopeSchema, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent, z } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { tokenDirectory } from "../../../db/directory";
import type { AppEnv } from "../../../env";
import {
  API_KEY_STATUSES,
  ApiKeySchema,
  ApiKeyWithSecretSchema,
  CreateApiKeySchema,
  ROTATION_GRACE_DEFAULT_S,
  ROTATION_GRACE_MAX_S,
  RotateApiKeySchema,
} from "./schemas";
import {
  API_KEY_LIST,
  type ApiKeyStatus,
  createApiKey,
  getApiKey,
  type KeyIssuer,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
} from "./service";

const KEYS = "/dashboard/admin/api-keys/";
const KEY = `${KEYS}{api_key_id}/`;
const tags = ["Merchant API keys"];
const permission = "can_manage_api_keys";
const beyondSpec = "The spec's merchant tokens are issued out of band; a store manages its own keys here.";
const params = idParam("api_key_id");

/** The calling key, as the issuer of the key it creates or rotates (a merchant route's principal). */
function issuerOf(c: Context<AppEnv>): KeyIssuer {
  const p = c.get("principal");
  if (p.kind !== "merchant") throw new Error("issuerOf() on a route without requirePermission()");
  return { tokenId: p.tokenId, permissions: p.permissions, expiresAt: p.expiresAt };
}

const listRoute = merchantRoute({
  method: "get",
  path: KEYS,
  operationId: "listApiKeys",
  summary: "List API Keys",
  tags,
  beyondSpec,
  permission,
  description:
    "The store's merchant API keys, newest first: each with its prefix and last four characters, never the " +
    "secret. `status` (`active`, `revoked`, `expired`) is as of the request.",
  request: {
    query: listQuerySchema(API_KEY_LIST).extend({
      status: z.enum(API_KEY_STATUSES).optional().openapi({ description: "The keys in this status." }),
    }),
  },
  responses: { 200: jsonContent(envelopeSchema(ApiKeySchema, "ApiKeyList"), "A page of keys.") },
});

const getRoute = merchantRoute({
  method: "get",
  path: KEY,
  operationId: "getApiKey",
  summary: "API Key Details",
  tags,
  beyondSpec,
  permission,
  description: "One key of the store, without its secret.",
  errors: { 404: ["api_key_not_found"] },
  request: { params },
  responses: { 200: jsonContent(ApiKeySchema, "The key.") },
});

const createRoute = merchantRoute({
  method: "post",
  path: KEYS,
  operationId: "createApiKey",
  summary: "Create API Key",
  tags,
  beyondSpec,
  permission,
  description:
    "A new key of the store. Its `secret` is in this answer only (the store keeps its hash). It may hold only " +
    "permissions the calling key holds (403 `permission_escalation` names the others), and may not outlive " +
    "the calling key. Emits `api_key.created`.",
  errors: { 403: ["permission_escalation"] },
  request: { body: jsonBody(CreateApiKeySchema) },
  responses: { 201: jsonContent(ApiKeyWithSecretSchema, "The key, with its secret shown this once.") },
});

const revokeRoute = merchantRoute({
  method: "post",
  path: `${KEY}revoke/`,
  operationId: "revokeApiKey",
  summary: "Revoke API Key",
  tags,
  beyondSpec,
  permission,
  description:
    "Revokes the key: refused (401 `token_revoked`) at once by the server that revoked it, within a second " +
    "everywhere. A key may revoke itself. Emits `api_key.revoked`.",
  errors: { 404: ["api_key_not_found"], 409: ["invalid_state_transition"] },
  request: { params },
  responses: { 200: jsonContent(ApiKeySchema, "The key, revoked.") },
});

const rotateRoute = merchantRoute({
  method: "post",
  path: `${KEY}rotate/`,
  operationId: "rotateApiKey",
  summary: "Rotate API Key",
  tags,
  beyondSpec,
  permission,
  description:
    "A new key with a new secret and the old key's name, permissions and expiry; the old key keeps working " +
    `for \`grace_period_seconds\` (default ${ROTATION_GRACE_DEFAULT_S}, at most ${ROTATION_GRACE_MAX_S}; 0 stops ` +
    "it at once), then is refused as expired: its `expires_at` is lowered to the end of the grace, never " +
    "raised. A key rotated already, revoked or expired is a 409. Emits `api_key.created` and `api_key.rotated`.",
  errors: { 403: ["permission_escalation"], 404: ["api_key_not_found"], 409: ["invalid_state_transition"] },
  request: { params, body: { ...jsonBody(RotateApiKeySchema), required: false } },
  responses: { 201: jsonContent(ApiKeyWithSecretSchema, "The new key, with its secret shown this once.") },
});

const isStatus = (raw: string) => (API_KEY_STATUSES as readonly string[]).includes(raw);

/** The store's merchant API keys: list, read, create, revoke, rotate. */
export const apiKeysRouter = createRouter()
  .openapi(listRoute, async (c) => {
    const { q, value } = listQueryWith(c, API_KEY_LIST, "status", {
      required: false,
      parse: (raw) => (isStatus(raw) ? (raw as ApiKeyStatus) : undefined),
      expected: `one of: ${API_KEY_STATUSES.join(", ")}`,
    });
    return c.json(envelopeOf(c, await listApiKeys(serviceContext(c), q, value)), 200);
  })
  .openapi(getRoute, async (c) => c.json(await getApiKey(serviceContext(c), c.req.valid("param").api_key_id), 200))
  .openapi(createRoute, async (c) =>
    c.json(await createApiKey(serviceContext(c), issuerOf(c), c.req.valid("json"), tokenDirectory(c.env)), 201),
  )
  .openapi(revokeRoute, async (c) =>
    c.json(await revokeApiKey(serviceContext(c), c.req.valid("param").api_key_id, tokenDirectory(c.env)), 200),
  )
  .openapi(rotateRoute, async (c) => {
    const body = RotateApiKeySchema.parse(c.req.valid("json") ?? {});
    const keys = tokenDirectory(c.env);
    return c.json(await rotateApiKey(serviceContext(c), issuerOf(c), c.req.valid("param").api_key_id, body, keys), 201);
  });
