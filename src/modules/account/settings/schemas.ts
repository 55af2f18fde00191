import { z } from "@hono/zod-openapi";
import { humanText, NAME_MAX, nameText } from "../../../core/fields";
import { minorOfMajor } from "../../../core/money";
import { STORE_LANGUAGES } from "../tables";

/**
 * The currencies a store may price in. Money is kept in minor units of two decimals everywhere
 * (core/money.ts), so only two-decimal ISO 4217 currencies are offered: KWD, BHD, OMR, JOD and
 * TND have three and are refused by name.
 */
export const STORE_CURRENCIES = ["SAR", "AED", "QAR", "EGP", "USD", "EUR", "GBP"] as const;
const THREE_DECIMAL_CURRENCIES = new Set(["KWD", "BHD", "OMR", "JOD", "TND", "IQD", "LYD"]);

const currency = z
  .string()
  .superRefine((code, ctx) => {
    if ((STORE_CURRENCIES as readonly string[]).includes(code)) return;
    const message = THREE_DECIMAL_CURRENCIES.has(code)
      ? `${code} has 3 decimal places; amounts here have 2, so the store may use one of: ${STORE_CURRENCIES.join(", ")}.`
      : `Must be one of: ${STORE_CURRENCIES.join(", ")} (ISO 4217, upper case).`;
    ctx.addIssue({ code: "custom", message });
  })
  .openapi({
    type: "string",
    enum: [...STORE_CURRENCIES],
    description: "ISO 4217. Only currencies with 2 decimal places (amounts are kept in hundredths).",
    example: "SAR",
  });

/** A VAT rate in percent, at most 2 decimals → basis points (15.5 → 1550). */
const vatPercentage = z
  .number()
  .min(0)
  .max(100)
  .transform((n, ctx) => {
    const bp = minorOfMajor(n, 2);
    if (bp === null) {
      ctx.addIssue({ code: "custom", message: "At most 2 decimals." });
      return z.NEVER;
    }
    return bp;
  })
  .openapi({ type: "number", minimum: 0, maximum: 100, description: "Percent, at most 2 decimals.", example: 15 });

/** The Saudi VAT registration number (ZATCA): 15 digits, the first and the last a 3. */
export const vatNumber = z
  .string()
  .trim()
  .regex(/^3\d{13}3$/, "Must be 15 digits that start and end with 3 (a Saudi VAT number).")
  .openapi({ example: "300000000000003" });

/**
 * An IANA time zone name, as the runtime's time zone database knows it; stored in its canonical
 * spelling. UTC offsets (`+03:00`) are refused: they do not follow daylight saving time.
 */
const timezone = z
  .string()
  .trim()
  .max(64)
  .transform((name, ctx) => {
    const canonical = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) ? canonicalZone(name) : null;
    if (!canonical) {
      ctx.addIssue({ code: "custom", message: "Must be an IANA time zone name, such as Asia/Riyadh." });
      return z.NEVER;
    }
    return canonical;
  })
  .openapi({ type: "string", maxLength: 64, example: "Asia/Riyadh" });

function canonicalZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const httpsUrl = z
  .string()
  .url()
  .max(2048)
  .refine((u) => u.startsWith("https://"), "Must be an https URL.");
const text = (max: number) => humanText(max).min(1, "Must not be empty; send null to clear it.");

/**
 * The seller's Saudi national address, as ZATCA e-invoices carry it (BR-KSA-09: street, building
 * number, postal code, city, district; BR-KSA-37: a 4-digit building number; BR-KSA-66: a 5-digit
 * postal code).
 */
export const nationalAddressFields = {
  street: humanText(127).min(1, "Must not be empty.").openapi({ example: "King Fahd Road" }),
  building_number: z
    .string()
    .regex(/^\d{4}$/, "Must be the 4 digits of a Saudi national address's building number.")
    .openapi({ example: "1234" }),
  district: humanText(127).min(1, "Must not be empty.").openapi({ example: "Al Olaya" }),
  city: humanText(127).min(1, "Must not be empty.").openapi({ example: "Riyadh" }),
  postal_code: z
    .string()
    .regex(/^\d{5}$/, "Must be the 5 digits of a Saudi postal code.")
    .openapi({ example: "12211" }),
};

const SellerAddressSchema = z
  .object(nationalAddressFields)
  .strict()
  .openapi("SellerAddress", {
    description: "The seller's national address on ZATCA e-invoices.",
    example: {
      street: "King Fahd Road",
      building_number: "1234",
      district: "Al Olaya",
      city: "Riyadh",
      postal_code: "12211",
    },
  });

const languages = z
  .array(z.enum(STORE_LANGUAGES))
  .min(1)
  .max(STORE_LANGUAGES.length)
  .refine((l) => new Set(l).size === l.length, "Languages must not repeat.")
  .openapi({ uniqueItems: true, example: ["ar", "en"] });

export const MerchantSettingsSchema = z
  .object({
    name_en: z.string().openapi({ description: "The store's name; the app's name until set." }),
    name_ar: z.string(),
    logo: z.string().nullable().openapi({ description: "An https URL of the store's logo." }),
    currency: z.string().openapi({ example: "SAR" }),
    default_lang: z.enum(STORE_LANGUAGES),
    languages: z.array(z.enum(STORE_LANGUAGES)),
    timezone: z.string().openapi({ example: "Asia/Riyadh" }),
    vat_percentage: z.number().openapi({ description: "Percent; prices include it.", example: 15 }),
    vat_number: z.string().nullable().openapi({ example: "300000000000003" }),
    seller_name: z.string().nullable().openapi({
      description: "The seller named on tax invoices and in their ZATCA QR; null uses the store's Arabic name.",
    }),
    commercial_registration: z.string().nullable().openapi({ example: "1010010000" }),
    address: z.string().nullable(),
    seller_address: SellerAddressSchema.nullable(),
    modified_at: z
      .string()
      .nullable()
      .openapi({ format: "date-time", description: "Null while the store has never changed its settings." }),
  })
  .openapi("MerchantSettings");

export type MerchantSettings = z.infer<typeof MerchantSettingsSchema>;

/** Every setting a merchant (or the platform, creating a store) may give, each checked. */
export const SettingsFieldsSchema = z.object({
  name_en: nameText,
  name_ar: nameText,
  logo: httpsUrl.nullable(),
  currency,
  default_lang: z.enum(STORE_LANGUAGES).openapi({ description: "One of `languages`." }),
  languages: languages.openapi({ description: "The languages the store serves; they include `default_lang`." }),
  timezone,
  vat_percentage: vatPercentage,
  vat_number: vatNumber.nullable(),
  seller_name: text(NAME_MAX).nullable(),
  commercial_registration: text(30).nullable(),
  address: text(500).nullable(),
  seller_address: SellerAddressSchema.nullable(),
});

export const UpdateMerchantSettingsSchema = SettingsFieldsSchema.partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .openapi("UpdateMerchantSettings");

export type UpdateMerchantSettings = z.output<typeof UpdateMerchantSettingsSchema>;
