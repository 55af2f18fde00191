import { z } from "@hono/zod-openapi";
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

/** For routes that need a tenant but no token (public reads). */
export const tenant = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  readTenant(c);
  await next();
};

/** The headers every operation takes, for the OpenAPI document. */
export const tenantHeaders = z.object({
  "app-id": z.string().openapi({ description: "The store (app) id.", example: "1", type: "integer" }),
});

export const tenantOrgHeaders = tenantHeaders.extend({
  "org-id": z.string().openapi({ description: "The organization that owns the app.", example: "1", type: "integer" }),
});
