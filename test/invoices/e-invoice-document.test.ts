import { describe, expect, it } from "vitest";
import { SAMPLE_BUYER } from "../../src/modules/orders/einvoices/compliance-samples";
import { hashedForm } from "../../src/modules/orders/invoices/e-invoice/canonical";
import { parseCertificate, privateKeyFromSec1 } from "../../src/modules/orders/invoices/e-invoice/certificate";
import { signEInvoice } from "../../src/modules/orders/invoices/e-invoice/document";
import { FIRST_PIH, invoiceHash } from "../../src/modules/orders/invoices/e-invoice/hash";
import { decodeQr } from "../../src/modules/orders/invoices/e-invoice/qr";
import type { EInvoiceInput } from "../../src/modules/orders/invoices/e-invoice/types";
import { verifyEInvoice } from "../../src/modules/orders/invoices/e-invoice/verify";
import { SDK_CERTIFICATE, SDK_PRIVATE_KEY, simplifiedInput } from "./e-invoice-fixtures";

const stamp = { privateKey: privateKeyFromSec1(SDK_PRIVATE_KEY), certificate: parseCertificate(SDK_CERTIFICATE) };
const sign = (input: EInvoiceInput) => signEInvoice(input, stamp);
const codes = (xml: string) => verifyEInvoice(xml).problems.map((p) => p.code);

