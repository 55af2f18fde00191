import { secp256k1 } from "@noble/curves/secp256k1.js";
import { describe, expect, it } from "vitest";
import { basicAuthorization, httpEInvoicingApi } from "../../src/modules/orders/invoices/e-invoice/api";
import { parseCertificate } from "../../src/modules/orders/invoices/e-invoice/certificate";
import { unitCsr } from "../../src/modules/orders/invoices/e-invoice/csr";
import { children, readDer } from "../../src/modules/orders/invoices/e-invoice/der";
import { fromBase64 } from "../../src/modules/orders/invoices/e-invoice/encoding";
import { FAKE_ZATCA_URL, fakeZatca } from "../../src/modules/orders/invoices/e-invoice/fake";
import { FAKE_CA_PUBLIC_KEY } from "../../src/modules/orders/invoices/e-invoice/fake-ca";
import { newUnitKey, publicKeyOf } from "../../src/modules/orders/invoices/e-invoice/keys";
import { KINDS, nextOtp, onboarded, onFake, signed, UNIT_FIELDS } from "./e-invoice-api-helpers";
import { SDK_CERTIFICATE } from "./e-invoice-fixtures";

/**
 * Onboarding through the adapter against the local fake of ZATCA's API: the unit's CSR, the
 * compliance CSID from an OTP, the compliance checks with documents the core signed, the production
 * CSID, its renewal; and the refusals as the adapter's results, with ZATCA's codes and words.
 */

describe("onboarding a unit", () => {
  it("gets the compliance CSID for its CSR and an OTP, as the API sends it", async () => {
    const { fake, api } = onFake();
    const otp = nextOtp();
    const key = newUnitKey();
    const csr = unitCsr(UNIT_FIELDS, key);
    const result = await api.complianceCsid(otp, csr);
    if (result.kind !== "issued") throw new Error(JSON.stringify(result));
    // binarySecurityToken is base64 of the certificate's base64: a certificate of the CSR's own key.
    expect(result.csid.binarySecurityToken).toBe(btoa(result.csid.certificate));
    const certificate = parseCertificate(result.csid.certificate);
    expect(certificate.publicKey).toEqual(publicKeyOf(key));
    expect(certificate.issuerName).toBe("CN=PRZEINVOICESCA4-CA, DC=extgazt, DC=gov, DC=local");
    expect(certificate.serialNumber).toMatch(/^\d{40,}$/);
    expect(result.csid.secret).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(result.csid.requestId).toMatch(/^\d{13}$/);
    const [sent] = fake.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/compliance", body: { csr } });
    expect(sent!.headers).toMatchObject({ otp, "accept-version": "V2", "accept-language": "en" });
    expect(sent!.headers.authorization).toBeUndefined();
  });

  it("issues under its own CA key, or the SDK's fixed certificate as the developer portal does", async () => {
    const { api } = onFake();
    const result = await api.complianceCsid(nextOtp(), unitCsr(UNIT_FIELDS, newUnitKey()));
    if (result.kind !== "issued") throw new Error(JSON.stringify(result));
    // The CA's signature over the TBSCertificate verifies with the fake CA's key.
    const [tbs] = children(readDer(fromBase64(result.csid.certificate), 0));
    const { caSignature } = parseCertificate(result.csid.certificate);
    expect(secp256k1.verify(caSignature, tbs!.whole, FAKE_CA_PUBLIC_KEY, { format: "der", lowS: false })).toBe(true);

    const portal = fakeZatca({ fixedCertificate: true });
    const fixed = await httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: portal.fetch }).complianceCsid(
      nextOtp(),
      unitCsr(UNIT_FIELDS, newUnitKey()),
    );
    expect(fixed).toMatchObject({ kind: "issued", csid: { certificate: SDK_CERTIFICATE } });
  });

  it("passes the compliance checks, then gets the production CSID with the compliance CSID's Basic auth", async () => {
    const { fake, compliance, production } = await onboarded();
    expect(production.secret).not.toBe(compliance.secret);
    const checks = fake.requests.filter((r) => r.path === "/compliance/invoices");
    expect(checks).toHaveLength(4);
    const last = fake.requests.at(-1)!;
    expect(last).toMatchObject({ path: "/production/csids", body: { compliance_request_id: compliance.requestId } });
    expect(last.headers.authorization).toBe(basicAuthorization(compliance));
    expect(atob(last.headers.authorization!.slice(6))).toBe(`${compliance.binarySecurityToken}:${compliance.secret}`);
  });

  it("answers a compliance check with ZATCA's statuses: reported for simplified, cleared for standard", async () => {
    const { api } = onFake();
    const issued = await api.complianceCsid(nextOtp(), unitCsr(UNIT_FIELDS, newUnitKey()));
    if (issued.kind !== "issued") throw new Error(JSON.stringify(issued));
    expect(await api.complianceInvoice(issued.csid, signed(KINDS.simplifiedInvoice))).toMatchObject({
      kind: "passed",
      reportingStatus: "REPORTED",
      clearanceStatus: null,
      warnings: [],
      info: [{ code: "XSD_ZATCA_VALID", status: "PASS" }],
    });
    expect(await api.complianceInvoice(issued.csid, signed(KINDS.standardCreditNote))).toMatchObject({
      kind: "passed",
      reportingStatus: null,
      clearanceStatus: "CLEARED",
    });
  });

  it("refuses the production CSID until every check of the unit's invoice types has passed", async () => {
    const { api } = onFake();
    const issued = await api.complianceCsid(nextOtp(), unitCsr(UNIT_FIELDS, newUnitKey()));
    if (issued.kind !== "issued") throw new Error(JSON.stringify(issued));
    await api.complianceInvoice(issued.csid, signed(KINDS.simplifiedInvoice));
    const early = await api.productionCsid(issued.csid, issued.csid.requestId);
    expect(early).toMatchObject({ kind: "rejected", status: 400, errors: [{ code: "Missing-Compliance-Steps" }] });
    if (early.kind === "rejected")
      expect(early.errors[0]!.message).toBe(
        "The compliance checks have not passed for: standard:388, standard:381, simplified:381.",
      );
  });

  it("renews the production CSID with a new OTP and CSR, the current CSID authenticating", async () => {
    const { api, fake, production } = await onboarded();
    const renewed = await api.renewCsid(production, nextOtp(), unitCsr(UNIT_FIELDS, newUnitKey()));
    if (renewed.kind !== "issued") throw new Error(JSON.stringify(renewed));
    expect(renewed.csid.secret).not.toBe(production.secret);
    expect(fake.requests.at(-1)).toMatchObject({ method: "PATCH", path: "/production/csids" });
    expect(fake.requests.at(-1)!.headers.authorization).toBe(basicAuthorization(production));
  });
});

