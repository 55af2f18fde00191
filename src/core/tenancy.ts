import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";

/** An organization owns one or more apps (stores). */
export const organizations = sqliteTable("organizations", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
});

/** An app is a store: the tenant that `app-id` names and that every tenant-owned row carries. */
export const apps = sqliteTable("apps", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id")
    .notNull()
    .references(() => organizations.id),
  nameEn: text("name_en").notNull(),
  nameAr: text("name_ar").notNull(),
  createdAt: text("created_at").notNull(),
});

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

/** Stores known to exist, per isolate: a store is never deleted, so a hit never goes stale. */
const knownApps = new Set<number>();

/**
 * `app-id` must name a store: a 404 `app_not_found` otherwise, not an empty page. Checked once
 * per isolate and store; for public and customer routes (a merchant token names its own store).
 */
export const knownApp = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const appId = readTenant(c);
  if (!knownApps.has(appId)) {
    const row = await c.get("db").select({ id: apps.id }).from(apps).where(eq(apps.id, appId)).get();
    if (!row) throw new ApiError(404, "app_not_found", `No store has the id ${appId}; check the \`app-id\` header.`);
    knownApps.add(appId);
  }
  await next();
};

/** A positive integer header, as `intHeader` reads it (the zod schema only carries the document's words). */
const intHeaderDoc = (description: string) =>
  z.string().openapi({ description, type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, example: 1 });

/** The headers every operation takes, for the OpenAPI document. */
export const tenantHeaders = z.object({ "app-id": intHeaderDoc("The store (app) id.") });

export const tenantOrgHeaders = tenantHeaders.extend({ "org-id": intHeaderDoc("The organization that owns the app.") });
