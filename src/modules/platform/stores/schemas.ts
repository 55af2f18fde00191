import { z } from "@hono/zod-openapi";
import { humanText, nameText } from "../../../core/fields";
import { STORE_STATUSES } from "../../../core/tenancy";
import { MerchantSettingsSchema, SettingsFieldsSchema } from "../../account";

export const StoreSchema = z
  .object({
    id: z.number().int().openapi({ description: "The store's id: the `app-id` of its requests." }),
    organization_id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    status: z.enum(STORE_STATUSES),
    suspended_at: z.string().nullable().openapi({ format: "date-time" }),
    suspension_reason: z.string().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
    shard: z.string().openapi({
      description: "The database that holds the store's rows (a shard, as List Shards names it).",
      example: "SHARD_1",
    }),
  })
  .openapi("Store");

export type Store = z.infer<typeof StoreSchema>;

export const StoreDetailsSchema = StoreSchema.extend({
  settings: MerchantSettingsSchema,
}).openapi("StoreDetails");

export type StoreDetails = z.infer<typeof StoreDetailsSchema>;

export const CreateStoreSchema = z
  .object({
    organization_id: z.number().int().min(1).openapi({ description: "The organization that owns the store." }),
    name_en: nameText.openapi({ example: "Acme Coffee" }),
    name_ar: nameText.openapi({ example: "قهوة أكمي" }),
    shard: z
      .string()
      .regex(/^SHARD_[1-9]\d{0,3}$/, "A shard's name, as List Shards gives it (SHARD_1).")
      .optional()
      .openapi({
        description:
          "Pins the store to this shard, even one closed to new stores. Without it the store goes to the open " +
          "shard with the most room: the smallest measured size, then the fewest stores.",
        example: "SHARD_2",
      }),
    settings: SettingsFieldsSchema.omit({ name_en: true, name_ar: true })
      .partial()
      .strict()
      .optional()
      .openapi({
        description:
          "The store's first settings, as Update Merchant Settings takes them (currency, VAT number and rate, " +
          "time zone, languages, seller); the defaults for those not given.",
      }),
  })
  .strict()
  .openapi("CreateStore");

export type CreateStore = z.output<typeof CreateStoreSchema>;

export const SuspendStoreSchema = z
  .object({
    reason: humanText(500)
      .min(1, "Required; must not be empty.")
      .openapi({ description: "Why, as the store's merchant will read it in `store.suspended`." }),
  })
  .strict()
  .openapi("SuspendStore");
