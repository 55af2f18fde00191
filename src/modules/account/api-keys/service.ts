import { and, eq, gt, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { type AuditContext, type AuditSubject, auditCreated, auditedChange } from "../../../core/audit";
import {
  forgetHeldTokens,
  merchantApiTokens,
  PERMISSIONS,
  type Permission,
  revokeMerchantTokenStatement,
  TOKEN_PREFIX,
} from "../../../core/auth";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { randomToken, sha256Hex } from "../../../core/crypto";
import { ApiError } from "../../../core/errors";
import { type EventSink, rowEvent } from "../../../core/events/outbox";
import type { EventType } from "../../../core/events/registry";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page, searchColumns } from "../../../core/listing";
import { apps } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import type { TokenDirectory } from "../../../db/directory";
import type { API_KEY_STATUSES, ApiKey, ApiKeyWithSecret, CreateApiKey, IssueApiKey, RotateApiKey } from "./schemas";

type Row = typeof merchantApiTokens.$inferSelect;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

const statusOf = (r: Row, now: string): ApiKeyStatus =>
  r.revokedAt ? "revoked" : r.expiresAt && r.expiresAt <= now ? "expired" : "active";

const view = (r: Row, now = nowIso()): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.tokenPrefix,
  last_four: r.lastFour,
  permissions: r.permissions,
  created_by: r.createdBy,
  created_at: r.createdAt,
  expires_at: r.expiresAt,
  revoked_at: r.revokedAt,
  last_used_at: r.lastUsedAt,
  replaced_by: r.replacedBy,
  status: statusOf(r, now),
  modified_at: r.modifiedAt,
});

/** The key as an event's data: never the secret, nor its hash. */
const keyEvent = (type: EventType, where: SQL, extra = sql``) =>
  rowEvent(
    type,
    merchantApiTokens,
    where,
    sql`json_object('id', id, 'name', name, 'permissions', json(permissions)${extra})`,
  );

/** A key as the audit trail shows it: what List API Keys shows, never the secret nor its hash. */
const KEY_AUDIT: AuditSubject = {
  resourceType: "api_key",
  table: merchantApiTokens,
  snapshot: sql`json_object('id', id, 'name', name, 'prefix', token_prefix, 'last_four', last_four,
    'permissions', json(permissions), 'created_by', created_by, 'expires_at', expires_at,
    'revoked_at', revoked_at, 'replaced_by', replaced_by)`,
};

/** Who asks for a key: a merchant key (its id, permissions and expiry), or the platform. */
export type KeyIssuer = { tokenId: number; permissions: ReadonlySet<Permission>; expiresAt: string | null } | null;

/** Refuses a key that would hold a permission its issuer lacks (the platform may grant any). */
function refuseEscalation(issuer: KeyIssuer, permissions: readonly Permission[]): void {
  const lacking = issuer ? permissions.filter((p) => !issuer.permissions.has(p)) : [];
  if (lacking.length) {
    throw ApiError.forbidden(
      `A key may grant only permissions it holds; this one lacks ${lacking.map((p) => `\`${p}\``).join(", ")}.`,
      "permission_escalation",
      { permissions: lacking },
    );
  }
}

/** The expiry of a new key: given (in UTC), or the issuer's own; never past the issuer's, never past. */
function expiryOf(issuer: KeyIssuer, given: string | null | undefined): string | null {
  const now = nowIso();
  const at = given ? new Date(given).toISOString() : null;
  if (at !== null && at <= now) throw ApiError.validation({ expires_at: ["Must be in the future."] });
  const ceiling = issuer?.expiresAt ?? null;
  if (ceiling && at !== null && at > ceiling) {
    throw ApiError.validation({
      expires_at: [`Must not be later than the calling key's own expiry, ${ceiling}.`],
    });
  }
  return at ?? ceiling;
}

/** A new key's row: its secret's hash, prefix and last four (the secret itself is never kept). */
async function newKey(
  db: Db,
  appId: number,
  issuer: KeyIssuer,
  input: { name: string; permissions: Permission[]; expiresAt: string | null },
  keys: TokenDirectory,
) {
  const secret = randomToken(TOKEN_PREFIX);
  const row = {
    appId,
    name: input.name,
    tokenHash: await sha256Hex(secret),
    tokenPrefix: secret.slice(0, 10),
    lastFour: secret.slice(-4),
    permissions: input.permissions,
    expiresAt: input.expiresAt,
    revokedAt: null,
    createdBy: issuer?.tokenId ?? null,
    createdAt: nowIso(),
    lastUsedAt: null,
    replacedBy: null,
  };
  // The directory's row first: its id is the key's, in the shard's copy too (docs/shards.md, step 1).
  const id = await keys.register(row);
  const insert = db
    .insert(merchantApiTokens)
    .values({ ...row, id, modifiedAt: row.createdAt })
    .returning();
  return { secret, insert, id };
}

