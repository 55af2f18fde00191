import { z } from "@hono/zod-openapi";
import { STORE_LANGUAGES } from "../tables";

/** At most this many of the organization's apps are listed (`apps_count` tells how many it has). */
export const ORGANIZATION_APPS_MAX = 100;

export const OrganizationConfigSchema = z
  .object({
    organization: z.object({
      id: z.number().int(),
      name: z.string(),
      created_at: z.string().openapi({ format: "date-time" }),
    }),
    apps: z
      .array(z.object({ id: z.number().int(), name_en: z.string(), name_ar: z.string() }))
      .openapi({ description: `The organization's apps (stores), oldest first; at most ${ORGANIZATION_APPS_MAX}.` }),
    apps_count: z.number().int().openapi({ description: "How many apps the organization has." }),
    app_id: z.number().int().openapi({ description: "The store of `app-id`, which `settings` describes." }),
    settings: z
      .object({
        currency: z.string().openapi({ example: "SAR" }),
        default_lang: z.enum(STORE_LANGUAGES),
        languages: z.array(z.enum(STORE_LANGUAGES)),
        timezone: z.string().openapi({ example: "Asia/Riyadh" }),
      })
      .openapi({ description: "The settings of the store of `app-id` (Merchant Settings has them all)." }),
  })
  .openapi("OrganizationConfig");

export type OrganizationConfig = z.infer<typeof OrganizationConfigSchema>;
