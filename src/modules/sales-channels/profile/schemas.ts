import { z } from "@hono/zod-openapi";
import { humanText, NAME_MAX, nonEmpty, type TextKind } from "../../../core/fields";

export const CITIES_MAX = 200;
const DESCRIPTION_MAX = 5000;

const City = z.object({ id: z.number().int(), name_en: z.string(), name_ar: z.string() });

const ContactSchema = z
  .object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    website: z.string().nullable(),
  })
  .openapi("ChannelProfileContact");

export const ChannelProfileSchema = z
  .object({
    app_id: z.number().int(),
    name_en: z
      .string()
      .openapi({ description: "The profile's name, else the store's (its settings', else its app's)." }),
    name_ar: z.string(),
    logo: z.string().nullable().openapi({ description: "The profile's logo, else the store's." }),
    description_en: z.string().nullable(),
    description_ar: z.string().nullable(),
    is_listed: z.boolean().openapi({ description: "Other stores may find this store as a channel or a provider." }),
    contact: ContactSchema,
    supported_cities: z.array(City).openapi({
      description: "The cities the store sells in (as a channel) or delivers to (as a provider).",
    }),
    modified_at: z.string().nullable().openapi({ format: "date-time", description: "Null until the first change." }),
  })
  .openapi("ChannelProfile");
export type ChannelProfile = z.infer<typeof ChannelProfileSchema>;

/** Null clears a field (a name or logo then falls back to the store's own). */
const optional = (max: number, example?: string, kind: TextKind = "line") =>
  humanText(max, kind)
    .min(1, "Must not be empty; send null to clear it.")
    .nullable()
    .optional()
    .openapi(example === undefined ? {} : { example });

export const UpdateChannelProfileSchema = nonEmpty(
  z
    .object({
      name_en: optional(NAME_MAX, "Green Kitchen Marketplace"),
      name_ar: optional(NAME_MAX),
      logo: optional(2000),
      description_en: optional(DESCRIPTION_MAX, undefined, "lines"),
      description_ar: optional(DESCRIPTION_MAX, undefined, "lines"),
      is_listed: z.boolean().optional(),
      contact: z
        .object({
          name: optional(NAME_MAX),
          email: z.string().trim().max(254).email("Must be an email address.").nullable().optional(),
          phone: z
            .string()
            .trim()
            .regex(/^\+?[0-9 ()-]{5,30}$/, "Must be a phone number: digits, spaces, (, ), - and a leading +.")
            .nullable()
            .optional(),
          website: z.string().trim().max(2000).url("Must be a URL.").nullable().optional(),
        })
        .strict()
        .optional()
        .openapi({ description: "The fields given change; the others stay." }),
      supported_city_ids: z
        .array(z.number().int().positive())
        .max(CITIES_MAX)
        .refine((ids) => new Set(ids).size === ids.length, "Ids must not repeat.")
        .optional()
        .openapi({ uniqueItems: true, description: "Replaces the list: ids of the shared geography's cities." }),
    })
    .strict(),
).openapi("UpdateChannelProfile", { example: { name_en: "Green Kitchen Marketplace", is_listed: true } });
export type UpdateChannelProfile = z.output<typeof UpdateChannelProfileSchema>;
