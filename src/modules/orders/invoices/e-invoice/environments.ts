/**
 * ZATCA's three e-invoicing environments (Developer Portal, "Onboarding and API" pages): the
 * developer portal (a sandbox that answers with its own test certificate), the simulation (a
 * replica of production, onboarded from the Fatoora simulation portal) and the core (production).
 * Each has its base URL and the certificate template name its CSRs carry (Security Features
 * Implementation Standard, 2.2.2).
 */

export const EINVOICING_ENVIRONMENTS = ["developer-portal", "simulation", "core"] as const;
export type EInvoicingEnvironment = (typeof EINVOICING_ENVIRONMENTS)[number];

export const EINVOICING_BASE_URLS: Record<EInvoicingEnvironment, string> = {
  "developer-portal": "https://gw-fatoora.zatca.gov.sa/e-invoicing/developer-portal",
  simulation: "https://gw-fatoora.zatca.gov.sa/e-invoicing/simulation",
  core: "https://gw-fatoora.zatca.gov.sa/e-invoicing/core",
};

/** The certificate template name (OID 1.3.6.1.4.1.311.20.2) a CSR asks for in each environment. */
export const CERTIFICATE_TEMPLATES: Record<EInvoicingEnvironment, string> = {
  "developer-portal": "TSTZATCA-Code-Signing",
  simulation: "PREZATCA-Code-Signing",
  core: "ZATCA-Code-Signing",
};
