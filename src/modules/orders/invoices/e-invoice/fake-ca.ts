/**
 * The local fake's certificate authority: it issues a CSID certificate for the CSR's own public key,
 * as ZATCA's simulation and core do, so that a unit onboarded on the fake signs with its own key.
 * The certificate is laid out as ZATCA's (the SDK's test certificate): X.509 v3, ECDSA-SHA256, the
 * issuer `CN=PRZEINVOICESCA4-CA, DC=extgazt, DC=gov, DC=local`, a serial of the same form, the
 * subject C, O, OU, CN and the CSR's subjectAltName dirName; signed with a fixed key of the fake's.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { ParsedCsr } from "./csr.js";
import { bitString, octetString, oid, printableString, sequence, set, tagged, tlv, utf8String } from "./der.js";
import { toBase64, utf8 } from "./encoding.js";

/** The fake CA's secret key: fixed, so that every fake (and every restart) issues under one CA. */
const CA_KEY = sha256(utf8("commerce fake ZATCA certificate authority"));

const ia5String = (s: string) => tlv(0x16, utf8(s));
const attribute = (type: string, value: Uint8Array) => set(sequence(oid(type), value));

const ISSUER = sequence(
  attribute("0.9.2342.19200300.100.1.25", ia5String("local")),
  attribute("0.9.2342.19200300.100.1.25", ia5String("gov")),
  attribute("0.9.2342.19200300.100.1.25", ia5String("extgazt")),
  attribute("2.5.4.3", printableString("PRZEINVOICESCA4-CA")),
);

/** A positive INTEGER of these bytes (a leading zero when the first bit is set). */
const integer = (bytes: Uint8Array) => tlv(0x02, bytes[0]! & 0x80 ? Uint8Array.from([0, ...bytes]) : bytes);

/** UTCTime YYMMDDHHMMSSZ (the years 1950-2049 RFC 5280 gives it). */
function utcTime(ms: number): Uint8Array {
  const iso = new Date(ms).toISOString();
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, utf8(text));
}

export type IssueOptions = { now: number; validForDays: number; serial: number };

/** The base64 DER of a certificate for the CSR's key and names, valid from `now` for `validForDays`. */
export function fakeCertificate(csr: ParsedCsr, options: IssueOptions): string {
  const { subject: s, unit: u } = csr;
  // ZATCA's serials: 0x11 0000 ... then the request's number.
  const serial = new Uint8Array(19);
  serial[0] = 0x11;
  new DataView(serial.buffer).setUint32(15, options.serial);
  const subject = sequence(
    attribute("2.5.4.6", printableString(s.C ?? "SA")),
    attribute("2.5.4.10", utf8String(s.O ?? "")),
    attribute("2.5.4.11", utf8String(s.OU ?? "")),
    attribute("2.5.4.3", utf8String(s.CN ?? "")),
  );
  const dirName = sequence(
    attribute("2.5.4.4", utf8String(u.SN ?? "")),
    attribute("0.9.2342.19200300.100.1.1", utf8String(u.UID ?? "")),
    attribute("2.5.4.12", utf8String(u.title ?? "")),
    attribute("2.5.4.26", utf8String(u.registeredAddress ?? "")),
    attribute("2.5.4.15", utf8String(u.businessCategory ?? "")),
  );
  const extensions = sequence(
    sequence(oid("2.5.29.17"), octetString(sequence(tagged(4, dirName)))),
    // keyUsage, critical: digitalSignature.
    sequence(oid("2.5.29.15"), tlv(0x01, Uint8Array.of(0xff)), octetString(tlv(0x03, Uint8Array.of(7, 0x80)))),
  );
  const ecdsaSha256 = sequence(oid("1.2.840.10045.4.3.2"));
  const tbs = sequence(
    tagged(0, tlv(0x02, Uint8Array.of(2))),
    integer(serial),
    ecdsaSha256,
    ISSUER,
    sequence(utcTime(options.now), utcTime(options.now + options.validForDays * 86_400_000)),
    subject,
    sequence(sequence(oid("1.2.840.10045.2.1"), oid("1.3.132.0.10")), bitString(csr.publicKey)),
    tagged(3, extensions),
  );
  const signature = secp256k1.sign(tbs, CA_KEY, { format: "der" });
  return toBase64(sequence(tbs, ecdsaSha256, bitString(signature)));
}

/** The fake CA's public key, to check what it signed. */
export const FAKE_CA_PUBLIC_KEY = secp256k1.getPublicKey(CA_KEY, false);
