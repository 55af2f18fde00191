import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Context, MiddlewareHandler } from "hono";
import { forgetHeldStore, storeEntry } from "../db/shards";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";
import { addedModifiedAt } from "./sql";

/** An organization owns one or more apps (stores). */
export const organizations = sqliteTable("organizations", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
  /** List Organizations syncs on it. */
  modifiedAt: addedModifiedAt(),
});

export const STORE_STATUSES = ["active", "suspended"] as const;

/**
 * An app is a store: the tenant that `app-id` names and that every tenant-owned row carries. A
 * suspended store (`suspended_at` set by the platform) keeps its rows; its requests are refused.
 */
export const apps = sqliteTable(
  "apps",
  {
    id: integer("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => organizations.id),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    createdAt: text("created_at").notNull(),
    /** The directory's copy carries the same (db/directory-schema.ts): a store's view shows it. */
    modifiedAt: addedModifiedAt(),
    suspendedAt: text("suspended_at"),
    suspensionReason: text("suspension_reason"),
    /** Derived from `suspended_at`, so that lists filter on it as on any column. */
    status: text("status", { enum: STORE_STATUSES }).generatedAlwaysAs(
      sql`CASE WHEN suspended_at IS NULL THEN 'active' ELSE 'suspended' END`,
      { mode: "virtual" },
    ),
  },
  (t) => [index("apps_org_idx").on(t.orgId, t.id)],
);

const INT_HEADER = /^[1-9]\d{0,15}$/;

function intHeader(c: Context<AppEnv>, name: string): number | null {
  const raw = c.req.header(name);
  if (raw === undefined || raw.trim() === "") return null;
  const v = raw.trim();
  if (!INT_HEADER.test(v) || !Number.isSafeInteger(Number(v))) {
    throw new ApiError(400, "invalid_header", `The \`${name}\` header must be a positive integer.`, {
      errors: { [name]: ["Must be a positive integer."] },
    });
  }
  return Number(v);
}

/** Reads `app-id` (required) and `org-id` (optional) into the context. */
export function readTenant(c: Context<AppEnv>): number {
  const appId = intHeader(c, "app-id");
  if (appId === null) {
    throw new ApiError(400, "missing_app_id", "The `app-id` header is required: send the id of the store.", {
      errors: { "app-id": ["Required."] },
    });
  }
  c.set("appId", appId);
  c.set("orgId", intHeader(c, "org-id"));
  return appId;
}

/**
 * How long an isolate holds what it read of a merchant token or a store (a revocation, a
 * suspension): a second. The isolate that makes the change forgets what it held at once.
 */
export const TOKEN_HOLD_MS = 1000;

/** Forgets what this isolate held of a store, so that its suspension or reactivation shows at once here. */
export function forgetHeldApp(appId: number): void {
  forgetHeldStore(appId);
}

/** The 403 of every request to a suspended store: merchant, customer and public alike. */
export const appSuspended = (appId: number) =>
  ApiError.forbidden(
    `Store ${appId} is suspended: its data is kept, but it serves no request until the platform reactivates it. ` +
      "Contact the platform operator.",
    "app_suspended",
  );

/**
 * `app-id` must name a store: a 404 `app_not_found` otherwise, not an empty page; a suspended
 * store is a 403 `app_suspended`. Read in the directory, held per isolate and store for at most
 * TOKEN_HOLD_MS. A missing or malformed `app-id` throws at once (400); the store's read is the promise's.
 */
function checkStore(c: Context<AppEnv>): Promise<void> {
  const appId = readTenant(c);
  return (async () => {
    // The directory's row, which the request's db session read to find the store's shard (db/session.ts).
    const entry = await (c.get("storeEntry") ?? storeEntry(c.env, appId));
    if (!entry) throw new ApiError(404, "app_not_found", `No store has the id ${appId}; check the \`app-id\` header.`);
    if (entry.suspendedAt !== null) throw appSuspended(appId);
    // A customer token's shard claim chose where the request runs (db/session.ts); a store moved since
    // the token was issued is refused as an expired token, which the app refreshes on the right shard.
    if (c.get("shard") !== undefined && entry.shard !== c.get("shard"))
      throw ApiError.unauthorized("The access token names the store's former database; refresh it.", "token_expired");
  })();
}

/** The store check before the route goes on: public routes (a merchant token's read joins its store). */
export const knownApp = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await checkStore(c);
  await next();
};

/**
 * The store check started, not awaited: customer routes read it beside the customer's standing
 * (`authenticate` awaits it before any answer of its own, so its 404/403 still come first).
 */
export const knownAppBeside = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const check = checkStore(c);
  // Awaited by authenticate; until then a refusal is not an unhandled rejection.
  check.catch(() => undefined);
  c.set("storeCheck", check);
  await next();
};

/** A positive integer header, as `intHeader` reads it (the zod schema only carries the document's words). */
const intHeaderDoc = (description: string) =>
  z.string().openapi({ description, type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, example: 1 });

/** The headers every operation takes, for the OpenAPI document. */
export const tenantHeaders = z.object({ "app-id": intHeaderDoc("The store (app) id.") });

export const tenantOrgHeaders = tenantHeaders.extend({ "org-id": intHeaderDoc("The organization that owns the app.") });
