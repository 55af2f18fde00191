/**
 * XML written directly in its canonical form (Canonical XML 1.1, which the Security Features
 * Implementation Standard names for the invoice hash): namespace declarations first, sorted by
 * prefix, then attributes sorted by name; every element with an end tag; text escaped as the
 * canonical form escapes it; no whitespace between elements. What this writes hashes to the same
 * bytes as canonical.ts gives back for it, so a document never needs re-parsing to be hashed.
 */

export const NS = {
  invoice: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  ext: "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
  sig: "urn:oasis:names:specification:ubl:schema:xsd:CommonSignatureComponents-2",
  sac: "urn:oasis:names:specification:ubl:schema:xsd:SignatureAggregateComponents-2",
  sbc: "urn:oasis:names:specification:ubl:schema:xsd:SignatureBasicComponents-2",
  ds: "http://www.w3.org/2000/09/xmldsig#",
  xades: "http://uri.etsi.org/01903/v1.3.2#",
} as const;

export const escapeText = (s: string): string =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("\r", "&#xD;");

export const escapeAttr = (s: string): string =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll('"', "&quot;")
    .replaceAll("\t", "&#x9;")
    .replaceAll("\n", "&#xA;")
    .replaceAll("\r", "&#xD;");

export type Attrs = Record<string, string | undefined>;
/** Markup already written by `el`/`leaf`; `false`/`undefined` leave an optional part out. */
export type Child = string | false | undefined;

const isNs = (name: string) => name === "xmlns" || name.startsWith("xmlns:");

/** Canonical order: namespace declarations by prefix (the default first), then attributes by name. */
function attrsOf(attrs: Attrs | undefined): string {
  if (!attrs) return "";
  const entries = Object.entries(attrs).filter((e): e is [string, string] => e[1] !== undefined);
  const ns = entries.filter(([k]) => isNs(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const plain = entries.filter(([k]) => !isNs(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [...ns, ...plain].map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join("");
}

/** An element whose children are markup. */
export const el = (name: string, attrs: Attrs | undefined, ...children: Child[]): string =>
  `<${name}${attrsOf(attrs)}>${children.filter((c) => typeof c === "string").join("")}</${name}>`;

/** An element holding text. */
export const leaf = (name: string, value: string, attrs?: Attrs): string =>
  `<${name}${attrsOf(attrs)}>${escapeText(value)}</${name}>`;
