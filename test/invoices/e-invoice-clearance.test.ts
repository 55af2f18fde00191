import { describe, expect, it } from "vitest";
import { signStores } from "../../src/modules/orders/einvoices/signer";
import { verifyEInvoice } from "../../src/modules/orders/invoices/e-invoice/verify";
import { db } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { shopperOf, stocked } from "../orders/helpers";
import { SECRET } from "./e-invoice-chain-fixtures";
import { checkedOutInvoice, consume, einvoiceOf, outboxOf, reportingStore } from "./e-invoice-reporting-fixtures";

/*
 * Standard (B2B) invoices (docs/zatca.md): a cart naming a VAT-registered buyer, checked out and
 * paid, gives a standard e-invoice, cleared by ZATCA before it is shared: its XML and PDF answer
 * 409 until then, and the document kept is the one ZATCA returned. With clearance switched off
 * (303) it is reported instead.
 */
const INVOICES = "/order/v1/merchant/invoices/";
const BUYER = {
  name: "Fatoora Samples LTD",
  vat_number: "399999999800003",
  address: {
    street: "Salah Al-Din",
    building_number: "1111",
    district: "Al-Murooj",
    city: "Riyadh",
    postal_code: "12222",
  },
};

/** A cart naming the buyer, checked out and captured: its invoice. */
async function b2bInvoice(appId: number, token: string) {
  const { invoice, placed, cart } = await checkedOutInvoice(appId, token, { buyer: BUYER });
  expect(cart.buyer).toEqual(BUYER);
  expect(placed.order.buyer).toEqual(BUYER);
  return invoice;
}

describe("a standard (B2B) invoice", () => {
  it("names its buyer, is withheld until ZATCA clears it, then serves the cleared document", async () => {
    const A = 8791;
    const { fake, api, token } = await reportingStore(A);
    const invoice = await b2bInvoice(A, token);
    const merchant = (path: string) => call(path, { token, appId: A });

    await signStores(db(A), [A], SECRET);
    const signed = await einvoiceOf(A, invoice.id);
    expect(verifyEInvoice(signed.xml)).toMatchObject({ problems: [], typeCode: "388", transactionCode: "0100000" });
    expect(signed.xml).toContain("<cbc:CompanyID>399999999800003</cbc:CompanyID>");

    // Signed, not cleared: neither its XML nor its PDF is shared.
    const early = await merchant(`${INVOICES}${invoice.id}/e-invoice/`);
    expect(early.status).toBe(409);
    expect((await problem(early)).code).toBe("einvoice_not_cleared");
    const details = await json(await merchant(`${INVOICES}${invoice.id}/`));
    const pdf = new URL(details.invoice_pdf_en);
    const earlyPdf = await call(`${pdf.pathname}${pdf.search}`);
    expect(earlyPdf.status).toBe(409);
    expect((await problem(earlyPdf)).code).toBe("einvoice_not_cleared");

    const { emitted } = await consume(A, api);
    const cleared = await einvoiceOf(A, invoice.id);
    expect(cleared).toMatchObject({ zatca_status: "cleared", attempts: 1 });
    const sent = fake.requests.filter((r) => r.path === "/invoices/clearance/single");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers["clearance-status"]).toBe("1");
    expect(sent[0]!.body).toMatchObject({ uuid: signed.uuid, invoiceHash: signed.invoice_hash });
    // The fake hands back the document it was sent, as the one ZATCA cleared.
    const returned = new TextDecoder().decode(
      Uint8Array.from(atob((sent[0]!.body as { invoice: string }).invoice), (c) => c.charCodeAt(0)),
    );
    expect(cleared.xml).toBe(returned);

    const download = await merchant(`${INVOICES}${invoice.id}/e-invoice/`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(cleared.xml);
    const served = await call(`${pdf.pathname}${pdf.search}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("application/pdf");

    const [event] = await outboxOf(A, "invoice.zatca_reported");
    expect(event!.data).toEqual({
      id: invoice.id,
      order_id: invoice.order_id,
      serial: invoice.serial,
      zatca_status: "cleared",
      warnings: [],
    });
    expect(emitted.map((e) => e.type)).toEqual(["invoice.zatca_reported"]);
    expect((await json(await merchant(`${INVOICES}${invoice.id}/`))).zatca_status).toBe("cleared");
  });

  it("is reported when ZATCA has switched clearance off (303)", async () => {
    const A = 8792;
    const { fake, api, token } = await reportingStore(A);
    const invoice = await b2bInvoice(A, token);
    fake.switchClearance(false);
    await consume(A, api);
    expect(await einvoiceOf(A, invoice.id)).toMatchObject({ zatca_status: "reported", attempts: 1 });
    expect(fake.requests.slice(-2).map((r) => r.path)).toEqual([
      "/invoices/clearance/single",
      "/invoices/reporting/single",
    ]);
    expect((await outboxOf(A, "invoice.zatca_reported"))[0]!.data).toMatchObject({ zatca_status: "reported" });
    expect((await call(`${INVOICES}${invoice.id}/e-invoice/`, { token, appId: A })).status).toBe(200);
  });

  it("a buyer without a Saudi VAT number is refused, saying what the number must be", async () => {
    const A = 8793;
    await reportingStore(A);
    const shopper = await shopperOf(A);
    const item = await stocked(A, 2300, 5);
    const res = await shopper.as("/order/v1/carts/", {
      method: "POST",
      body: { items: [{ item_id: item.id, qty: 1 }], buyer: { ...BUYER, vat_number: "123" } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await problem(res))).toContain(
      "Must be 15 digits that start and end with 3 (a Saudi VAT number).",
    );
  });
});
