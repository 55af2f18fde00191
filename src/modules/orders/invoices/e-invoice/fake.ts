/**
 * A local fake of ZATCA's e-invoicing API, as a fetch handler: for the tests, and for `wrangler
 * dev` where the e-invoicing consumer runs (never in the API Worker: it carries the e-invoice core).
 * It answers with the API's shapes and statuses (api.ts names the sections):
 *
 * - every call needs `Accept-Version: V2` (else 406), the calls after onboarding HTTP Basic with a
 *   CSID it issued, of the right kind (else 401 `{timestamp, status, error, message}`);
 * - onboarding checks the OTP (six digits, once) and the CSR (parsed, its signature, the template
 *   name of its environment, the subject and SN/UID/title), and issues a certificate of the CSR's
 *   own key from its own CA (fake-ca.ts), as simulation and core do (or, with `fixedCertificate`,
 *   the SDK's test certificate whatever the CSR, as the developer portal does); the production CSID
 *   needs every compliance check of the unit's invoice types passed (an invoice and a credit note each);
 * - documents get fake-checks.ts's checks; reporting and clearance also the chain (per unit, the
 *   CSR's SN) and a repeated hash is 409 (reporting) or 208 (clearance).
 *
 * State lives in the instance (one per isolate under `wrangler dev`). A CSID's secret carries its kind
 * and request id under the fake's MAC, and its certificate names the unit, so a restarted fake (a
 * new isolate, `npm start` again) still takes the CSIDs an earlier one issued; it no longer knows
 * such a unit's last hash, so it takes the PIH of the unit's first document after the restart as
 * sent (ZATCA keeps it: the chain check of a fresh fake is what differs). Compliance checks passed
 * before a restart are forgotten: an onboarding cut by it starts again with a new OTP.
 */

import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { certificateUnit, parseCsr } from "./csr.js";
import { fromBase64, toBase64, utf8 } from "./encoding.js";
import { CERTIFICATE_TEMPLATES, type EInvoicingEnvironment } from "./environments.js";
import { fakeCertificate } from "./fake-ca.js";
import { checkDocument, validationResults, zatcaMessage } from "./fake-checks.js";
import { FIRST_PIH } from "./hash.js";

/** The SDK's test CSID certificate (ZATCA's pre-production CA), which the developer portal issues to every unit. */
export const SDK_TEST_CERTIFICATE =
  "MIID3jCCA4SgAwIBAgITEQAAOAPF90Ajs/xcXwABAAA4AzAKBggqhkjOPQQDAjBiMRUwEwYKCZImiZPyLGQBGRYFbG9jYWwxEzARBgoJkiaJk/IsZAEZFgNnb3YxFzAVBgoJkiaJk/IsZAEZFgdleHRnYXp0MRswGQYDVQQDExJQUlpFSU5WT0lDRVNDQTQtQ0EwHhcNMjQwMTExMDkxOTMwWhcNMjkwMTA5MDkxOTMwWjB1MQswCQYDVQQGEwJTQTEmMCQGA1UEChMdTWF4aW11bSBTcGVlZCBUZWNoIFN1cHBseSBMVEQxFjAUBgNVBAsTDVJpeWFkaCBCcmFuY2gxJjAkBgNVBAMTHVRTVC04ODY0MzExNDUtMzk5OTk5OTk5OTAwMDAzMFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAEoWCKa0Sa9FIErTOv0uAkC1VIKXxU9nPpx2vlf4yhMejy8c02XJblDq7tPydo8mq0ahOMmNo8gwni7Xt1KT9UeKOCAgcwggIDMIGtBgNVHREEgaUwgaKkgZ8wgZwxOzA5BgNVBAQMMjEtVFNUfDItVFNUfDMtZWQyMmYxZDgtZTZhMi0xMTE4LTliNTgtZDlhOGYxMWU0NDVmMR8wHQYKCZImiZPyLGQBAQwPMzk5OTk5OTk5OTAwMDAzMQ0wCwYDVQQMDAQxMTAwMREwDwYDVQQaDAhSUlJEMjkyOTEaMBgGA1UEDwwRU3VwcGx5IGFjdGl2aXRpZXMwHQYDVR0OBBYEFEX+YvmmtnYoDf9BGbKo7ocTKYK1MB8GA1UdIwQYMBaAFJvKqqLtmqwskIFzVvpP2PxT+9NnMHsGCCsGAQUFBwEBBG8wbTBrBggrBgEFBQcwAoZfaHR0cDovL2FpYTQuemF0Y2EuZ292LnNhL0NlcnRFbnJvbGwvUFJaRUludm9pY2VTQ0E0LmV4dGdhenQuZ292LmxvY2FsX1BSWkVJTlZPSUNFU0NBNC1DQSgxKS5jcnQwDgYDVR0PAQH/BAQDAgeAMDwGCSsGAQQBgjcVBwQvMC0GJSsGAQQBgjcVCIGGqB2E0PsShu2dJIfO+xnTwFVmh/qlZYXZhD4CAWQCARIwHQYDVR0lBBYwFAYIKwYBBQUHAwMGCCsGAQUFBwMCMCcGCSsGAQQBgjcVCgQaMBgwCgYIKwYBBQUHAwMwCgYIKwYBBQUHAwIwCgYIKoZIzj0EAwIDSAAwRQIhALE/ichmnWXCUKUbca3yci8oqwaLvFdHVjQrveI9uqAbAiA9hC4M8jgMBADPSzmd2uiPJA6gKR3LE03U75eqbC/rXA==";

