import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseCertificate } from "../../src/modules/orders/invoices/e-invoice/certificate";
import { type CsrFields, csrDer, csrPem, parseCsr } from "../../src/modules/orders/invoices/e-invoice/csr";
import { fakeCertificate } from "../../src/modules/orders/invoices/e-invoice/fake-ca";
import { newUnitKey, publicKeyOf } from "../../src/modules/orders/invoices/e-invoice/keys";

/**
 * The local fake's CA (fake-ca.ts): the certificate it issues for a unit's CSR, read by OpenSSL and
 * by the stamp's own reader: the CSR's key and names, ZATCA's issuer, the validity asked.
 */

const openssl = (args: string[], input: string) =>
  spawnSync("openssl", args, { input, encoding: "utf8" }) as { status: number; stdout: string; stderr: string };
const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;

const FIELDS: CsrFields = {
  environment: "simulation",
  commonName: "Web shop",
  organization: "شركة المذاق",
  organizationUnit: "Riyadh Branch",
  unit: { solution: "Commerce", model: "1.0", serial: "6f1c2a8e-4b7d-4e0a-9c3f-2d5e8a1b7c40" },
  vatNumber: "399999999900003",
  invoiceTypes: "0100",
  address: "2322 King Fahd Road, Riyadh",
  industry: "Food and drink",
};

const key = newUnitKey();
const csr = csrPem(csrDer(FIELDS, key));
const now = Date.parse("2026-03-01T12:00:00Z");
const certificate = fakeCertificate(parseCsr(csr), { now, validForDays: 30, serial: 42 });
const pem = `-----BEGIN CERTIFICATE-----\n${certificate.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;

describe("a certificate of the fake's CA", () => {
  it("certifies the CSR's key, under ZATCA's issuer name, for the validity asked", () => {
    const parsed = parseCertificate(certificate);
    expect(parsed.publicKey).toEqual(publicKeyOf(key));
    expect(parsed.issuerName).toBe("CN=PRZEINVOICESCA4-CA, DC=extgazt, DC=gov, DC=local");
    expect(parsed.notAfter).toBe("2026-03-31T12:00:00Z");
    expect(BigInt(parsed.serialNumber) % 2n ** 32n).toBe(42n);
  });

  it.skipIf(!hasOpenssl)("reads in OpenSSL: subject, the unit's dirName, the same key as the CSR's", () => {
    const text = openssl(["x509", "-noout", "-text", "-nameopt", "utf8,sep_comma_plus_space,sname"], pem);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain("C=SA, O=شركة المذاق, OU=Riyadh Branch, CN=Web shop");
    expect(text.stdout).toContain("DC=local, DC=gov, DC=extgazt, CN=PRZEINVOICESCA4-CA");
    expect(text.stdout).toMatch(/SN=1-Commerce\|2-1\.0\|3-6f1c2a8e-4b7d-4e0a-9c3f-2d5e8a1b7c40/);
    expect(text.stdout).toContain("ecdsa-with-SHA256");
    const certKey = openssl(["x509", "-noout", "-pubkey"], pem).stdout;
    const csrKey = openssl(["req", "-noout", "-pubkey"], csr).stdout;
    expect(certKey).toBe(csrKey);
  });
});
