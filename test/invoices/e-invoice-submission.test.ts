import { describe, expect, it } from "vitest";
import { httpEInvoicingApi } from "../../src/modules/orders/invoices/e-invoice/api";
import { eInvoicingApi } from "../../src/modules/orders/invoices/e-invoice/choose-api";
import { unitCsr } from "../../src/modules/orders/invoices/e-invoice/csr";
import { FAKE_ZATCA_URL } from "../../src/modules/orders/invoices/e-invoice/fake";
import { FIRST_PIH } from "../../src/modules/orders/invoices/e-invoice/hash";
import { newUnitKey } from "../../src/modules/orders/invoices/e-invoice/keys";
import { chain, KINDS, nextOtp, onboarded, signed, UNIT_FIELDS } from "./e-invoice-api-helpers";

/**
 * Reporting and clearance through the adapter against the local fake of ZATCA's API: documents the
 * core signed, chained ICV 1, 2, 3...; every refusal the fake makes (hash, chain, QR, version,
 * credentials, repeats, outages) as the adapter's result, with ZATCA's codes and words.
 */

describe("reporting and clearance", () => {
  it("reports a simplified invoice, then clears a standard one chained on it", async () => {
    const { api, fake, production } = await onboarded();
    const [simplified, standard] = chain(KINDS.simplifiedInvoice, KINDS.standardInvoice);
    expect(await api.report(production, simplified!)).toEqual({
      kind: "reported",
      warnings: [],
      info: [expect.objectContaining({ code: "XSD_ZATCA_VALID" })],
    });
    const reporting = fake.requests.at(-1)!;
    expect(reporting).toMatchObject({
      path: "/invoices/reporting/single",
      body: { invoiceHash: simplified!.invoiceHash, uuid: simplified!.uuid },
    });
    expect(reporting.headers["clearance-status"]).toBe("0");
    expect(
      new TextDecoder().decode(
        Uint8Array.from(atob((reporting.body as { invoice: string }).invoice), (c) => c.charCodeAt(0)),
      ),
    ).toBe(simplified!.xml);

    const cleared = await api.clear(production, standard!);
    expect(cleared).toMatchObject({ kind: "cleared", clearedInvoice: standard!.xml, warnings: [] });
    expect(fake.requests.at(-1)!.headers["clearance-status"]).toBe("1");
    const { solution, model, serial } = UNIT_FIELDS.unit;
    expect(fake.headOf(`1-${solution}|2-${model}|3-${serial}`)).toBe(standard!.invoiceHash);
  });

  it("keeps the warnings of a simplified invoice reported after its 24 hours (202)", async () => {
    const { api, production } = await onboarded(Date.parse("2026-01-06T10:00:00Z"));
    expect(await api.report(production, chain(KINDS.simplifiedInvoice)[0]!)).toMatchObject({
      kind: "reported",
      warnings: [
        {
          type: "WARNING",
          code: "BR-KSA-98",
          message: "The simplified invoice should be submitted within 24 hours of issuing the invoice.",
          status: "WARNING",
        },
      ],
    });
  });

  it("answers a repeated document as already submitted: 409 when reported, 208 when cleared", async () => {
    const { api, production } = await onboarded();
    const [simplified, standard] = chain(KINDS.simplifiedInvoice, KINDS.standardInvoice);
    await api.report(production, simplified!);
    expect(await api.report(production, simplified!)).toEqual({
      kind: "already_submitted",
      status: 409,
      messages: [
        {
          type: "ERROR",
          code: "Invoice-Errors",
          category: "Duplicate-Invoice",
          message: "Invoice was already Reported successfully earlier.",
          status: "ERROR",
        },
      ],
    });
    await api.clear(production, standard!);
    expect(await api.clear(production, standard!)).toMatchObject({ kind: "already_submitted", status: 208 });
  });
  it("goes on with the unit's chain after its production CSID is renewed", async () => {
    const { api, production } = await onboarded();
    const [first, second] = chain(KINDS.simplifiedInvoice, KINDS.simplifiedCreditNote);
    expect((await api.report(production, first!)).kind).toBe("reported");
    const renewed = await api.renewCsid(production, nextOtp(), unitCsr(UNIT_FIELDS, newUnitKey()));
    if (renewed.kind !== "issued") throw new Error(JSON.stringify(renewed));
    expect((await api.report(renewed.csid, second!)).kind).toBe("reported");
  });
});