describe("onboarding refused", () => {
  it("an OTP used before: rejected with ZATCA's Invalid-OTP", async () => {
    const { api } = onFake();
    const otp = nextOtp();
    expect((await api.complianceCsid(otp, unitCsr(UNIT_FIELDS, newUnitKey()))).kind).toBe("issued");
    expect(await api.complianceCsid(otp, unitCsr(UNIT_FIELDS, newUnitKey()))).toMatchObject({
      kind: "rejected",
      status: 400,
      errors: [{ code: "Invalid-OTP", message: "The provided OTP is invalid" }],
    });
  });

  it("a CSR for another environment, or not a CSR: rejected with ZATCA's Invalid-CSR", async () => {
    const { api } = onFake();
    const simulation = unitCsr({ ...UNIT_FIELDS, environment: "simulation" }, newUnitKey());
    for (const csr of [simulation, btoa("not a CSR")])
      expect(await api.complianceCsid(nextOtp(), csr)).toMatchObject({
        kind: "rejected",
        status: 400,
        errors: [{ code: "Invalid-CSR", message: "The provided Certificate Signing Request (CSR) is invalid." }],
      });
  });

  it("a wrong secret, or a production CSID where the compliance one is due: credentials refused (401)", async () => {
    const { api, compliance, production } = await onboarded();
    const wrong = { ...compliance, secret: production.secret.replace(/^./, (c) => (c === "A" ? "B" : "A")) };
    expect(await api.complianceInvoice(wrong, signed())).toEqual({
      kind: "credentials_refused",
      status: 401,
      message: "Unauthorized",
    });
    expect((await api.complianceInvoice(production, signed())).kind).toBe("credentials_refused");
    expect((await api.report(compliance, signed())).kind).toBe("credentials_refused");
  });
});
