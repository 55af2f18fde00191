/**
 * ZATCA's e-invoicing API (Developer Portal, API reference: "Compliance CSID", "Compliance
 * Invoices", "Production CSID (Onboarding)", "Production CSID (Renewal)", "Reporting", "Clearance")
 * behind one interface, with its HTTP adapter. Every call sends `Accept-Version: V2` and
 * `Accept-Language`; the calls after onboarding authenticate with HTTP Basic
 * `binarySecurityToken:secret` (Security Features Implementation Standard, 5). Every answer, network
 * failures included, becomes one result: the caller never sees an exception for ZATCA's behaviour.
 */
import { fromBase64, toBase64, utf8 } from "./encoding.js";

/** A message of `validationResults` (infoMessages, warningMessages, errorMessages), or an onboarding error. */
export type ZatcaMessage = { type: string; code: string; category: string; message: string; status: string };

/** A CSID as issued: the certificate (`binarySecurityToken` is base64 of its base64 DER) and its secret. */
export type Csid = {
  requestId: string;
  binarySecurityToken: string;
  secret: string;
  /** The certificate's base64 DER, as parseCertificate and ds:X509Certificate take it. */
  certificate: string;
};

export type Credentials = Pick<Csid, "binarySecurityToken" | "secret">;

/** A signed document as the invoice calls take it. */
export type SubmittedDocument = { invoiceHash: string; uuid: string; xml: string };

/** What ZATCA refused, with its messages (final: the same request would be refused again). */
export type Rejected = { kind: "rejected"; status: number; errors: ZatcaMessage[]; warnings: ZatcaMessage[] };
/** The document's hash was accepted before (reporting 409, clearance 208): it counts as submitted. */
export type AlreadySubmitted = { kind: "already_submitted"; status: number; messages: ZatcaMessage[] };
/** No answer, 429 or 5xx: send the same request again later (after `retryAfterSeconds` when ZATCA says). */
export type Retryable = { kind: "retryable"; status: number | null; reason: string; retryAfterSeconds: number | null };
/** 401: the CSID or its secret is not (or no longer) valid; nothing goes through until it is replaced. */
export type CredentialsRefused = { kind: "credentials_refused"; status: 401; message: string };
export type Failure = Rejected | AlreadySubmitted | Retryable | CredentialsRefused;

type Accepted = { warnings: ZatcaMessage[]; info: ZatcaMessage[] };
export type CsidResult = { kind: "issued"; csid: Csid } | Failure;
export type ComplianceResult =
  | ({ kind: "passed"; reportingStatus: string | null; clearanceStatus: string | null } & Accepted)
  | Failure;
export type ReportResult = ({ kind: "reported" } & Accepted) | Failure;
/** `clearance_off`: 303, clearance is switched off by ZATCA; the document is reported instead. */
export type ClearResult =
  | ({ kind: "cleared"; clearedInvoice: string } & Accepted)
  | { kind: "clearance_off"; status: 303 }
  | Failure;

export interface EInvoicingApi {
  /** POST /compliance, header OTP: the compliance CSID for a unit's CSR (base64 of its PEM). */
  complianceCsid(otp: string, csr: string): Promise<CsidResult>;
  /** POST /compliance/invoices with the compliance CSID: one sample document checked. */
  complianceInvoice(credentials: Credentials, document: SubmittedDocument): Promise<ComplianceResult>;
  /** POST /production/csids {compliance_request_id} with the compliance CSID, once its checks passed. */
  productionCsid(compliance: Credentials, complianceRequestId: string): Promise<CsidResult>;
  /** PATCH /production/csids, header OTP, {csr} with the current production CSID: its renewal. */
  renewCsid(production: Credentials, otp: string, csr: string): Promise<CsidResult>;
  /** POST /invoices/reporting/single, Clearance-Status 0: a simplified document. */
  report(production: Credentials, document: SubmittedDocument): Promise<ReportResult>;
  /** POST /invoices/clearance/single, Clearance-Status 1: a standard document, cleared before it is shared. */
  clear(production: Credentials, document: SubmittedDocument): Promise<ClearResult>;
}

export const ZATCA_TIMEOUT_MS = 15_000;

/** HTTP Basic of a CSID (SEC 5): base64 of `binarySecurityToken:secret`. */
export const basicAuthorization = (c: Credentials) => `Basic ${toBase64(utf8(`${c.binarySecurityToken}:${c.secret}`))}`;

