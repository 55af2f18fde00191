import { z } from "@hono/zod-openapi";
import { nonEmpty } from "../../../core/fields";
import { CreateCustomerSchema, CustomerSchema } from "../records/schemas";
import { CUSTOMER_LANGS } from "../tables";

/** The customer's own profile: the customer object, with the app version the app reported. */
export const ProfileSchema = CustomerSchema.extend({
  platform_version: z
    .string()
    .nullable()
    .openapi({ description: "As the app last reported it (Update Platform Version).", example: "2.4.0" }),
}).openapi("CustomerProfile");

export type Profile = z.infer<typeof ProfileSchema>;

const own = CreateCustomerSchema.shape;

/** What the customer may change of themselves: not the mobile number (that is a new login), nor the flags. */
export const UpdateProfileSchema = nonEmpty(
  z
    .object({
      name: own.name,
      email: own.email,
      date_of_birth: own.date_of_birth,
      national_id: own.national_id,
      secondary_mobile_number: own.secondary_mobile_number,
      current_city_id: own.current_city_id,
      custom_fields: own.custom_fields,
    })
    .strict(),
).openapi("UpdateProfile");

export type UpdateProfile = z.infer<typeof UpdateProfileSchema>;

export const UpdateLanguageSchema = z
  .object({ lang: z.enum(CUSTOMER_LANGS) })
  .strict()
  .openapi("UpdateLanguage");

export const UpdateAvatarSchema = z
  .object({
    avatar: z
      .string()
      .url()
      .max(2048)
      .refine((u) => u.startsWith("https://"), "Must be an https URL.")
      .nullable()
      .openapi({
        description: "The https URL of the image, uploaded by the app to its own storage; null removes it.",
        example: "https://cdn.example.com/avatars/7.jpg",
      }),
  })
  .strict()
  .openapi("UpdateAvatar");

export const UpdatePlatformVersionSchema = z
  .object({
    platform_version: z
      .string()
      .trim()
      .regex(/^[\w .+()-]{1,50}$/, "Must be a version: up to 50 letters, digits, spaces and . + - ( ).")
      .openapi({ example: "2.4.0 (118)" }),
  })
  .strict()
  .openapi("UpdatePlatformVersion");
