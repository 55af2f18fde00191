import { z } from "@hono/zod-openapi";
import { customFields, humanText, isoDate, NAME_MAX, nonEmpty } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { CUSTOMER_LANGS } from "../tables";

/**
 * The customer object as the peer embeds it in orders, invoices and subscriptions (design
 * reference 1.1), plus `created_at` and `modified_at`.
 */
export const CustomerSchema = z
  .object({
    id: z.number().int(),
    country_code: z.string().openapi({ description: "Calling code, digits only.", example: "966" }),
    username: z
      .string()
      .openapi({ description: "The mobile number in its national form, digits only.", example: "0534501056" }),
    mobile_number: z
      .string()
      .openapi({ description: "The mobile number in E.164, digits only (no +).", example: "966534501056" }),
    email: z.string().nullable().openapi({ example: "sara@example.com" }),
    name: z.string().nullable().openapi({ example: "Sara Al-Qahtani" }),
    lang: z.enum(CUSTOMER_LANGS),
    current_city_id: z.number().int().nullable(),
    is_email_verified: z.boolean(),
    is_mobile_verified: z.boolean(),
    is_blocked: z.boolean().openapi({ description: "A blocked customer cannot log in to the customer app." }),
    is_deleted: z.boolean(),
    is_verified: z.boolean().openapi({ description: "The same as `is_mobile_verified`." }),
    national_id: z.string().nullable(),
    secondary_mobile_number: z.string().nullable().openapi({ description: "E.164 digits, as `mobile_number`." }),
    date_of_birth: z.string().nullable().openapi({ format: "date", example: "1994-03-21" }),
    avatar: z.string().nullable().openapi({ example: "https://cdn.example.com/avatars/7.jpg" }),
    joined_at: z.string().openapi({ format: "date-time" }),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Customer");

export type Customer = z.infer<typeof CustomerSchema>;

export const CustomerListSchema = envelopeSchema(CustomerSchema, "CustomerList");

const countryCode = z
  .string()
  .regex(/^\+?\d{1,4}$/, 'Must be a calling code, digits only ("966").')
  .openapi({ description: "The calling code of the mobile number's country.", example: "966" });

const phoneText = z
  .string()
  .trim()
  .min(4, "Must be a phone number.")
  .max(24)
  .regex(/^[\d\s+().-]+$/, "Must be a phone number: digits, optionally with + and spaces.");

const customerFields = {
  name: humanText(NAME_MAX).min(1, "Must not be empty.").nullable(),
  email: z.string().trim().max(254).email().nullable().openapi({ example: "sara@example.com" }),
  lang: z.enum(CUSTOMER_LANGS),
  date_of_birth: isoDate
    .refine((d) => d <= new Date().toISOString().slice(0, 10), "Must not be in the future.")
    .nullable(),
  national_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{4,20}$/, "Must be 4 to 20 letters or digits.")
    .nullable()
    .openapi({ example: "1098765432" }),
  secondary_mobile_number: phoneText.nullable().openapi({
    description: "Another mobile number of the same country, in any form; served as E.164 digits.",
    example: "0551234567",
  }),
  current_city_id: z.number().int().min(1).nullable().openapi({ description: "A city of the geography lists." }),
  avatar: z
    .string()
    .url()
    .max(2048)
    .refine((u) => u.startsWith("https://"), "Must be an https URL.")
    .nullable()
    .openapi({ example: "https://cdn.example.com/avatars/7.jpg" }),
  custom_fields: customFields,
};

export const CreateCustomerSchema = z
  .object({
    country_code: countryCode,
    mobile_number: phoneText.openapi({
      description: 'A mobile number of that country in any form ("0534501056", "+966 53 450 1056").',
      example: "0534501056",
    }),
    ...customerFields,
  })
  .partial({
    name: true,
    email: true,
    lang: true,
    date_of_birth: true,
    national_id: true,
    secondary_mobile_number: true,
    current_city_id: true,
    avatar: true,
    custom_fields: true,
  })
  .strict()
  .openapi("CreateCustomer");

export const UpdateCustomerSchema = nonEmpty(
  z
    .object({
      country_code: countryCode,
      mobile_number: phoneText.openapi({ example: "0534501056" }),
      ...customerFields,
      is_blocked: z.boolean(),
    })
    .partial()
    .strict(),
).openapi("UpdateCustomer");

export type CreateCustomer = z.infer<typeof CreateCustomerSchema>;
export type UpdateCustomer = z.infer<typeof UpdateCustomerSchema>;
