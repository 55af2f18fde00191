// The `mobile` metadata: the full rules for mobile numbers only (about 95 KB against 145 KB for
// `max`), so `isValid()` is true only for a number a mobile operator of the country could assign.
// It is read from the static assets on first use (scripts/docs-assets.ts copies it there), not
// bundled: about 23 KiB of the gzipped bundle, for a file only phone-number writes need.
import {
  getCountries,
  getCountryCallingCode,
  type MetadataJson,
  parsePhoneNumberFromString,
} from "libphonenumber-js/core";
import { assetLoader } from "../../core/assets";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";

/** The asset's path (scripts/docs-assets.ts writes it from libphonenumber-js's `metadata.mobile.json`). */
export const PHONE_METADATA_PATH = "/phone-metadata/mobile.json";

/** The numbering plans, with the calling codes they know (the parser throws on any other). */
export type PhoneRules = { metadata: MetadataJson; callingCodes: Set<string> };

const loadPhoneRules = assetLoader(PHONE_METADATA_PATH, (json): PhoneRules => {
  const metadata = json as MetadataJson;
  return { metadata, callingCodes: new Set(getCountries(metadata).map((c) => getCountryCallingCode(c, metadata))) };
});

/** The numbering plans, through the request's ASSETS binding. */
export function phoneRules(ctx: Pick<ServiceContext, "assets">): Promise<PhoneRules> {
  if (!ctx.assets) throw new Error("Parsing a phone number needs the ASSETS binding in the service context.");
  return loadPhoneRules(ctx.assets);
}

/** A mobile number in the forms the module stores and echoes. */
export type ParsedMobile = {
  /** The calling code, digits only ("966"). */
  countryCode: string;
  /** E.164 digits without "+" ("966534501056"): what `customers.mobile_number` stores. */
  e164: string;
  /** The national form, digits only ("0534501056"): the customer's `username`. */
  national: string;
};

/** Why a number was refused, as the field message of a 400. */
export type MobileProblem = { field: "country_code" | "mobile_number"; message: string };

const CALLING_CODE = /^\+?(\d{1,4})$/;

/**
 * Parses a mobile number the way people type it ("0534501056", "534501056", "966534501056",
 * "+966 53 450 1056", "00966534501056") against the calling code of its country, and says why
 * when it is not a valid mobile number of that country. The non-throwing form of `parseMobile`.
 */
export function tryParseMobile(
  rules: PhoneRules,
  country_code: string,
  mobile_number: string,
): ParsedMobile | MobileProblem {
  const cc = CALLING_CODE.exec(country_code.trim())?.[1];
  if (!cc) return { field: "country_code", message: 'Must be a calling code, digits only ("966").' };
  if (!rules.callingCodes.has(cc)) {
    return { field: "country_code", message: 'Is not the calling code of any country (Saudi Arabia\'s is "966").' };
  }
  const text = mobile_number.trim().replace(/^00/, "+");
  if (!/^\+?[\d\s().-]{4,24}$/.test(text)) {
    return { field: "mobile_number", message: "Must be a phone number: digits, optionally with + and spaces." };
  }
  const parsed = parsePhoneNumberFromString(text, { defaultCallingCode: cc }, rules.metadata);
  if (!parsed || parsed.countryCallingCode !== cc) {
    return { field: "mobile_number", message: `Must be a mobile number of calling code +${cc}.` };
  }
  if (!parsed.isValid()) {
    return { field: "mobile_number", message: `Is not a valid mobile number for calling code +${cc}.` };
  }
  return {
    countryCode: cc,
    e164: parsed.number.slice(1),
    national: parsed.formatNational().replace(/\D/g, ""),
  };
}

/**
 * `tryParseMobile` or a 400 `validation_error` naming the field. `fields` renames the fields of
 * the error when the body calls them otherwise (a secondary number, a login's `phone`).
 */
export async function parseMobile(
  ctx: Pick<ServiceContext, "assets">,
  country_code: string,
  mobile_number: string,
  fields: { country_code?: string; mobile_number?: string } = {},
): Promise<ParsedMobile> {
  const result = tryParseMobile(await phoneRules(ctx), country_code, mobile_number);
  if ("e164" in result) return result;
  const field = fields[result.field] ?? result.field;
  throw ApiError.validation({ [field]: [result.message] }, `The mobile number is not valid: ${result.message}`);
}

/**
 * A phone number as a courier's label prints it, in international form ("+966 53 450 1056"),
 * whatever form an address stored it in ("0534501056", "966534501056", "00966…", "+966 53…"); a
 * number without a calling code is taken as `defaultCallingCode`'s. Text that is no possible number
 * is printed as it was stored: a label never hides what the customer typed.
 */
export function formatPhoneInternational(rules: PhoneRules, phone: string, defaultCallingCode = "966"): string {
  const text = phone.trim().replace(/^00/, "+");
  const digits = text.replace(/\D/g, "");
  const candidates = [
    parsePhoneNumberFromString(text, { defaultCallingCode }, rules.metadata),
    // "966534501056": the calling code written without its "+".
    text.startsWith("+") || text.startsWith("0") ? undefined : parsePhoneNumberFromString(`+${digits}`, rules.metadata),
  ];
  const parsed = candidates.find((p) => p?.isValid()) ?? candidates.find((p) => p?.isPossible());
  return parsed ? parsed.formatInternational() : phone.trim();
}