/** The body of the invoice calls (API, Reporting and Clearance: `invoice` is base64 of the XML). */
export const documentBody = (d: SubmittedDocument) => ({
  invoiceHash: d.invoiceHash,
  uuid: d.uuid,
  invoice: toBase64(utf8(d.xml)),
});

type Body = Record<string, unknown> | null;

const asMessages = (list: unknown): ZatcaMessage[] =>
  Array.isArray(list)
    ? list.map((m) => ({
        type: String(m?.type ?? "ERROR"),
        code: String(m?.code ?? ""),
        category: String(m?.category ?? ""),
        message: String(m?.message ?? ""),
        status: String(m?.status ?? "ERROR"),
      }))
    : [];

const error = (code: string, message: string, category = ""): ZatcaMessage => ({
  type: "ERROR",
  code,
  category,
  message,
  status: "ERROR",
});

/**
 * The error messages of any refusal: `validationResults.errorMessages` (invoice calls), `errors`
 * (onboarding: a list of {code, message}, or of strings), `{errorCode, errorCategory, errorMessage}`
 * (an invalid CSR) or `{code, message}`; the status line when the body says nothing.
 */
function errorsOf(body: Body, status: number): ZatcaMessage[] {
  const validation = body?.validationResults as Body;
  if (validation) return asMessages(validation.errorMessages);
  if (Array.isArray(body?.errors) && body.errors.length)
    return body.errors.map((e: unknown) =>
      typeof e === "string" ? error(e, e) : error(String((e as Body)?.code ?? ""), String((e as Body)?.message ?? "")),
    );
  if (body?.errorCategory || body?.errorMessage)
    return [error(String(body.errorCategory ?? ""), String(body.errorMessage ?? ""), String(body.errorCode ?? ""))];
  if (body?.code || body?.message) return [error(String(body.code ?? status), String(body.message ?? ""))];
  return [error(String(status), `ZATCA answered ${status} without a reason.`)];
}

const warningsOf = (body: Body) => asMessages((body?.validationResults as Body)?.warningMessages);
const infoOf = (body: Body) => asMessages((body?.validationResults as Body)?.infoMessages);

/** Retry-After in seconds, from its seconds or its date form. */
function retryAfterOf(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export type HttpApiOptions = {
  /** The environment's base URL (EINVOICING_BASE_URLS), or the local fake's. */
  baseUrl: string;
  fetcher?: typeof fetch;
  timeoutMs?: number;
  language?: "en" | "ar";
};

type Reply = { status: number; body: Body };
type Answer = Reply | Retryable;

const rejected = (r: Reply): Rejected => ({
  kind: "rejected",
  status: r.status,
  errors: errorsOf(r.body, r.status),
  warnings: warningsOf(r.body),
});
const accepted = (r: Reply) => ({ warnings: warningsOf(r.body), info: infoOf(r.body) });

/** UTF-8 text of base64, or null when it is not base64 of UTF-8. */
function base64Text(b64: string): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(fromBase64(b64));
  } catch {
    return null;
  }
}

