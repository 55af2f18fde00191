/**
 * A local fake of MyFatoorah's API v2, as its documentation describes the requests and answers of
 * SendPayment, GetPaymentStatus and MakeRefund: `{IsSuccess, Message, ValidationErrors, Data}`,
 * a bearer API key, amounts as decimal numbers. A test drives it (pay an invoice, fail an attempt,
 * answer 500) and reads what the adapter sent.
 */

export const API_KEY = "test-myfatoorah-api-key";
export const WEBHOOK_SECRET = "test-myfatoorah-webhook-secret";
export const BASE_URL = "https://apitest.myfatoorah.com";

export type SentRequest = {
  method: string;
  url: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  /** The body as sent (to check how amounts are written) and parsed. */
  text: string;
  body: Record<string, unknown>;
};

type Transaction = {
  PaymentId: string;
  TransactionStatus: "Succss" | "Failed" | "InProgress";
  PaymentGateway: string;
  Error: string | null;
  ErrorCode: string | null;
};
type Invoice = {
  InvoiceId: number;
  InvoiceStatus: "Pending" | "Paid" | "Canceled";
  InvoiceValue: number;
  CustomerReference: string | null;
  UserDefinedField: string | null;
  transactions: Transaction[];
};

const answer = (status: number, body: unknown) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
const ok = (Data: unknown, Message = "") => answer(200, { IsSuccess: true, Message, ValidationErrors: null, Data });
const refused = (Message: string, ValidationErrors: { Name: string; Error: string }[] | null = null) =>
  answer(400, { IsSuccess: false, Message, ValidationErrors, Data: null });

// Invoice and payment ids are unique across the fakes of a test file, as references must be in its database.
let nextInvoice = 6_389_660;
let nextPayment = 7_070_000;

export function fakeMyFatoorah() {
  const requests: SentRequest[] = [];
  const invoices = new Map<number, Invoice>();
  let nextRefund = 2_840;
  /** Set to answer every request with this instead (a 500, a body that is not JSON). */
  let override: (() => Response) | null = null;

  const statusOf = (inv: Invoice) => ({
    InvoiceId: inv.InvoiceId,
    InvoiceStatus: inv.InvoiceStatus,
    InvoiceReference: `2026${String(inv.InvoiceId).slice(-6)}`,
    CustomerReference: inv.CustomerReference,
    CreatedDate: "2026-05-01T10:00:00",
    ExpiryDate: "May 4, 2026",
    InvoiceValue: inv.InvoiceValue,
    Comments: null,
    CustomerName: "Sara",
    CustomerMobile: "+966534501056",
    CustomerEmail: "sara@example.com",
    UserDefinedField: inv.UserDefinedField,
    InvoiceDisplayValue: `${inv.InvoiceValue.toFixed(2)} SR`,
    InvoiceItems: [],
    InvoiceTransactions: inv.transactions.map((t) => ({
      TransactionDate: "2026-05-01T10:01:00",
      PaymentGateway: t.PaymentGateway,
      ReferenceId: "612345678901",
      TrackId: "01-05-2026_123",
      TransactionId: "123456",
      PaymentId: t.PaymentId,
      AuthorizationId: "AB1234",
      TransactionStatus: t.TransactionStatus,
      TransationValue: inv.InvoiceValue.toFixed(2),
      CustomerServiceCharge: "0.000",
      DueValue: inv.InvoiceValue.toFixed(2),
      PaidCurrency: "SR",
      PaidCurrencyValue: inv.InvoiceValue.toFixed(2),
      Currency: "SR",
      Error: t.Error,
      ErrorCode: t.ErrorCode,
      CardNumber: "450875xxxxxx1019",
    })),
    Suppliers: [],
  });

  function handle(path: string, body: Record<string, unknown>): Response {
    switch (path) {
      case "/v2/SendPayment": {
        const missing = ["NotificationOption", "CustomerName", "InvoiceValue"].filter((k) => body[k] === undefined);
        if (missing.length)
          return refused(
            "Invalid data",
            missing.map((Name) => ({ Name, Error: `${Name} is required` })),
          );
        if (typeof body.InvoiceValue !== "number" || body.InvoiceValue <= 0) {
          return refused("Invalid data", [{ Name: "InvoiceValue", Error: "InvoiceValue must be greater than zero" }]);
        }
        const inv: Invoice = {
          InvoiceId: nextInvoice++,
          InvoiceStatus: "Pending",
          InvoiceValue: body.InvoiceValue,
          CustomerReference: (body.CustomerReference as string) ?? null,
          UserDefinedField: (body.UserDefinedField as string) ?? null,
          transactions: [],
        };
        invoices.set(inv.InvoiceId, inv);
        return ok(
          {
            InvoiceId: inv.InvoiceId,
            InvoiceURL: `https://demo.MyFatoorah.com/KWT/ie/0106${inv.InvoiceId}`,
            CustomerReference: inv.CustomerReference,
            UserDefinedField: inv.UserDefinedField,
          },
          "Invoice Created Successfully!",
        );
      }
      case "/v2/GetPaymentStatus": {
        const key = String(body.Key);
        const inv =
          body.KeyType === "InvoiceId"
            ? invoices.get(Number(key))
            : body.KeyType === "PaymentId"
              ? [...invoices.values()].find((i) => i.transactions.some((t) => t.PaymentId === key))
              : undefined;
        if (!inv) return refused("Invalid key", [{ Name: "Key", Error: "No invoice with this key" }]);
        return ok(statusOf(inv));
      }
      case "/v2/MakeRefund": {
        const inv = body.KeyType === "InvoiceId" ? invoices.get(Number(body.Key)) : undefined;
        if (!inv) return refused("Invalid key");
        if (inv.InvoiceStatus !== "Paid") return refused("The invoice is not paid");
        if (typeof body.Amount !== "number" || body.Amount > inv.InvoiceValue) {
          return refused("Refund amount is greater than the invoice value");
        }
        return ok(
          {
            Key: String(inv.InvoiceId),
            RefundId: nextRefund++,
            RefundReference: `2026${nextRefund}`,
            Amount: body.Amount,
            Comment: body.Comment ?? null,
          },
          "Refund request submitted successfully",
        );
      }
      default:
        return answer(404, "");
    }
  }

  const fetcher: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const text = await req.text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    requests.push({
      method: req.method,
      url: req.url,
      path: url.pathname,
      authorization: req.headers.get("authorization"),
      contentType: req.headers.get("content-type"),
      text,
      body,
    });
    if (override) return override();
    if (url.origin !== BASE_URL) return answer(404, "");
    if (req.headers.get("authorization") !== `Bearer ${API_KEY}`) return new Response("", { status: 401 });
    return handle(url.pathname, body);
  };

  /** An attempt on the invoice, as the customer's card made it; returns its PaymentId. */
  function attempt(invoiceId: number, result: "paid" | "failed", gateway = "VISA/MASTER"): string {
    const inv = invoices.get(invoiceId);
    if (!inv) throw new Error(`no invoice ${invoiceId}`);
    const PaymentId = `0707${nextPayment++}`;
    inv.transactions.push({
      PaymentId,
      TransactionStatus: result === "paid" ? "Succss" : "Failed",
      PaymentGateway: gateway,
      Error: result === "paid" ? null : "Insufficient Funds",
      ErrorCode: result === "paid" ? null : "MF002",
    });
    if (result === "paid") inv.InvoiceStatus = "Paid";
    return PaymentId;
  }

  return {
    fetcher,
    requests,
    invoices,
    attempt,
    answerWith(response: (() => Response) | null) {
      override = response;
    },
  };
}

