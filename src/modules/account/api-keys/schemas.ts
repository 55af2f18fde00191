import { z } from "@hono/zod-openapi";
import { isoDateTime, nameText } from "../../../core/fields";
import { PERMISSIONS } from "../../../core/permissions";

export const API_KEY_STATUSES = ["active", "revoked", "expired"] as const;
/** How long a rotated key keeps working by default (a day), and at most (a week). */
export const ROTATION_GRACE_DEFAULT_S = 86_400;
export const ROTATION_GRACE_MAX_S = 604_800;

const permissions = z
  .array(z.enum(PERMISSIONS))
  .min(1)
  .max(PERMISSIONS.length)
  .refine((p) => new Set(p).size === p.length, "Permissions must not repeat.")
  .openapi({ uniqueItems: true, example: ["can_read_order", "can_read_item"] });

export const ApiKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().openapi({ description: "The secret's first 10 characters.", example: "cmk_Xy12ab" }),
    last_four: z
      .string()
      .nullable()
      .openapi({ description: "The secret's last 4 characters (null for keys made before they were kept)." }),
    permissions: z.array(z.enum(PERMISSIONS)),
    created_by: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The key that created this one; null when the platform issued it." }),
    created_at: z.string().openapi({ format: "date-time" }),
    expires_at: z.string().nullable().openapi({ format: "date-time", description: "Null: it never expires." }),
    revoked_at: z.string().nullable().openapi({ format: "date-time" }),
    last_used_at: z
      .string()
      .nullable()
      .openapi({ format: "date-time", description: "Within a minute: written at most once a minute." }),
    replaced_by: z.number().int().nullable().openapi({ description: "The key a rotation replaced this one with." }),
    status: z.enum(API_KEY_STATUSES),
    modified_at: z.string().openapi({
      format: "date-time",
      description:
        "Moves when the key is revoked, rotated or used (`last_used_at`); not when it expires (no write: " +
        "`status` turns `expired` at `expires_at`).",
    }),
  })
  .openapi("ApiKey");

export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyWithSecretSchema = ApiKeySchema.extend({
  secret: z.string().openapi({
    description:
      "The key itself (`cmk_…`), shown this once: only its hash is kept. Send it as `Authorization: Bearer`.",
  }),
}).openapi("ApiKeyWithSecret");

export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecretSchema>;

export const CreateApiKeySchema = z
  .object({
    name: nameText.openapi({ example: "Back office" }),
    permissions: permissions.openapi({ description: "What the key may do; only permissions the calling key holds." }),
    expires_at: isoDateTime
      .nullable()
      .optional()
      .openapi({
        description:
          "In the future, and not past the calling key's own expiry (its expiry when omitted, if it has one). " +
          "Null or omitted: never, when the calling key never expires.",
      }),
  })
  .strict()
  .openapi("CreateApiKey");

export type CreateApiKey = z.output<typeof CreateApiKeySchema>;

/**
 * The platform issues a store's key with every permission unless told otherwise. A schema of its own
 * (Create API Key's fields, spread), not `.extend()`: the document would write an extension as an
 * `allOf` of two closed objects, which no body satisfies.
 */
export const IssueApiKeySchema = z
  .object({
    ...CreateApiKeySchema.shape,
    permissions: permissions.optional().openapi({ description: "Every permission when omitted." }),
  })
  .strict()
  .openapi("IssueApiKey");

export type IssueApiKey = z.output<typeof IssueApiKeySchema>;

export const RotateApiKeySchema = z
  .object({
    grace_period_seconds: z
      .number()
      .int()
      .min(0)
      .max(ROTATION_GRACE_MAX_S)
      .default(ROTATION_GRACE_DEFAULT_S)
      .openapi({ description: "How long the old key keeps working; 0 stops it at once.", example: 3600 }),
  })
  .strict()
  .openapi("RotateApiKey");

export type RotateApiKey = z.output<typeof RotateApiKeySchema>;