/** The HTTP adapter of ZATCA's API. */
export function httpEInvoicingApi(options: HttpApiOptions): EInvoicingApi {
  const base = options.baseUrl.replace(/\/+$/, "");
  const fetcher = options.fetcher ?? fetch;
  const timeoutMs = options.timeoutMs ?? ZATCA_TIMEOUT_MS;

  async function call(
    method: "POST" | "PATCH",
    path: string,
    body: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<Answer> {
    let res: Response;
    try {
      res = await fetcher(`${base}${path}`, {
        method,
        headers: {
          "Accept-Version": "V2",
          "Accept-Language": options.language ?? "en",
          Accept: "application/json",
          "Content-Type": "application/json",
          ...headers,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const reason = (e as Error)?.name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : String(e);
      return { kind: "retryable", status: null, reason: `ZATCA ${path}: ${reason}`, retryAfterSeconds: null };
    }
    if (res.status === 429 || res.status >= 500) {
      await res.body?.cancel();
      return {
        kind: "retryable",
        status: res.status,
        reason: `ZATCA ${path} answered ${res.status}`,
        retryAfterSeconds: retryAfterOf(res.headers.get("Retry-After")),
      };
    }
    const text = await res.text();
    let parsed: Body = null;
    try {
      parsed = text ? (JSON.parse(text) as Body) : null;
    } catch {
      // A success without JSON is not an answer we can act on: ask again later.
      if (res.ok)
        return {
          kind: "retryable",
          status: res.status,
          reason: `ZATCA ${path} answered ${res.status} without JSON`,
          retryAfterSeconds: null,
        };
    }
    return { status: res.status, body: parsed };
  }

  /** The failures every call shares (401, 4xx); null when the answer is the call's own to read. */
  function failureOf(r: Reply): Failure | null {
    if (r.status === 401)
      return { kind: "credentials_refused", status: 401, message: String(r.body?.message || "Unauthorized") };
    return r.status >= 400 ? rejected(r) : null;
  }

  function csidOf(r: Answer): CsidResult {
    if ("kind" in r) return r;
    const failed = failureOf(r);
    if (failed) return failed;
    const token = r.body?.binarySecurityToken;
    const secret = r.body?.secret;
    const certificate = typeof token === "string" ? base64Text(token) : null;
    if (!certificate || typeof secret !== "string" || !secret) return rejected(r);
    return {
      kind: "issued",
      csid: { requestId: String(r.body?.requestID ?? ""), binarySecurityToken: token as string, secret, certificate },
    };
  }

  const invoiceHeaders = (c: Credentials, clearance?: "0" | "1") => ({
    Authorization: basicAuthorization(c),
    ...(clearance && { "Clearance-Status": clearance }),
  });

  return {
    async complianceCsid(otp, csr) {
      return csidOf(await call("POST", "/compliance", { csr }, { OTP: otp }));
    },

    async productionCsid(compliance, complianceRequestId) {
      const body = { compliance_request_id: complianceRequestId };
      return csidOf(await call("POST", "/production/csids", body, invoiceHeaders(compliance)));
    },

    async renewCsid(production, otp, csr) {
      return csidOf(await call("PATCH", "/production/csids", { csr }, { ...invoiceHeaders(production), OTP: otp }));
    },

    async complianceInvoice(credentials, document) {
      const r = await call("POST", "/compliance/invoices", documentBody(document), invoiceHeaders(credentials));
      if ("kind" in r) return r;
      const failed = failureOf(r);
      if (failed) return failed;
      if ((r.body?.validationResults as Body)?.status === "ERROR") return rejected(r);
      return {
        kind: "passed",
        reportingStatus: (r.body?.reportingStatus as string | null) ?? null,
        clearanceStatus: (r.body?.clearanceStatus as string | null) ?? null,
        ...accepted(r),
      };
    },

    async report(production, document) {
      const r = await call(
        "POST",
        "/invoices/reporting/single",
        documentBody(document),
        invoiceHeaders(production, "0"),
      );
      if ("kind" in r) return r;
      // 409: this hash was reported before (its body says NOT_REPORTED, with a Duplicate-Invoice error).
      if (r.status === 409) return { kind: "already_submitted", status: 409, messages: errorsOf(r.body, 409) };
      const failed = failureOf(r);
      if (failed) return failed;
      if (r.body?.reportingStatus !== "REPORTED") return rejected(r);
      return { kind: "reported", ...accepted(r) };
    },

    async clear(production, document) {
      const path = "/invoices/clearance/single";
      const r = await call("POST", path, documentBody(document), invoiceHeaders(production, "1"));
      if ("kind" in r) return r;
      if (r.status === 303) return { kind: "clearance_off", status: 303 };
      // 208: this hash was cleared before.
      if (r.status === 208) return { kind: "already_submitted", status: 208, messages: errorsOf(r.body, 208) };
      const failed = failureOf(r);
      if (failed) return failed;
      if (r.body?.clearanceStatus !== "CLEARED") return rejected(r);
      const cleared = typeof r.body.clearedInvoice === "string" ? base64Text(r.body.clearedInvoice) : null;
      // Cleared, but its document unreadable: asked again, ZATCA answers 208 and ours stands.
      if (cleared === null)
        return {
          kind: "retryable",
          status: r.status,
          reason: `ZATCA ${path}: clearedInvoice unreadable`,
          retryAfterSeconds: null,
        };
      return { kind: "cleared", clearedInvoice: cleared, ...accepted(r) };
    },
  };
}
