import { asc, count, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { apps, organizations } from "../../../core/tenancy";
import { storeSettingsOf, storeSettingsQuery } from "../settings/service";
import { ORGANIZATION_APPS_MAX, type OrganizationConfig } from "./schemas";

/**
 * MA6: the organization that owns the store (the route has checked `org-id` against the token),
 * its apps, and the store's settings; one round trip.
 */
export async function organizationConfig(ctx: ServiceContext, orgId: number): Promise<OrganizationConfig> {
  const [orgRows, appRows, countRows, settingsRows] = await ctx.db.batch([
    ctx.db.select().from(organizations).where(eq(organizations.id, orgId)),
    ctx.db
      .select({ id: apps.id, name_en: apps.nameEn, name_ar: apps.nameAr })
      .from(apps)
      .where(eq(apps.orgId, orgId))
      .orderBy(asc(apps.id))
      .limit(ORGANIZATION_APPS_MAX),
    ctx.db.select({ n: count() }).from(apps).where(eq(apps.orgId, orgId)),
    storeSettingsQuery(ctx.db, ctx.appId),
  ]);
  const org = orgRows[0]!;
  const s = storeSettingsOf(ctx.appId, settingsRows);
  return {
    organization: { id: org.id, name: org.name, created_at: org.createdAt },
    apps: appRows,
    apps_count: countRows[0]?.n ?? 0,
    app_id: ctx.appId,
    settings: { currency: s.currency, default_lang: s.defaultLang, languages: s.languages, timezone: s.timezone },
  };
}