/** The fake's base URL (any host works: it reads the path after /e-invoicing/<environment>). */
export const FAKE_ZATCA_URL = "https://zatca.fake/e-invoicing/fake";

type Issued = {
  kind: "compliance" | "production";
  /** The certificate's `binarySecurityToken` (base64 of its base64), the user of its Basic auth. */
  token: string;
  requestId: string;
  /** The unit, as its CSR's SN names it: its chain outlives its CSIDs. */
  unit: string;
  /** The CSR's title: standard (first digit) and simplified (second) allowed. */
  invoiceTypes: string;
  /** Compliance checks passed: `standard:388`, `simplified:381`... */
  passed: Set<string>;
};

export type FakeZatcaOptions = {
  /** Whose CSRs it takes (their template name); the developer portal's by default. */
  environment?: EInvoicingEnvironment;
  /** The fake's clock, for the 24-hour reporting window and the certificates' validity. */
  now?: () => number;
  /** Issue the SDK's test certificate whatever the CSR's key, as the developer portal does. */
  fixedCertificate?: boolean;
  /** How long the certificates it issues are valid (5 years by default). */
  validForDays?: number;
};

export type SeenRequest = { method: string; path: string; headers: Record<string, string>; body: unknown };

/** The fake's MAC key over its secrets: fixed, so that every fake (and every restart) knows them. */
const SECRET_KEY = sha256(utf8("commerce fake ZATCA CSID secrets"));
const KIND_BYTE = { compliance: 1, production: 2 } as const;

/** The 6 bytes of kind and request id, then 25 of the MAC over them and the token: 32 bytes, as ZATCA's secrets. */
function secretFor(kind: Issued["kind"], requestId: string, token: string): string {
  const head = new Uint8Array(7);
  head[0] = KIND_BYTE[kind];
  const id = BigInt(requestId);
  for (let i = 0; i < 6; i++) head[6 - i] = Number((id >> BigInt(8 * i)) & 0xffn);
  const mac = hmac(sha256, SECRET_KEY, new Uint8Array([...head, ...utf8(token)])).slice(0, 25);
  return toBase64(new Uint8Array([...head, ...mac]));
}

