/**
 * ZATCA's published test material, cited rather than copied whole: the certificate and the
 * secp256k1 key its e-invoicing SDK ships for the sample taxpayer 399999999900003 (Data/Certificates,
 * also the fixed pair of its sandbox), and values from the SDK's signed samples. Our own inputs
 * are built around them.
 */
import type { EInvoiceInput } from "../../src/modules/orders/invoices/e-invoice/types";

/** The SDK's test CSID certificate (issued by ZATCA's pre-production CA, PRZEINVOICESCA4-CA). */
export const SDK_CERTIFICATE =
  "MIID3jCCA4SgAwIBAgITEQAAOAPF90Ajs/xcXwABAAA4AzAKBggqhkjOPQQDAjBiMRUwEwYKCZImiZPyLGQBGRYFbG9jYWwxEzARBgoJkiaJk/IsZAEZFgNnb3YxFzAVBgoJkiaJk/IsZAEZFgdleHRnYXp0MRswGQYDVQQDExJQUlpFSU5WT0lDRVNDQTQtQ0EwHhcNMjQwMTExMDkxOTMwWhcNMjkwMTA5MDkxOTMwWjB1MQswCQYDVQQGEwJTQTEmMCQGA1UEChMdTWF4aW11bSBTcGVlZCBUZWNoIFN1cHBseSBMVEQxFjAUBgNVBAsTDVJpeWFkaCBCcmFuY2gxJjAkBgNVBAMTHVRTVC04ODY0MzExNDUtMzk5OTk5OTk5OTAwMDAzMFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAEoWCKa0Sa9FIErTOv0uAkC1VIKXxU9nPpx2vlf4yhMejy8c02XJblDq7tPydo8mq0ahOMmNo8gwni7Xt1KT9UeKOCAgcwggIDMIGtBgNVHREEgaUwgaKkgZ8wgZwxOzA5BgNVBAQMMjEtVFNUfDItVFNUfDMtZWQyMmYxZDgtZTZhMi0xMTE4LTliNTgtZDlhOGYxMWU0NDVmMR8wHQYKCZImiZPyLGQBAQwPMzk5OTk5OTk5OTAwMDAzMQ0wCwYDVQQMDAQxMTAwMREwDwYDVQQaDAhSUlJEMjkyOTEaMBgGA1UEDwwRU3VwcGx5IGFjdGl2aXRpZXMwHQYDVR0OBBYEFEX+YvmmtnYoDf9BGbKo7ocTKYK1MB8GA1UdIwQYMBaAFJvKqqLtmqwskIFzVvpP2PxT+9NnMHsGCCsGAQUFBwEBBG8wbTBrBggrBgEFBQcwAoZfaHR0cDovL2FpYTQuemF0Y2EuZ292LnNhL0NlcnRFbnJvbGwvUFJaRUludm9pY2VTQ0E0LmV4dGdhenQuZ292LmxvY2FsX1BSWkVJTlZPSUNFU0NBNC1DQSgxKS5jcnQwDgYDVR0PAQH/BAQDAgeAMDwGCSsGAQQBgjcVBwQvMC0GJSsGAQQBgjcVCIGGqB2E0PsShu2dJIfO+xnTwFVmh/qlZYXZhD4CAWQCARIwHQYDVR0lBBYwFAYIKwYBBQUHAwMGCCsGAQUFBwMCMCcGCSsGAQQBgjcVCgQaMBgwCgYIKwYBBQUHAwMwCgYIKwYBBQUHAwIwCgYIKoZIzj0EAwIDSAAwRQIhALE/ichmnWXCUKUbca3yci8oqwaLvFdHVjQrveI9uqAbAiA9hC4M8jgMBADPSzmd2uiPJA6gKR3LE03U75eqbC/rXA==";

/** The SDK's test private key (SEC 1), the pair of SDK_CERTIFICATE. */
export const SDK_PRIVATE_KEY =
  "MHQCAQEEIL14JV+5nr/sE8Sppaf2IySovrhVBtt8+yz+g4NRKyz8oAcGBSuBBAAKoUQDQgAEoWCKa0Sa9FIErTOv0uAkC1VIKXxU9nPpx2vlf4yhMejy8c02XJblDq7tPydo8mq0ahOMmNo8gwni7Xt1KT9UeA==";

/**
 * Values of the SDK's signed standard invoice sample (Data/Samples/Standard/Invoice), signed with
 * the pair above: its invoice hash (the `-generateHash` of the SDK), SignatureValue, CertDigest and
 * signed properties with their digest.
 */