describe("a signed simplified invoice", () => {
  const signed = sign(simplifiedInput());

  it("verifies: hash, certificate digest, signed properties, signature and QR", () => {
    const v = verifyEInvoice(signed.xml);
    expect(v.problems).toEqual([]);
    expect(v).toMatchObject({ invoiceHash: signed.invoiceHash, icv: 1, pih: FIRST_PIH, typeCode: "388" });
    expect(v.transactionCode).toBe("0200000");
  });

  it("hashes the canonical form without UBLExtensions, the QR reference and cac:Signature", () => {
    const form = hashedForm(signed.xml);
    expect(invoiceHash(signed.xml)).toBe(signed.invoiceHash);
    expect(form).not.toMatch(/UBLExtensions|cac:Signature>|<cbc:ID>QR</);
    expect(form).toContain("<cbc:ID>PIH</cbc:ID>");
    // Text is escaped as the canonical form escapes it; Arabic stays UTF-8.
    expect(form).toContain("<cbc:RegistrationName>Sara &amp; Co &lt;retail&gt;</cbc:RegistrationName>");
    expect(form).toContain("<cbc:Name>قهوة</cbc:Name>");
    expect(form.startsWith('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"')).toBe(true);
  });

  it("is issued in Riyadh time, the QR's timestamp the same", () => {
    expect(signed.xml).toContain("<cbc:IssueDate>2026-01-05</cbc:IssueDate><cbc:IssueTime>12:30:00</cbc:IssueTime>");
    expect(new TextDecoder().decode(decodeQr(signed.qr).get(3))).toBe("2026-01-05T12:30:00");
  });

  it("carries a QR of nine tags with the invoice's values", () => {
    const qr = decodeQr(signed.qr);
    const text = (tag: number) => new TextDecoder().decode(qr.get(tag));
    expect([...qr.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([text(1), text(2), text(4), text(5)]).toEqual([
      "شركة المذاق | Al Mathaq Co",
      "399999999900003",
      "61.01",
      "7.96",
    ]);
    expect(text(6)).toBe(signed.invoiceHash);
    expect(text(7)).toBe(signed.signature);
    expect(qr.get(8)).toEqual(stamp.certificate.publicKeyInfo);
    expect(qr.get(9)).toEqual(stamp.certificate.caSignature);
    expect(signed.xml).toContain(`<cbc:EmbeddedDocumentBinaryObject mimeCode="text/plain">${signed.qr}<`);
  });

  it("is the same document for the same input, key and certificate", () => {
    expect(sign(simplifiedInput()).xml).toBe(signed.xml);
  });

  it("keeps its hash when whitespace is added inside the left-out parts only", () => {
    const pretty = signed.xml.replace("<ext:UBLExtension>", "\n  <ext:UBLExtension>\n");
    expect(invoiceHash(pretty)).toBe(signed.invoiceHash);
    expect(codes(pretty)).toEqual([]);
    // Whitespace in the hashed part is content: it changes the hash.
    expect(invoiceHash(signed.xml.replace("<cbc:ProfileID>", "\n<cbc:ProfileID>"))).not.toBe(signed.invoiceHash);
  });
});

describe("tampering with a signed field", () => {
  const signed = sign(simplifiedInput({ icv: 7, pih: "dGhlIHByZXZpb3VzIGludm9pY2UncyBoYXNoIGhlcmU=" }));
  it.each([
    ["an amount", '<cbc:TaxInclusiveAmount currencyID="SAR">61.01<', '<cbc:TaxInclusiveAmount currencyID="SAR">51.01<'],
    ["a line's price", '<cbc:PriceAmount currencyID="SAR">20.00<', '<cbc:PriceAmount currencyID="SAR">2.00<'],
    ["the buyer", "Sara &amp; Co", "Omar &amp; Co"],
    ["the ICV", "<cbc:UUID>7</cbc:UUID>", "<cbc:UUID>8</cbc:UUID>"],
    ["the PIH", "dGhlIHByZXZpb3VzIGludm9pY2UncyBoYXNoIGhlcmU=<", `${FIRST_PIH}<`],
    ["the UUID", "3cf5ee18-ee25", "3cf5ee18-ee26"],
  ])("breaks verification: %s", (_, from, to) => {
    expect(signed.xml).toContain(from);
    const forged = signed.xml.replace(from, to);
    expect(codes(forged)).toContain("invalid-invoice-hash");
  });

  it("breaks verification when the stamp's digest is brought in line but the signature is not", () => {
    const forged = signed.xml.replace("Sara &amp; Co", "Omar &amp; Co");
    const rehashed = forged.replace(
      `<ds:DigestValue>${signed.invoiceHash}<`,
      `<ds:DigestValue>${invoiceHash(forged)}<`,
    );
    expect(codes(rehashed)).toEqual(expect.arrayContaining(["signature-invalid", "invoiceHash_QRCODE_INVALID"]));
    expect(codes(rehashed)).not.toContain("invalid-invoice-hash");
  });

  it("breaks verification: the signing time, the certificate's serial, the QR", () => {
    const time = signed.xml.replace(
      "<xades:SigningTime>2026-01-05T09:30:00<",
      "<xades:SigningTime>2026-01-05T09:30:01<",
    );
    expect(codes(time)).toContain("signed-properties-hash-invalid");
    const serial = signed.xml.replaceAll(stamp.certificate.serialNumber, "1");
    expect(codes(serial)).toContain("certificate-issuer-serial-invalid");
    const qr = signed.xml.replace(signed.qr, sign(simplifiedInput({ icv: 9 })).qr);
    expect(codes(qr)).toEqual(expect.arrayContaining(["invoiceHash_QRCODE_INVALID", "qrcode-invalid"]));
  });
});

describe("a credit note", () => {
  const note = sign(
    simplifiedInput({
      kind: "credit_note",
      number: "RF-000004",
      icv: 2,
      creditNote: { invoiceNumber: "INV-000123", reason: "Returned: wrong item" },
      // The invoice's coffee line, returned.
      lines: [simplifiedInput().lines[1]!],
      totals: { netMinor: 1_305, vatMinor: 196, grossMinor: 1_501 },
    }),
  );

  it("is a 381 with its invoice in BillingReference and its reason in the payment means", () => {
    const v = verifyEInvoice(note.xml);
    expect(v.problems).toEqual([]);
    expect(v).toMatchObject({ typeCode: "381", transactionCode: "0200000", billingReference: "INV-000123" });
    expect(note.xml).toContain("<cbc:InstructionNote>Returned: wrong item</cbc:InstructionNote>");
  });

  it("is refused without the invoice it credits", () => {
    expect(() => sign(simplifiedInput({ kind: "credit_note" }))).toThrow(/BR-KSA-17/);
  });
});

describe("a standard (B2B) invoice", () => {
  it("names the buyer's VAT number and carries no tag 9 in its QR", () => {
    const signed = sign(
      simplifiedInput({
        transaction: "standard",
        buyer: SAMPLE_BUYER,
      }),
    );
    expect(verifyEInvoice(signed.xml)).toMatchObject({ problems: [], transactionCode: "0100000" });
    expect([...decodeQr(signed.qr).keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(signed.xml).toContain("<cbc:CompanyID>399999999800003</cbc:CompanyID>");
  });
});

describe("the builder's checks", () => {
  it("refuses lines that do not add up to the invoice's totals", () => {
    expect(() => sign(simplifiedInput({ totals: { netMinor: 5_305, vatMinor: 797, grossMinor: 6_102 } }))).toThrow(
      /do not add up/,
    );
  });
});

describe("a chain", () => {
  it("links each document to the previous one's hash, the first to the standard's PIH", () => {
    let pih = FIRST_PIH;
    const chain = Array.from({ length: 25 }, (_, i) => {
      const signed = sign(simplifiedInput({ icv: i + 1, pih, number: `INV-${i + 1}`, uuid: crypto.randomUUID() }));
      pih = signed.invoiceHash;
      return signed.xml;
    });
    let previous = FIRST_PIH;
    for (const [i, xml] of chain.entries()) {
      const v = verifyEInvoice(xml);
      expect(v.problems).toEqual([]);
      expect([v.icv, v.pih]).toEqual([i + 1, previous]);
      previous = v.invoiceHash;
    }
  });
});