describe("documents the fake refuses", () => {
  it("a body whose invoiceHash is not the document's: rejected, invalid-invoice-hash", async () => {
    const { api, production } = await onboarded();
    const doc = chain(KINDS.simplifiedInvoice)[0]!;
    const result = await api.report(production, { ...doc, invoiceHash: FIRST_PIH.slice(0, 43).concat("=") });
    expect(result).toMatchObject({
      kind: "rejected",
      status: 400,
      errors: [
        {
          code: "invalid-invoice-hash",
          category: "INVOICE_HASHING_ERRORS",
          message: "The invoice hash API body does not match the (calculated) Hash of the XML",
        },
      ],
    });
  });

  it("a broken chain: a second document whose PIH is not the first's hash", async () => {
    const { api, production } = await onboarded();
    await api.report(production, chain(KINDS.simplifiedInvoice)[0]!);
    const stray = signed({ icv: 2, pih: FIRST_PIH });
    expect(await api.report(production, stray)).toMatchObject({
      kind: "rejected",
      errors: [{ code: "invalid-previous-invoice-hash" }],
    });
  });

  it("a tampered QR: another document's QR in this one (the hash leaves the QR out, tag 6 tells)", async () => {
    const { api, production } = await onboarded();
    const [doc] = chain(KINDS.simplifiedInvoice);
    const other = signed({ number: "INV-000999" });
    const xml = doc!.xml.replace(/(<cbc:ID>QR<\/cbc:ID>.*?mimeCode="text\/plain">)[^<]+/, `$1${other.qr}`);
    expect(xml).not.toBe(doc!.xml);
    const result = await api.report(production, { ...doc!, xml });
    expect(result).toMatchObject({
      kind: "rejected",
      errors: expect.arrayContaining([
        expect.objectContaining({ code: "invoiceHash_QRCODE_INVALID", category: "QRCODE_VALIDATION" }),
      ]),
    });
  });

  it("a simplified document sent for clearance", async () => {
    const { api, production } = await onboarded();
    expect(await api.clear(production, chain(KINDS.simplifiedInvoice)[0]!)).toMatchObject({
      kind: "rejected",
      errors: [{ code: "invoice-type-mismatch" }],
    });
  });

  it("a request without Accept-Version V2: 406, rejected with ZATCA's words", async () => {
    const { fake, production } = await onboarded();
    const stripping: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.delete("Accept-Version");
      return fake.fetch(input, { ...init, headers });
    };
    const api = httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: stripping });
    expect(await api.report(production, chain(KINDS.simplifiedInvoice)[0]!)).toMatchObject({
      kind: "rejected",
      status: 406,
      errors: [{ code: "Invalid-Version", message: "This Version is not supported or not provided in the header." }],
    });
  });

  it("clearance switched off by ZATCA (303): the caller reports instead", async () => {
    const { api, fake, production } = await onboarded();
    fake.switchClearance(false);
    const [standard] = chain(KINDS.standardInvoice);
    expect(await api.clear(production, standard!)).toEqual({ kind: "clearance_off", status: 303 });
  });
});