export const SDK_SAMPLE = {
  invoiceHash: "V4U5qlZ3yXQ/Si1AC/R8SLc3F+iNy27wdVe8IWRqFAQ=",
  signature: "MEUCIQCP9/y0oNgY+oIZyBMGx0eCRvcEKHsGybjFrneJlYVkwQIgBjyffZRZUD797Zs/bW2k027C6mDMMtVreOLhDmP+tz0=",
  certDigest: "ZDMwMmI0MTE1NzVjOTU2NTk4YzVlODhhYmI0ODU2NDUyNTU2YTVhYjhhMDFmN2FjYjk1YTA2OWQ0NjY2MjQ4NQ==",
  issuerName: "CN=PRZEINVOICESCA4-CA, DC=extgazt, DC=gov, DC=local",
  serialNumber: "379112742831380471835263969587287663520528387",
  signingTime: "2025-07-22T15:38:47",
  signedPropertiesDigest: "ODhlZTRmYmY3YWUzZWFjMDFmMThiZGI4OWMwMDVhMWQzMTNkZmE3MjNlMmFhYzc2Y2ZjZGM3NGMxZjc2ZWE5Yw==",
};

/**
 * The standard invoice of the Developer Portal's compliance-invoice example (the same sample,
 * signed on another day): the invoice hash its QR carries (its Reference's DigestValue was left
 * at the SDK sample's), its SignatureValue, its signed properties' digest and its QR (tags 1-8:
 * a standard invoice carries no tag 9).
 */
export const PORTAL_SAMPLE = {
  invoiceHash: "f+0WCqnPkInI+eL9G3LAry12fTPf+toC9UX07F4fI+s=",
  qr: "AW/YtNix2YPYqSDYqtmI2LHZitivINin2YTYqtmD2YbZiNmE2YjYrNmK2Kcg2KjYo9mC2LXZiSDYs9ix2LnYqSDYp9mE2YXYrdiv2YjYr9ipIHwgTWF4aW11bSBTcGVlZCBUZWNoIFN1cHBseSBMVEQCDzM5OTk5OTk5OTkwMDAwMwMTMjAyMi0wOS0wN1QxMjoyMToyOAQENC42MAUDMC42BixmKzBXQ3FuUGtJbkkrZUw5RzNMQXJ5MTJmVFBmK3RvQzlVWDA3RjRmSStzPQdgTUVVQ0lCeHlSOHJjNEs4NzI4d2RTRjRYU0RxUHMrcklMKzNURmg5bSthTnhRUHRTQWlFQTZjSGFwSXR2cDEzeU1TdTY2TmJPZzJDcG9tSHdVU25ZSjloNnVHUTY1YVk9CFgwVjAQBgcqhkjOPQIBBgUrgQQACgNCAAShYIprRJr0UgStM6/S4CQLVUgpfFT2c+nHa+V/jKEx6PLxzTZcluUOru0/J2jyarRqE4yY2jyDCeLte3UpP1R4",
  signature: "MEUCIBxyR8rc4K8728wdSF4XSDqPs+rIL+3TFh9m+aNxQPtSAiEA6cHapItvp13yMSu66NbOg2CpomHwUSnYJ9h6uGQ65aY=",
  signingTime: "2024-01-14T10:21:40",
  signedPropertiesDigest: "ODQwNTg1NTBhMjMzM2YxY2ZkZjVkYzdlNTZiZjY0ODJjMjNkYWI4MTUzNjdmNDVjMjAwZTBjODc2YTNhMWQ1Ng==",
};

/** A simplified invoice of two lines (15% VAT, rounded per line as our invoices are). */
export function simplifiedInput(over: Partial<EInvoiceInput> = {}): EInvoiceInput {
  return {
    kind: "invoice",
    transaction: "simplified",
    number: "INV-000123",
    uuid: "3cf5ee18-ee25-44ea-a444-2c37ba7f28be",
    issuedAt: "2026-01-05T09:30:00Z",
    icv: 1,
    pih: "NWZlY2ViNjZmZmM4NmYzOGQ5NTI3ODZjNmQ2OTZjNzljMmRiYzIzOWRkNGU5MWI0NjcyOWQ3M2EyN2ZiNTdlOQ==",
    currency: "SAR",
    seller: {
      name: "شركة المذاق | Al Mathaq Co",
      vatNumber: "399999999900003",
      id: { scheme: "CRN", value: "1010010000" },
      address: {
        street: "الامير سلطان | Prince Sultan",
        buildingNumber: "2322",
        district: "المربع | Al-Murabba",
        city: "الرياض | Riyadh",
        postalZone: "23333",
        country: "SA",
      },
    },
    buyer: { name: "Sara & Co <retail>" },
    lines: [
      {
        name: "Chicken bowl",
        quantity: "2",
        unitPrice: "20.00",
        netMinor: 4_000,
        vatMinor: 600,
        vatPercent: 15,
        category: "S",
      },
      {
        name: "قهوة",
        quantity: "1",
        unitPrice: "13.05",
        netMinor: 1_305,
        vatMinor: 196,
        vatPercent: 15,
        category: "S",
      },
    ],
    totals: { netMinor: 5_305, vatMinor: 796, grossMinor: 6_101 },
    paymentMeansCode: "10",
    ...over,
  };
}
