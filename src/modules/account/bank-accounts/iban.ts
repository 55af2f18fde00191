/**
 * IBANs (ISO 13616): the length each country's format has (the SWIFT IBAN registry), the mod-97
 * check, the normal form (no spaces, upper case) and the masked form the API serves.
 */
// Country code and length, as the registry lists them.
const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  [
    "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18",
    "DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28 IE22 IL23",
    "IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27",
    "MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19",
    "SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30",
  ]
    .join(" ")
    .split(" ")
    .map((e) => [e.slice(0, 2), Number(e.slice(2))]),
);

/** Spaces removed, upper case: the form stored and compared. */
export const normaliseIban = (raw: string): string => raw.replace(/\s+/g, "").toUpperCase();

/** The remainder mod 97 of the IBAN read as a number, its first four characters moved to the end. */
function mod97(iban: string): number {
  let rest = 0;
  for (const ch of iban.slice(4) + iban.slice(0, 4)) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55); // A = 10 … Z = 35
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
}

/** Why a normalised IBAN is not valid, in plain words; null when it is. */
export function ibanProblem(iban: string): string | null {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban))
    return "Must be an IBAN: a country code, 2 check digits, then letters and digits.";
  const length = IBAN_LENGTHS.get(iban.slice(0, 2));
  if (length === undefined) return `${iban.slice(0, 2)} is not a country that issues IBANs.`;
  if (iban.length !== length)
    return `A ${iban.slice(0, 2)} IBAN has ${length} characters; this one has ${iban.length}.`;
  if (mod97(iban) !== 1) return "The check digits do not match: the IBAN is mistyped.";
  return null;
}

/**
 * The IBAN as served: in groups of four, every character but the country code, the check digits
 * and the last four masked (`SA44 **** **** **** **** 1234`).
 */
export function maskIban(iban: string): string {
  const masked = iban.slice(0, 4) + "*".repeat(Math.max(0, iban.length - 8)) + iban.slice(Math.max(4, iban.length - 4));
  return masked.replace(/(.{4})(?=.)/g, "$1 ");
}