/** HMAC-SHA256 of `message` under `secret`, standard base64: how MyFatoorah signs a webhook. */
export async function mfSign(secret: string, message: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(message)));
  return btoa(String.fromCharCode(...mac));
}

/** A Webhook V2 PAYMENT_STATUS_CHANGED event of an invoice, and its signature as MyFatoorah makes it. */
export async function paymentEvent(invoiceId: number | string, paymentId: string, paid: boolean, externalId = "") {
  const body = {
    Event: {
      Code: 1,
      Name: "PAYMENT_STATUS_CHANGED",
      CountryIsoCode: "SAU",
      CreationDate: "2026-05-01T10:01:05.0000000Z",
      Reference: "WH-000123",
    },
    Data: {
      Invoice: {
        Id: String(invoiceId),
        Status: paid ? "PAID" : "PENDING",
        Reference: "2026000123",
        CreationDate: "2026-05-01T10:00:00.0000000Z",
        ExpirationDate: "2026-05-04T10:00:00.0000000Z",
        ExternalIdentifier: externalId,
        UserDefinedField: null as string | null,
        MetaData: null,
      },
      Transaction: {
        Id: "123456",
        Status: paid ? "SUCCESS" : "FAILED",
        PaymentMethod: "VISA/MASTER",
        PaymentId: paymentId,
        ReferenceId: "612345678901",
        TrackId: "01-05-2026_123",
        AuthorizationId: "AB1234",
        TransactionDate: "2026-05-01T10:01:00.0000000Z",
        ECI: "05",
        IP: { Address: "203.0.113.9", Country: "Saudi Arabia" },
        Error: paid ? { Code: "", Message: "" } : { Code: "MF002", Message: "Insufficient Funds" },
        Card: {
          NameOnCard: "SARA",
          Number: "450875xxxxxx1019",
          Token: null,
          PanHash: "x",
          ExpiryMonth: "05",
          ExpiryYear: "29",
          Brand: "VISA",
          Issuer: "Bank",
          IssuerCountry: "SAU",
          FundingMethod: "debit",
        },
      },
      Customer: { Reference: null, Name: "Sara", Mobile: "+966534501056", Email: "sara@example.com" },
      Amount: {
        BaseCurrency: "SAR",
        ValueInBaseCurrency: "125.5",
        ServiceCharge: "0",
        ServiceChargeVAT: "0",
        ReceivableAmount: "122.0",
        DisplayCurrency: "SAR",
        ValueInDisplayCurrency: "125.5",
        PayCurrency: "SAR",
        ValueInPayCurrency: "125.5",
      },
      Suppliers: [],
    },
  };
  // The documented order, written out here rather than taken from the adapter.
  const message =
    `Invoice.Id=${invoiceId},Invoice.Status=${paid ? "PAID" : "PENDING"},` +
    `Transaction.Status=${paid ? "SUCCESS" : "FAILED"},Transaction.PaymentId=${paymentId},` +
    `Invoice.ExternalIdentifier=${externalId}`;
  return { body, signature: await mfSign(WEBHOOK_SECRET, message) };
}

/** A webhook request as MyFatoorah posts it. */
export const webhookRequest = (url: string, body: unknown, signature: string | null) =>
  new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(signature !== null && { "MyFatoorah-Signature": signature }) },
    body: JSON.stringify(body),
  });
