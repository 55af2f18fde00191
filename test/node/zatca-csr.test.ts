import { spawnSync } from "node:child_process";
import { bytesToHex } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import {
  type CsrFields,
  CsrFieldsError,
  csrDer,
  csrFieldProblems,
  csrPem,
  parseCsr,
  unitCsr,
} from "../../src/modules/orders/invoices/e-invoice/csr";
import { fromBase64 } from "../../src/modules/orders/invoices/e-invoice/encoding";
import { CERTIFICATE_TEMPLATES } from "../../src/modules/orders/invoices/e-invoice/environments";
import { newUnitKey, publicKeyOf } from "../../src/modules/orders/invoices/e-invoice/keys";
import { SDK_CERTIFICATE } from "../invoices/e-invoice-fixtures";

/**
 * The unit's CSR (Security Features Implementation Standard 2.2, Table 1), read back by OpenSSL:
 * its signature, subject, key, extensions; and its subjectAltName against the certificate ZATCA's
 * CA issued for the SDK's CSR with the same values (a CA copies the request's SAN).
 */

/** The values of the SDK's sample CSR (its certificate carries them). */
const SDK_VALUES: CsrFields = {
  environment: "developer-portal",
  commonName: "TST-886431145-399999999900003",
  organization: "Maximum Speed Tech Supply LTD",
  organizationUnit: "Riyadh Branch",
  unit: { solution: "TST", model: "TST", serial: "ed22f1d8-e6a2-1118-9b58-d9a8f11e445f" },
  vatNumber: "399999999900003",
  invoiceTypes: "1100",
  address: "RRRD2929",
  industry: "Supply activities",
};

const openssl = (args: string[], input: string) =>
  spawnSync("openssl", args, { input, encoding: "utf8" }) as { status: number; stdout: string; stderr: string };

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;

const contains = (hay: Uint8Array, needle: Uint8Array) => bytesToHex(hay).includes(bytesToHex(needle));

describe.skipIf(!hasOpenssl)("a unit's CSR, as OpenSSL reads it", () => {
  const key = newUnitKey();
  const fields: CsrFields = { ...SDK_VALUES, environment: "simulation", organization: "شركة المذاق | Al Mathaq" };
  const sent = unitCsr(fields, key);
  const pem = atob(sent);

  it("is sent as base64 of the PEM text", () => {
    expect(pem.startsWith("-----BEGIN CERTIFICATE REQUEST-----\n")).toBe(true);
    expect(pem.endsWith("-----END CERTIFICATE REQUEST-----\n")).toBe(true);
    expect(pem.split("\n").every((line) => line.length <= 64)).toBe(true);
  });

  it("carries a signature that verifies with the unit's public key, ECDSA-SHA256 on secp256k1", () => {
    const out = openssl(["req", "-noout", "-verify", "-text"], pem);
    expect(out.status).toBe(0);
    expect(`${out.stdout}${out.stderr}`).toMatch(/verify OK/);
    expect(out.stdout).toContain("ASN1 OID: secp256k1");
    expect(out.stdout).toContain("Signature Algorithm: ecdsa-with-SHA256");
    const pub = out.stdout.split("pub:")[1]!.split("ASN1 OID")[0]!.replace(/[\s:]/g, "");
    expect(pub).toBe(bytesToHex(publicKeyOf(key)));
  });

  it("names C, OU, O and CN in the subject, UTF-8 kept", () => {
    const out = openssl(["req", "-noout", "-subject", "-nameopt", "utf8,sep_comma_plus_space,sname"], pem);
    expect(out.stdout.trim()).toBe(
      "subject=C=SA, OU=Riyadh Branch, O=شركة المذاق | Al Mathaq, CN=TST-886431145-399999999900003",
    );
  });

  it("asks for the environment's certificate template and names the unit in a subjectAltName dirName", () => {
    const out = openssl(["req", "-noout", "-text"], pem);
    expect(out.stdout).toContain("1.3.6.1.4.1.311.20.2:");
    expect(out.stdout).toContain("PREZATCA-Code-Signing");
    expect(out.stdout).toContain(
      "DirName:/SN=1-TST|2-TST|3-ed22f1d8-e6a2-1118-9b58-d9a8f11e445f/UID=399999999900003/title=1100/registeredAddress=RRRD2929/businessCategory=Supply activities",
    );
  });

  it("tells a tampered request by its signature", () => {
    const der = fromBase64(pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""));
    const at = bytesToHex(der).indexOf(bytesToHex(new TextEncoder().encode("Riyadh Branch"))) / 2;
    der[at] = "X".charCodeAt(0);
    const tampered = csrPem(der);
    const out = openssl(["req", "-noout", "-verify"], tampered);
    expect(`${out.stdout}${out.stderr}`).not.toMatch(/verify OK/);
    expect(`${out.stdout}${out.stderr}`).toMatch(/verify failure/i);
    expect(parseCsr(tampered).signatureValid).toBe(false);
  });
});

