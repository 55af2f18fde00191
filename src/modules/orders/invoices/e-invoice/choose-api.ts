/**
 * Which e-invoicing API the consumer speaks to: `ZATCA_API` names ZATCA's environment
 * (`developer-portal`, `simulation`, `core`) or `fake` (the default, for `wrangler dev` and tests),
 * as `CARD_GATEWAY` chooses the card gateway. The fake is refused in production, and an unknown
 * name is told at call time as a retryable answer, so documents wait instead of being lost.
 */
import { type EInvoicingApi, httpEInvoicingApi, type Retryable } from "./api.js";
import { EINVOICING_BASE_URLS, EINVOICING_ENVIRONMENTS, type EInvoicingEnvironment } from "./environments.js";
import { FAKE_ZATCA_URL, type FakeZatca, fakeZatca } from "./fake.js";

export type EInvoicingVars = { ZATCA_API?: string; ENVIRONMENT?: string };

export const ZATCA_APIS = ["fake", ...EINVOICING_ENVIRONMENTS] as const;

/** One fake per isolate, so that the CSIDs it issued and its chains last between queue batches. */
let sharedFake: FakeZatca | undefined;

function misconfigured(reason: string): EInvoicingApi {
  const fail = async (): Promise<Retryable> => ({ kind: "retryable", status: null, reason, retryAfterSeconds: null });
  return {
    complianceCsid: fail,
    complianceInvoice: fail,
    productionCsid: fail,
    renewCsid: fail,
    report: fail,
    clear: fail,
  };
}

export function eInvoicingApi(vars: EInvoicingVars, fetcher: typeof fetch = fetch): EInvoicingApi {
  const name = vars.ZATCA_API?.trim() || "fake";
  if (name === "fake") {
    if (vars.ENVIRONMENT === "production") return misconfigured("ZATCA_API is fake, which production refuses");
    sharedFake ??= fakeZatca();
    return httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: sharedFake.fetch });
  }
  if ((EINVOICING_ENVIRONMENTS as readonly string[]).includes(name))
    return httpEInvoicingApi({ baseUrl: EINVOICING_BASE_URLS[name as EInvoicingEnvironment], fetcher });
  return misconfigured(`ZATCA_API ${name} is not one of ${ZATCA_APIS.join(", ")}`);
}

/** The environment whose certificate template a unit's CSR asks for: the fake takes the developer portal's. */
export function eInvoicingEnvironment(vars: EInvoicingVars): EInvoicingEnvironment {
  const name = vars.ZATCA_API?.trim() || "fake";
  return (EINVOICING_ENVIRONMENTS as readonly string[]).includes(name)
    ? (name as EInvoicingEnvironment)
    : "developer-portal";
}
