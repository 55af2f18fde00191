import { z } from "@hono/zod-openapi";
import { nameText } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { BANK_ACCOUNT_STATUSES } from "../tables";
import { ibanProblem, normaliseIban } from "./iban";

export const BankAccountSchema = z
  .object({
    id: z.number().int(),
    bank_name_en: z.string(),
    bank_name_ar: z.string(),
    iban: z.string().openapi({
      description: "Masked: the country code, the check digits and the last 4 characters, in groups of 4.",
      example: "SA44 **** **** **** **** 1234",
    }),
    account_holder: z.string(),
    is_default: z.boolean().openapi({ description: "The store's account for bank transfers; one at most." }),
    status: z.enum(BANK_ACCOUNT_STATUSES),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("BankAccount");

export type BankAccount = z.infer<typeof BankAccountSchema>;

export const BankAccountListSchema = envelopeSchema(BankAccountSchema, "BankAccountList");

/** Spaces are allowed as printed (`SA44 2000 …`); stored without them, in upper case. */
const iban = z
  .string()
  .max(50)
  .transform((raw, ctx) => {
    const normal = normaliseIban(raw);
    const problem = ibanProblem(normal);
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    return normal;
  })
  .openapi({
    type: "string",
    maxLength: 50,
    description: "ISO 13616: the country's length and a valid mod-97 check; spaces are ignored.",
    example: "SA44 2000 0001 2345 6789 1234",
  });

const fields = {
  bank_name_en: nameText.openapi({ example: "Al Rajhi Bank" }),
  bank_name_ar: nameText.openapi({ example: "مصرف الراجحي" }),
  iban,
  account_holder: nameText.openapi({ example: "Demo Trading Co." }),
  is_default: z.boolean().openapi({
    description: "Make it the store's default account (the one before stops being it); an inactive one cannot be.",
  }),
  status: z.enum(BANK_ACCOUNT_STATUSES),
};

export const CreateBankAccountSchema = z
  .object({
    ...fields,
    is_default: fields.is_default
      .optional()
      .openapi({ description: "Defaults to true when the store has no default account yet." }),
    status: fields.status.optional().openapi({ description: "Defaults to `active`." }),
  })
  .strict()
  .refine((b) => !(b.is_default === true && b.status === "inactive"), {
    message: "An inactive account cannot be the default.",
    path: ["is_default"],
  })
  .openapi("CreateBankAccount");

export const UpdateBankAccountSchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .openapi("UpdateBankAccount");

export type CreateBankAccount = z.output<typeof CreateBankAccountSchema>;
export type UpdateBankAccount = z.output<typeof UpdateBankAccountSchema>;
