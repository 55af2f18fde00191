import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { hashedForm } from "../../src/modules/orders/invoices/e-invoice/canonical";
import { parseCertificate, privateKeyFromSec1 } from "../../src/modules/orders/invoices/e-invoice/certificate";
import { FIRST_PIH } from "../../src/modules/orders/invoices/e-invoice/hash";
import { decodeQr } from "../../src/modules/orders/invoices/e-invoice/qr";
import {
  certificateDigest,
  signedPropertiesDigest,
  signInvoiceHash,
  verifyInvoiceHash,
} from "../../src/modules/orders/invoices/e-invoice/stamp";
import { PORTAL_SAMPLE, SDK_CERTIFICATE, SDK_PRIVATE_KEY, SDK_SAMPLE } from "./e-invoice-fixtures";

const cert = parseCertificate(SDK_CERTIFICATE);

describe("the chain's first PIH", () => {
  it("is base64 of the hex text of SHA-256 of '0'", () => {
    expect(btoa(bytesToHex(sha256(new TextEncoder().encode("0"))))).toBe(FIRST_PIH);
    expect(atob(FIRST_PIH)).toBe("5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9");
  });
});

describe("the CSID's certificate (the SDK's test certificate)", () => {
  it("gives the issuer and serial the SDK's signed sample names", () => {
    expect(cert.issuerName).toBe(SDK_SAMPLE.issuerName);
    expect(cert.serialNumber).toBe(SDK_SAMPLE.serialNumber);
    expect(cert.notAfter).toBe("2029-01-09T09:19:30Z");
  });

  it("gives the sample's CertDigest: SHA-256 of the certificate's base64 text, as base64 of hex", () => {
    expect(certificateDigest(cert)).toBe(SDK_SAMPLE.certDigest);
    // Not the digest of its DER bytes, which a reader of XAdES would expect.
    expect(btoa(bytesToHex(sha256(Uint8Array.from(atob(SDK_CERTIFICATE), (c) => c.charCodeAt(0)))))).not.toBe(
      SDK_SAMPLE.certDigest,
    );
  });

  it("holds the public key of the SDK's test private key", () => {
    const key = privateKeyFromSec1(SDK_PRIVATE_KEY);
    expect(secp256k1.getPublicKey(key, false)).toEqual(cert.publicKey);
    // QR tag 8: SubjectPublicKeyInfo of a secp256k1 key is 88 bytes.
    expect(cert.publicKeyInfo.length).toBe(88);
  });
});

describe("the signed properties' digest", () => {
  it.each([
    ["the SDK's sample", SDK_SAMPLE.signingTime, SDK_SAMPLE.signedPropertiesDigest],
    ["the Developer Portal's example", PORTAL_SAMPLE.signingTime, PORTAL_SAMPLE.signedPropertiesDigest],
  ])("reproduces %s's published digest", (_, signingTime, digest) => {
    const values = {
      signingTime,
      certDigest: SDK_SAMPLE.certDigest,
      issuerName: SDK_SAMPLE.issuerName,
      serialNumber: SDK_SAMPLE.serialNumber,
    };
    expect(signedPropertiesDigest(values)).toBe(digest);
    expect(signedPropertiesDigest({ ...values, signingTime: "2025-07-22T15:38:48" })).not.toBe(digest);
  });
});

describe("the signature over the invoice hash", () => {
  it.each([
    ["the SDK's sample", SDK_SAMPLE.invoiceHash, SDK_SAMPLE.signature],
    ["the Developer Portal's example", PORTAL_SAMPLE.invoiceHash, PORTAL_SAMPLE.signature],
  ])("verifies %s's published SignatureValue over its invoice hash", (_, hash, signature) => {
    expect(verifyInvoiceHash(hash, signature, cert.publicKey)).toBe(true);
    // The first six bits of the hash changed: refused.
    const other = `${hash[0] === "W" ? "X" : "W"}${hash.slice(1)}`;
    expect(verifyInvoiceHash(other, signature, cert.publicKey)).toBe(false);
  });

  it("signs with the unit's key so that the certificate's key verifies it, DER-encoded", () => {
    const signature = signInvoiceHash(SDK_SAMPLE.invoiceHash, privateKeyFromSec1(SDK_PRIVATE_KEY));
    expect(atob(signature).charCodeAt(0)).toBe(0x30);
    expect(verifyInvoiceHash(SDK_SAMPLE.invoiceHash, signature, cert.publicKey)).toBe(true);
    const stranger = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false);
    expect(verifyInvoiceHash(SDK_SAMPLE.invoiceHash, signature, stranger)).toBe(false);
  });
});

describe("the Developer Portal example's QR", () => {
  it("decodes to the forms the stamp writes: hash and signature as base64 text, the key as DER", () => {
    const qr = decodeQr(PORTAL_SAMPLE.qr);
    const text = (tag: number) => new TextDecoder().decode(qr.get(tag));
    expect([...qr.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(text(2)).toBe("399999999900003");
    expect(text(3)).toBe("2022-09-07T12:21:28");
    expect(text(6)).toBe(PORTAL_SAMPLE.invoiceHash);
    expect(text(7)).toBe(PORTAL_SAMPLE.signature);
    expect(qr.get(8)).toEqual(cert.publicKeyInfo);
    expect(verifyInvoiceHash(text(6), text(7), cert.publicKey)).toBe(true);
  });
});

describe("Canonical XML", () => {
  // The W3C Canonical XML Recommendation's example 3.3 (start and end tags), without its DTD
  // (whose default attribute the standard's invoices never use: a DOCTYPE is refused).
  it("gives the W3C recommendation's example 3.3", () => {
    const input = `<doc>
   <e1   />
   <e2   ></e2>
   <e3   name = "elem3"   id="elem3"   />
   <e4   name="elem4"   id="elem4"   ></e4>
   <e5 a:attr="out" b:attr="sorted" attr2="all" attr="I'm"
      xmlns:b="http://www.ietf.org"
      xmlns:a="http://www.w3.org"
      xmlns="http://example.org"/>
   <e6 xmlns="" xmlns:a="http://www.w3.org">
      <e7 xmlns="http://www.ietf.org">
         <e8 xmlns="" xmlns:a="http://www.w3.org">
            <e9 xmlns="" xmlns:a="http://www.ietf.org"/>
         </e8>
      </e7>
   </e6>
</doc>`;
    expect(hashedForm(input)).toBe(`<doc>
   <e1></e1>
   <e2></e2>
   <e3 id="elem3" name="elem3"></e3>
   <e4 id="elem4" name="elem4"></e4>
   <e5 xmlns="http://example.org" xmlns:a="http://www.w3.org" xmlns:b="http://www.ietf.org" attr="I'm" attr2="all" b:attr="sorted" a:attr="out"></e5>
   <e6 xmlns:a="http://www.w3.org">
      <e7 xmlns="http://www.ietf.org">
         <e8 xmlns="">
            <e9 xmlns:a="http://www.ietf.org"></e9>
         </e8>
      </e7>
   </e6>
</doc>`);
  });

  it("drops the declaration and comments, writes CDATA and references as text, escapes as C14N does", () => {
    const input = `<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- c --><a b='x&#9;"y"'><!-- c --><![CDATA[<&>]]>&#x41;&apos;\r\n</a>`;
    expect(hashedForm(input)).toBe(`<a b="x&#x9;&quot;y&quot;">&lt;&amp;&gt;A'\n</a>`);
  });

  it("refuses a DOCTYPE (entities of its own could change what is hashed)", () => {
    expect(() => hashedForm(`<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`)).toThrow(/DOCTYPE/);
  });
});