/** Runs a plan that creates key `id`; the directory's row is given back if the shard refuses it. */
async function runCreating<T>(keys: TokenDirectory, id: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    await keys.unregister(id);
    throw error;
  }
}

/**
 * Creates a key of store `appId` and answers it with its secret, once: the store must exist (404
 * `store_not_found`, a guard of the batch); the key, its `api_key.created` and its audit row (by
 * `audit`'s actor) land in one batch. The merchant's Create API Key, the platform's Issue Store Key
 * and `npm run token` all call it.
 */
export async function issueApiKey(
  db: Db,
  sink: EventSink,
  appId: number,
  issuer: KeyIssuer,
  input: IssueApiKey,
  audit: AuditContext | undefined,
  keys: TokenDirectory,
): Promise<ApiKeyWithSecret> {
  const permissions = input.permissions ?? [...PERMISSIONS];
  refuseEscalation(issuer, permissions);
  const expiresAt = expiryOf(issuer, input.expires_at);
  const { secret, insert, id } = await newKey(db, appId, issuer, { name: input.name, permissions, expiresAt }, keys);
  const plan = new BatchPlan(db).guard(
    sql`EXISTS (SELECT 1 FROM ${apps} WHERE ${apps.id} = ${appId})`,
    "store exists",
    ApiError.notFound("store_not_found", `Store ${appId}`),
  );
  const key = plan.insert("api_key", insert);
  auditCreated(plan, audit, KEY_AUDIT, { appId, action: "api_key.created", row: key });
  plan.event(keyEvent("api_key.created", sql`id = ${key.id}`));
  const row = (await runCreating(keys, id, () => plan.run(sink))).row<Row>(key);
  return { ...view(row), secret };
}

/** Create API Key: a key of the caller's store, with permissions the calling key holds. */
export const createApiKey = (ctx: ServiceContext, issuer: KeyIssuer, input: CreateApiKey, keys: TokenDirectory) =>
  issueApiKey(ctx.db, ctx.events, ctx.appId, issuer, input, ctx.audit, keys);

export const API_KEY_LIST: ListSpec = {
  fields: {
    id: { column: merchantApiTokens.id, kind: "integer" },
    name: { column: merchantApiTokens.name, kind: "string" },
    created_by: { column: merchantApiTokens.createdBy, kind: "integer", nullable: true },
    created_at: { column: merchantApiTokens.createdAt, kind: "datetime" },
    expires_at: { column: merchantApiTokens.expiresAt, kind: "datetime", nullable: true },
    last_used_at: { column: merchantApiTokens.lastUsedAt, kind: "datetime", nullable: true },
  },
  search: searchColumns(merchantApiTokens.name),
  searchDescription: "Matches the key's name.",
  defaultOrder: "-id",
  idColumn: merchantApiTokens.id,
  // Never deleted (a revoked key stays listed): no include_deleted.
  sync: { modifiedAt: merchantApiTokens.modifiedAt, softDeleted: false },
};

/** The keys in `status` at `now`, as a condition. */
function inStatus(status: ApiKeyStatus, now: string): SQL {
  const t = merchantApiTokens;
  if (status === "revoked") return isNotNull(t.revokedAt);
  if (status === "expired") return and(isNull(t.revokedAt), lte(t.expiresAt, now))!;
  return and(isNull(t.revokedAt), or(isNull(t.expiresAt), gt(t.expiresAt, now)))!;
}

/** List API Keys: the store's keys, newest first; `status` is computed at the time of the request. */
export async function listApiKeys(ctx: ServiceContext, q: ListQuery, status?: ApiKeyStatus): Promise<Page<ApiKey>> {
  const now = nowIso();
  const scope = () => and(eq(merchantApiTokens.appId, ctx.appId), status && inStatus(status, now))!;
  const page = await listPage(ctx.db, q, { table: merchantApiTokens, scope });
  return mapPage(page, (r) => view(r, now));
}

const ofStore = (ctx: ServiceContext, id: number) =>
  and(eq(merchantApiTokens.appId, ctx.appId), eq(merchantApiTokens.id, id))!;

async function findKey(ctx: ServiceContext, id: number): Promise<Row> {
  const row = await ctx.db.select().from(merchantApiTokens).where(ofStore(ctx, id)).get();
  if (!row) throw ApiError.notFound("api_key_not_found", `API key ${id}`);
  return row;
}

export const getApiKey = async (ctx: ServiceContext, id: number): Promise<ApiKey> => view(await findKey(ctx, id));