describe("answers to send again", () => {
  it("5xx and 429 are retryable, with Retry-After when given; the same request goes through after", async () => {
    const { api, fake, production } = await onboarded();
    const [doc] = chain(KINDS.simplifiedInvoice);
    fake.interrupt(503, "30");
    expect(await api.report(production, doc!)).toMatchObject({ kind: "retryable", status: 503, retryAfterSeconds: 30 });
    fake.interrupt(429);
    expect(await api.report(production, doc!)).toMatchObject({
      kind: "retryable",
      status: 429,
      retryAfterSeconds: null,
    });
    expect((await api.report(production, doc!)).kind).toBe("reported");
  });

  it("reads Retry-After in its date form too", async () => {
    const { api, fake, production } = await onboarded();
    fake.interrupt(503, new Date(Date.now() + 3_600_000).toUTCString());
    const result = await api.report(production, chain(KINDS.simplifiedInvoice)[0]!);
    if (result.kind !== "retryable") throw new Error(JSON.stringify(result));
    expect(result.retryAfterSeconds).toBeGreaterThan(3_000);
    expect(result.retryAfterSeconds).toBeLessThanOrEqual(3_600);
  });

  it("an answer that never comes is retryable once the timeout passes", async () => {
    const { production } = await onboarded();
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    const api = httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: hanging, timeoutMs: 10 });
    expect(await api.report(production, chain(KINDS.simplifiedInvoice)[0]!)).toMatchObject({
      kind: "retryable",
      status: null,
      reason: "ZATCA /invoices/reporting/single: no answer in 10 ms",
    });
  });

  it("no answer at all is retryable", async () => {
    const { production } = await onboarded();
    const down: typeof fetch = async () => {
      throw new TypeError("fetch failed");
    };
    const api = httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: down });
    expect(await api.report(production, chain(KINDS.simplifiedInvoice)[0]!)).toMatchObject({
      kind: "retryable",
      status: null,
      reason: "ZATCA /invoices/reporting/single: TypeError: fetch failed",
    });
  });
});

describe("the API chosen by ZATCA_API", () => {
  it("is the fake by default, an environment's URL when named, and refuses the fake in production", async () => {
    const urls: string[] = [];
    const recording: typeof fetch = async (input) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return new Response(JSON.stringify({ requestID: 1, binarySecurityToken: btoa("MIIB"), secret: "s" }));
    };
    await eInvoicingApi({ ZATCA_API: "simulation" }, recording).complianceCsid("123456", "csr");
    expect(urls).toEqual(["https://gw-fatoora.zatca.gov.sa/e-invoicing/simulation/compliance"]);
    // The fake answers without the network: an OTP and a CSR it refuses, in ZATCA's words.
    expect(await eInvoicingApi({}, recording).complianceCsid("12", "csr")).toMatchObject({
      kind: "rejected",
      errors: [{ code: "Invalid-OTP" }],
    });
    expect(urls).toHaveLength(1);
    for (const vars of [{ ENVIRONMENT: "production" }, { ZATCA_API: "zatca-prod" }])
      expect(
        await eInvoicingApi(vars, recording).report({ binarySecurityToken: "t", secret: "s" }, signed()),
      ).toMatchObject({
        kind: "retryable",
        status: null,
      });
    expect(urls).toHaveLength(1);
  });
});

describe("answers the adapter cannot act on", () => {
  const answering =
    (status: number, body: string): typeof fetch =>
    async () =>
      new Response(body, { status, headers: { "content-type": "application/json" } });
  const credentials = { binarySecurityToken: "dG9rZW4=", secret: "secret" };
  const doc = () => chain(KINDS.standardInvoice)[0]!;

  it("a success without JSON, or a cleared document that is not base64 of UTF-8: retryable, not accepted", async () => {
    const html = httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: answering(200, "<html>gateway</html>") });
    expect(await html.report(credentials, doc())).toMatchObject({ kind: "retryable", status: 200 });
    const garbled = JSON.stringify({ clearanceStatus: "CLEARED", clearedInvoice: "//79" });
    const api = httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: answering(200, garbled) });
    expect(await api.clear(credentials, doc())).toMatchObject({ kind: "retryable", status: 200 });
  });

  it("a 403 or an onboarding error in another shape: rejected with its words", async () => {
    const forbidden = httpEInvoicingApi({
      baseUrl: FAKE_ZATCA_URL,
      fetcher: answering(403, JSON.stringify({ code: "Forbidden", message: "Not allowed for this VAT number" })),
    });
    expect(await forbidden.clear(credentials, doc())).toMatchObject({
      kind: "rejected",
      status: 403,
      errors: [{ code: "Forbidden", message: "Not allowed for this VAT number" }],
    });
    const listed = httpEInvoicingApi({
      baseUrl: FAKE_ZATCA_URL,
      fetcher: answering(400, '{"errors":["Invalid-OTP"]}'),
    });
    expect(await listed.complianceCsid("000000", "csr")).toMatchObject({
      kind: "rejected",
      errors: [{ code: "Invalid-OTP", message: "Invalid-OTP" }],
    });
  });
});