/** What an earlier fake issued under this token and secret, read back from them; null when it did not. */
function recovered(token: string, secret: string): Issued | null {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(secret);
  } catch {
    return null;
  }
  const kind = bytes[0] === 1 ? "compliance" : bytes[0] === 2 ? "production" : null;
  if (bytes.length !== 32 || !kind) return null;
  let id = 0n;
  for (let i = 1; i < 7; i++) id = (id << 8n) | BigInt(bytes[i]!);
  const requestId = String(id);
  if (secretFor(kind, requestId, token) !== secret) return null;
  let unit: Record<string, string>;
  try {
    unit = certificateUnit(atob(token));
  } catch {
    return null;
  }
  if (!unit.SN || !unit.title) return null;
  return { kind, token, requestId, unit: unit.SN, invoiceTypes: unit.title, passed: new Set() };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

export function fakeZatca(options: FakeZatcaOptions = {}) {
  const environment = options.environment ?? "developer-portal";
  const now = options.now ?? (() => Date.now());
  const csids = new Map<string, Issued>();
  const usedOtps = new Set<string>();
  /** Per unit: the hash its next document's PIH must be. */
  const heads = new Map<string, string>();
  /** Units whose CSIDs an earlier fake issued: their chain goes on from the PIH they send first. */
  const unitsBeforeRestart = new Set<string>();
  /** Hashes accepted by reporting or clearance. */
  const accepted = new Set<string>();
  const interruptions: { status: number; retryAfter?: string }[] = [];
  const requests: SeenRequest[] = [];
  let nextRequestId = 1_234_567_890_123;
  let clearanceOff = false;

  const unauthorized = () => json(401, { timestamp: now(), status: 401, error: "Unauthorized", message: "" });
  const refused = (code: string, message: string) => json(400, { errors: [{ code, message }] });
  const invalidCsr = () =>
    json(400, {
      errorCode: "400",
      errorCategory: "Invalid-CSR",
      errorMessage: "The provided Certificate Signing Request (CSR) is invalid.",
    });

  /** The CSID the Basic header names, if it is one of ours of that kind. */
  function authorised(request: Request, kind: Issued["kind"]): Issued | null {
    const header = request.headers.get("Authorization") ?? "";
    if (!header.startsWith("Basic ")) return null;
    let decoded: string;
    try {
      decoded = atob(header.slice(6).trim());
    } catch {
      return null;
    }
    const at = decoded.indexOf(":");
    if (at <= 0) return null;
    const [token, secret] = [decoded.slice(0, at), decoded.slice(at + 1)];
    let issued = csids.get(secret);
    if (!issued) {
      const earlier = recovered(token, secret);
      if (!earlier) return null;
      csids.set(secret, earlier);
      if (!heads.has(earlier.unit)) unitsBeforeRestart.add(earlier.unit);
      issued = earlier;
    }
    return token === issued.token && issued.kind === kind ? issued : null;
  }

  /** A new CSID for the unit the CSR names, or the CSR's refusal. */
  function issue(request: Request, body: Record<string, unknown>, kind: Issued["kind"]): Response {
    const otp = request.headers.get("OTP") ?? "";
    if (!/^\d{6}$/.test(otp) || usedOtps.has(otp)) return refused("Invalid-OTP", "The provided OTP is invalid");
    let csr: ReturnType<typeof parseCsr>;
    try {
      csr = parseCsr(String(body.csr ?? ""));
    } catch {
      return invalidCsr();
    }
    const { subject: s, unit: u } = csr;
    const valid =
      csr.signatureValid &&
      csr.templateName === CERTIFICATE_TEMPLATES[environment] &&
      s.C === "SA" &&
      !!s.CN &&
      !!s.O &&
      !!s.OU &&
      /^1-[^|]+\|2-[^|]+\|3-[^|]+$/.test(u.SN ?? "") &&
      /^3\d{13}3$/.test(u.UID ?? "") &&
      /^[01]{4}$/.test(u.title ?? "") &&
      !!u.registeredAddress &&
      !!u.businessCategory;
    if (!valid) return invalidCsr();
    usedOtps.add(otp);
    const certificate = options.fixedCertificate
      ? SDK_TEST_CERTIFICATE
      : fakeCertificate(csr, {
          now: now(),
          validForDays: options.validForDays ?? 1826,
          serial: nextRequestId % 2 ** 32,
        });
    return grant(kind, u.SN!, u.title!, btoa(certificate));
  }

  /** A CSID of a new request id and a random secret, as the API answers it. */
  function grant(kind: Issued["kind"], unit: string, invoiceTypes: string, token: string): Response {
    const requestId = String(nextRequestId++);
    const secret = secretFor(kind, requestId, token);
    csids.set(secret, { kind, token, requestId, unit, invoiceTypes, passed: new Set() });
    return json(200, {
      requestID: Number(requestId),
      ...(kind === "production" && {
        tokenType: "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3",
      }),
      dispositionMessage: "ISSUED",
      binarySecurityToken: token,
      secret,
      errors: null,
    });
  }

  /** The checks a unit's CSR asked for: an invoice and a credit note of each type it issues. */
  const requiredChecks = (issued: Issued) =>
    [
      ...(issued.invoiceTypes[0] === "1" ? ["standard"] : []),
      ...(issued.invoiceTypes[1] === "1" ? ["simplified"] : []),
    ].flatMap((t) => [`${t}:388`, `${t}:381`]);

  function production(request: Request, body: Record<string, unknown>): Response {
    const compliance = authorised(request, "compliance");
    if (!compliance) return unauthorized();
    if (String(body.compliance_request_id ?? "") !== compliance.requestId)
      return refused("Invalid-Request-ID", "The compliance request ID is not this compliance CSID's.");
    const missing = requiredChecks(compliance).filter((c) => !compliance.passed.has(c));
    if (missing.length)
      return refused("Missing-Compliance-Steps", `The compliance checks have not passed for: ${missing.join(", ")}.`);
    // The production CSID certifies the key the compliance CSID did.
    return grant("production", compliance.unit, compliance.invoiceTypes, compliance.token);
  }

  function renew(request: Request, body: Record<string, unknown>): Response {
    if (!authorised(request, "production")) return unauthorized();
    return issue(request, body, "production");
  }

  function complianceInvoice(request: Request, body: Record<string, unknown>): Response {
    const issued = authorised(request, "compliance");
    if (!issued) return unauthorized();
    const checks = checkDocument(body, undefined, now());
    const v = checks.verified;
    const simplified = v?.transactionCode?.startsWith("02") ?? false;
    const ok = !checks.errors.length;
    if (ok && v) issued.passed.add(`${simplified ? "simplified" : "standard"}:${v.typeCode}`);
    return json(ok ? (checks.warnings.length ? 202 : 200) : 400, {
      validationResults: validationResults(checks.errors, checks.warnings, !!v),
      reportingStatus: simplified ? (ok ? "REPORTED" : "NOT_REPORTED") : null,
      clearanceStatus: simplified ? null : ok ? "CLEARED" : "NOT_CLEARED",
      qrSellertStatus: null,
      qrBuyertStatus: null,
    });
  }

  function submit(request: Request, body: Record<string, unknown>, mode: "reporting" | "clearance"): Response {
    const issued = authorised(request, "production");
    if (!issued) return unauthorized();
    const statusField = mode === "reporting" ? "reportingStatus" : "clearanceStatus";
    const [yes, no] = mode === "reporting" ? ["REPORTED", "NOT_REPORTED"] : ["CLEARED", "NOT_CLEARED"];
    const header = request.headers.get("Clearance-Status");
    if (header !== (mode === "reporting" ? "0" : "1")) {
      const errors = [
        zatcaMessage(
          "ERROR",
          "Invalid-Clearance-Status",
          `Clearance-Status must be ${mode === "reporting" ? 0 : 1} here.`,
          "REQUEST",
        ),
      ];
      return json(400, { validationResults: validationResults(errors, [], false), [statusField]: no });
    }
    if (mode === "clearance" && clearanceOff) return json(303, null);
    const pih = heads.get(issued.unit) ?? (unitsBeforeRestart.has(issued.unit) ? undefined : FIRST_PIH);
    const checks = checkDocument(body, pih, now());
    const v = checks.verified;
    if (v && accepted.has(v.invoiceHash)) {
      const words = mode === "reporting" ? "Reported" : "Cleared";
      const duplicate = zatcaMessage(
        "ERROR",
        "Invoice-Errors",
        `Invoice was already ${words} successfully earlier.`,
        "Duplicate-Invoice",
      );
      return json(mode === "reporting" ? 409 : 208, {
        validationResults: validationResults([duplicate], [], true),
        [statusField]: no,
      });
    }
    const simplified = v?.transactionCode?.startsWith("02");
    // While clearance is off, standard documents are reported (ZATCA's 303 says so).
    const standardReported = mode === "reporting" && clearanceOff && !simplified;
    if (v && simplified !== (mode === "reporting") && !standardReported)
      checks.errors.push(
        zatcaMessage(
          "ERROR",
          "invoice-type-mismatch",
          mode === "reporting"
            ? "Only simplified documents are reported; standard ones are cleared."
            : "Only standard documents are cleared; simplified ones are reported.",
        ),
      );
    // The next document chains on this one, accepted or not (a rejected document keeps its ICV and hash).
    if (v) heads.set(issued.unit, v.invoiceHash);
    const ok = !checks.errors.length;
    if (ok && v) accepted.add(v.invoiceHash);
    return json(ok ? (checks.warnings.length ? 202 : 200) : 400, {
      validationResults: validationResults(checks.errors, checks.warnings, !!v),
      [statusField]: ok ? yes : no,
      // ZATCA's cleared document carries its own stamp; the fake hands back the one it was sent.
      ...(mode === "clearance" && { clearedInvoice: ok ? body.invoice : null }),
    });
  }

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname.replace(/^.*?\/e-invoicing\/[^/]+/, "").replace(/\/+$/, "");
    let body: Record<string, unknown> = {};
    const text = await request.text();
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      return refused("Invalid-Request", "The body is not JSON.");
    }
    requests.push({ method: request.method, path, headers: Object.fromEntries(request.headers), body });
    const interruption = interruptions.shift();
    if (interruption)
      return json(
        interruption.status,
        { message: interruption.status === 429 ? "Too Many Requests" : "Internal Server Error" },
        interruption.retryAfter ? { "Retry-After": interruption.retryAfter } : {},
      );
    if (request.headers.get("Accept-Version") !== "V2")
      return json(406, {
        code: "Invalid-Version",
        message: "This Version is not supported or not provided in the header.",
      });
    const route = `${request.method} ${path}`;
    if (route === "POST /compliance") return issue(request, body, "compliance");
    if (route === "POST /compliance/invoices") return complianceInvoice(request, body);
    if (route === "POST /production/csids") return production(request, body);
    if (route === "PATCH /production/csids") return renew(request, body);
    if (route === "POST /invoices/reporting/single") return submit(request, body, "reporting");
    if (route === "POST /invoices/clearance/single") return submit(request, body, "clearance");
    return json(404, { timestamp: now(), status: 404, error: "Not Found", message: "", path });
  }

  return {
    /** The fetch handler: pass it as the adapter's `fetcher`. */
    fetch: (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init)),
    /** What was sent, in order (headers lower-cased). */
    requests,
    /** Answer the next `times` requests with `status` (429 or 5xx), with Retry-After if given. */
    interrupt(status: number, retryAfter?: string, times = 1) {
      for (let i = 0; i < times; i++) interruptions.push({ status, retryAfter });
    },
    /** Clearance switched off (303), as ZATCA may do. */
    switchClearance(on: boolean) {
      clearanceOff = !on;
    },
    /** The hash a unit's next document must carry as its PIH. */
    headOf: (unit: string) => heads.get(unit) ?? FIRST_PIH,
  };
}

export type FakeZatca = ReturnType<typeof fakeZatca>;