/** Why a key cannot be revoked or rotated now: 404, or 409 naming its status. */
async function keyRefusal(ctx: ServiceContext, id: number, action: "revoke" | "rotate"): Promise<ApiError> {
  const row = await findKey(ctx, id);
  const status = statusOf(row, nowIso());
  const allowed =
    status === "active" ? (row.replacedBy ? ["revoke"] : ["revoke", "rotate"]) : status === "expired" ? ["revoke"] : [];
  const what = row.replacedBy && status === "active" ? "rotated (valid until its expiry)" : status;
  return ApiError.invalidTransition(`API key ${id}`, what, action === "revoke" ? "revoked" : "rotated", allowed);
}

/**
 * Revoke API Key: refused at once in this isolate, within a second elsewhere (the held tokens,
 * core/auth.ts). A revoked key stays listed; revoking it again is a 409.
 */
export async function revokeApiKey(ctx: ServiceContext, id: number, keys: TokenDirectory): Promise<ApiKey> {
  const at = nowIso();
  const plan = new BatchPlan(ctx.db).guard(
    sql`EXISTS (SELECT 1 FROM ${merchantApiTokens} WHERE ${and(ofStore(ctx, id), isNull(merchantApiTokens.revokedAt))})`,
    "key not revoked",
    async () => keyRefusal(ctx, id, "revoke"),
  );
  auditedChange(
    plan,
    ctx.audit,
    KEY_AUDIT,
    { appId: ctx.appId, action: "api_key.revoked", where: ofStore(ctx, id), after: "audit" },
    [revokeMerchantTokenStatement(ctx.db, ctx.appId, id, at)],
  );
  const after = plan.read<Row>(ctx.db.select().from(merchantApiTokens).where(ofStore(ctx, id)));
  plan.event(keyEvent("api_key.revoked", ofStore(ctx, id)));
  // The directory's row (what the token check reads) beside the shard's batch: one wait.
  const [result] = await Promise.all([plan.run(ctx.events), keys.revoke(ctx.appId, id, at)]);
  forgetHeldTokens();
  return view(result.rows(after)[0]!);
}

/**
 * Rotate API Key: a new key (a new secret, the same name, permissions and expiry), and the old one
 * valid until now + the grace period (its expiry lowered to that, never raised). A key that was
 * rotated already, revoked or expired is a 409. Emits `api_key.created` and `api_key.rotated`, and
 * records both in the audit trail (the new key created, the old one before and after).
 */
export async function rotateApiKey(
  ctx: ServiceContext,
  issuer: KeyIssuer,
  id: number,
  input: RotateApiKey,
  keys: TokenDirectory,
): Promise<ApiKeyWithSecret> {
  const old = await findKey(ctx, id);
  refuseEscalation(issuer, old.permissions);
  const now = nowIso();
  const graceEnd = new Date(Date.parse(now) + input.grace_period_seconds * 1000).toISOString();
  const oldEnd = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
  const t = merchantApiTokens;
  const rotatable = and(
    ofStore(ctx, id),
    isNull(t.revokedAt),
    isNull(t.replacedBy),
    or(isNull(t.expiresAt), gt(t.expiresAt, now)),
  );
  const created = await newKey(
    ctx.db,
    ctx.appId,
    issuer,
    { name: old.name, permissions: old.permissions, expiresAt: old.expiresAt },
    keys,
  );
  const { secret, insert } = created;
  const plan = new BatchPlan(ctx.db).guard(
    sql`EXISTS (SELECT 1 FROM ${t} WHERE ${rotatable})`,
    "key rotatable",
    async () => keyRefusal(ctx, id, "rotate"),
  );
  const key = plan.insert("api_key", insert);
  auditCreated(plan, ctx.audit, KEY_AUDIT, { appId: ctx.appId, action: "api_key.created", row: key });
  auditedChange(
    plan,
    ctx.audit,
    KEY_AUDIT,
    { appId: ctx.appId, action: "api_key.rotated", where: ofStore(ctx, id), after: "audit" },
    [
      ctx.db
        .update(t)
        .set({ expiresAt: oldEnd, replacedBy: sql`${key.id}`, modifiedAt: now })
        .where(ofStore(ctx, id)),
    ],
  );
  plan.event(
    keyEvent("api_key.created", sql`id = ${key.id}`),
    keyEvent("api_key.rotated", ofStore(ctx, id), sql`, 'replaced_by', replaced_by, 'expires_at', expires_at`),
  );
  // The old key's new end and successor in the directory's row (what the token check reads), beside
  // the shard's batch.
  const [result] = await Promise.all([
    runCreating(keys, created.id, () => plan.run(ctx.events)),
    keys.rotated(ctx.appId, id, { expiresAt: oldEnd, replacedBy: created.id, now }),
  ]);
  forgetHeldTokens();
  return { ...view(result.row<Row>(key)), secret };
}