describe("the CSR's encoding", () => {
  it("writes the template name as a PrintableString, one per environment", () => {
    for (const [environment, name] of Object.entries(CERTIFICATE_TEMPLATES)) {
      const der = csrDer({ ...SDK_VALUES, environment: environment as CsrFields["environment"] }, newUnitKey());
      // extnValue: OCTET STRING (04) holding a PrintableString (13) of the name.
      const value = Uint8Array.of(0x04, name.length + 2, 0x13, name.length, ...new TextEncoder().encode(name));
      expect(contains(der, value)).toBe(true);
      expect(parseCsr(csrPem(der)).templateName).toBe(name);
    }
  });

  it("writes the subjectAltName byte for byte as ZATCA's CA copied it into the SDK's certificate", () => {
    const der = csrDer(SDK_VALUES, newUnitKey());
    const certificate = fromBase64(SDK_CERTIFICATE);
    // The SAN extension's OCTET STRING as the certificate holds it: 04 81 a5, then GeneralNames.
    const start = bytesToHex(certificate).indexOf("0603551d11") / 2 + 5;
    const san = certificate.subarray(start, start + 3 + 0xa5);
    expect(san[0]).toBe(0x04);
    expect(contains(der, san)).toBe(true);
  });

  it("reads back every field it wrote", () => {
    const key = newUnitKey();
    const parsed = parseCsr(unitCsr(SDK_VALUES, key));
    expect(parsed.subject).toEqual({
      C: "SA",
      OU: "Riyadh Branch",
      O: "Maximum Speed Tech Supply LTD",
      CN: "TST-886431145-399999999900003",
    });
    expect(parsed.unit).toEqual({
      SN: "1-TST|2-TST|3-ed22f1d8-e6a2-1118-9b58-d9a8f11e445f",
      UID: "399999999900003",
      title: "1100",
      registeredAddress: "RRRD2929",
      businessCategory: "Supply activities",
    });
    expect(parsed.publicKey).toEqual(publicKeyOf(key));
    expect(parsed.signatureValid).toBe(true);
  });
});

describe("the CSR's fields", () => {
  it("are refused with what is wrong, before anything is signed", () => {
    const bad: CsrFields = {
      ...SDK_VALUES,
      commonName: " ",
      vatNumber: "123",
      invoiceTypes: "0011",
      unit: { ...SDK_VALUES.unit, serial: "a|b" },
    };
    expect(csrFieldProblems(bad)).toEqual({
      commonName: ["Must not be empty."],
      vatNumber: ["Must be 15 digits, starting and ending with 3."],
      invoiceTypes: ['Must be four digits of 0 and 1 with standard or simplified on, e.g. "1100".'],
      "unit.serial": ['Must not contain "|", which separates the parts of SN.'],
    });
    expect(() => csrDer(bad, newUnitKey())).toThrow(CsrFieldsError);
  });

  it("ask a VAT group member's unit for the member's TIN as OU", () => {
    const group = { ...SDK_VALUES, vatNumber: "399999999910003" };
    expect(csrFieldProblems(group).organizationUnit).toEqual([
      "A VAT group member's unit must give the member's 10-digit TIN.",
    ]);
    expect(csrFieldProblems({ ...group, organizationUnit: "3999999999" })).toEqual({});
  });
});
