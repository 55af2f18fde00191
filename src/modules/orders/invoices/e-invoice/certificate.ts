/**
 * What the cryptographic stamp needs from the CSID's X.509 certificate and from the unit's key:
 * the issuer's name and the serial number (XAdES IssuerSerial), the public key (QR tag 8, the
 * certificate's SubjectPublicKeyInfo in DER), the CA's signature of the certificate (QR tag 9) and
 * the expiry (renewal): a few fixed positions of RFC 5280's structure, read with der.ts.
 */
import { children, type Der, oidText, readDer } from "./der.js";
import { fromBase64 } from "./encoding.js";

/** Attribute types by their short names (RFC 4514), the ones CAs put in an issuer. */
const NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "0.9.2342.19200300.100.1.25": "DC",
  "0.9.2342.19200300.100.1.1": "UID",
};

/**
 * A Name written most specific first, ", " between its parts: the X509IssuerName of ZATCA's own
 * samples ("CN=PRZEINVOICESCA4-CA, DC=extgazt, DC=gov, DC=local" for its test CA).
 */
function nameOf(name: Der): string {
  const text = new TextDecoder();
  const parts = children(name).flatMap((set) =>
    children(set).map((atv) => {
      const [type, value] = children(atv);
      const id = oidText(type!.body);
      return `${NAMES[id] ?? id}=${text.decode(value!.body)}`;
    }),
  );
  return parts.reverse().join(", ");
}

function bigintOf(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = v * 256n + BigInt(b);
  return v;
}

function timeOf(t: Der): string {
  const s = new TextDecoder().decode(t.body);
  // UTCTime YYMMDDHHMMSSZ (years 1950-2049), GeneralizedTime YYYYMMDDHHMMSSZ.
  const full = t.tag === 0x17 ? `${Number(s.slice(0, 2)) < 50 ? "20" : "19"}${s}` : s;
  return `${full.slice(0, 4)}-${full.slice(4, 6)}-${full.slice(6, 8)}T${full.slice(8, 10)}:${full.slice(10, 12)}:${full.slice(12, 14)}Z`;
}

export type CsidCertificate = {
  /** The certificate's base64 text, as ds:X509Certificate holds it (and as its digest is taken). */
  base64: string;
  issuerName: string;
  /** The serial number in decimal (ds:X509SerialNumber). */
  serialNumber: string;
  /** SubjectPublicKeyInfo, DER (QR tag 8). */
  publicKeyInfo: Uint8Array;
  /** The uncompressed point (04 || x || y), to verify with. */
  publicKey: Uint8Array;
  /** The CA's signature of the certificate, DER (QR tag 9). */
  caSignature: Uint8Array;
  notAfter: string;
};

/** A CSID's certificate from its base64 DER (a PEM's body; line breaks and armour are dropped). */
export function parseCertificate(text: string): CsidCertificate {
  const base64 = text.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
  const der = fromBase64(base64);
  const [tbs, , signature] = children(readDer(der, 0));
  const fields = children(tbs!);
  // An explicit [0] version comes first in v3 certificates.
  const f = fields[0]!.tag === 0xa0 ? fields.slice(1) : fields;
  const [serial, , issuer, validity, , spki] = f;
  const [, point] = children(spki!);
  return {
    base64,
    issuerName: nameOf(issuer!),
    serialNumber: bigintOf(serial!.body).toString(),
    publicKeyInfo: spki!.whole.slice(),
    // A BIT STRING's first byte counts its unused bits (0 here).
    publicKey: point!.body.slice(1),
    caSignature: signature!.body.slice(1),
    notAfter: timeOf(children(validity!)[1]!),
  };
}

/** The 32-byte secret of a SEC 1 ECPrivateKey (the "MHQCAQEE..." that PEM "EC PRIVATE KEY" holds). */
export function privateKeyFromSec1(text: string): Uint8Array {
  const der = fromBase64(text.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""));
  const [version, secret] = children(readDer(der, 0));
  if (version?.body[0] !== 1 || secret?.tag !== 0x04) throw new RangeError("not a SEC 1 EC private key");
  return secret.body.slice();
}
