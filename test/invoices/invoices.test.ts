import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { InvoiceDetailsSchema, InvoiceListSchema } from "../../src/modules/orders/invoices/schemas";
import { loadInvoices } from "../../src/modules/orders/invoices/views";
import { decodeZatcaQr } from "../../src/modules/orders/invoices/zatca";
import { sharedAuthCases } from "../helpers/auth-cases";
import { waitsMeter } from "../helpers/d1-waits";
import { APP_1, serviceCtx, shardFor, tokenFor } from "../helpers/factories";
import { filtersMatching } from "../helpers/list-filters";
import { openApiDocument } from "../helpers/openapi";
import { call, callWaits, json, problem } from "../helpers/request";
import { ISSUED_AT, SELLER, seedInvoices, VAT_NUMBER } from "./fixtures";

const APP = 6161;
const OTHER = 6162;
const LIST = "/order/v1/merchant/invoices/";
let token: string;
let seed: Awaited<ReturnType<typeof seedInvoices>>;
let other: Awaited<ReturnType<typeof seedInvoices>>;

beforeAll(async () => {
  seed = await seedInvoices(APP, "A");
  other = await seedInvoices(OTHER, "B");
  token = await tokenFor(APP, ["can_read_order"]);
});

const list = async (query = "") => {
  const res = await call(`${LIST}${query}`, { token, appId: APP });
  expect(res.status, await res.clone().text()).toBe(200);
  return InvoiceListSchema.strict().parse(await json(res));
};
const ids = (page: { results: { id: number }[] }) => page.results.map((r) => r.id).sort((a, b) => a - b);

describe("List Invoices (MO7)", () => {
  it("lists the store's invoices only, newest first, as the spec's Invoice object", async () => {
    const page = await list();
    expect(page.count).toBe(3);
    expect(ids(page)).toEqual([seed.paid.id, seed.unpaid.id, seed.refund.id].sort((a, b) => a - b));
    expect(page.results.map((r) => r.id)).toEqual([seed.refund.id, seed.unpaid.id, seed.paid.id]);
    expect(page.results.some((r) => r.id === other.paid.id)).toBe(false);
  });

  it("shows the paid invoice's amounts in major units, with the derived totals and its QR", async () => {
    const before = Date.now();
    const paid = (await list()).results.find((r) => r.id === seed.paid.id)!;
    const after = Date.now();
    expect(paid).toMatchObject({
      order_id: seed.orders[0]!.id,
      serial: "INV-A-1",
      type: "invoice",
      status: "paid",
      app_id: APP,
      issued_at: ISSUED_AT,
      sub_total_amount: 115,
      shipping_amount: 0,
      setup_amount: 0,
      net_amount: 115,
      total_discounts_amount: 0,
      total_amount_excluding_tax: 100,
      tax_percentage: 15,
      tax_amount: 15,
      total_amount: 115,
      wallet_redeem_amount: 5,
      total_amount_with_redeem: 110,
      currency: "SAR",
      payment_provider: "card",
      payment_method: "mada",
      is_auto_renewal: false,
      invoice_provider: "internal",
      invoice_error: null,
      refunded_invoice: null,
      invoice_reference_id: null,
      invoice_reference_serial: null,
    });
    expect(paid.customer).toMatchObject({
      id: seed.customer.id,
      name: "Noura A",
      mobile_number: seed.customer.mobileNumber,
    });
    expect(decodeZatcaQr(paid.zatca_qr!)).toEqual({
      1: SELLER,
      2: VAT_NUMBER,
      3: "2026-01-05T09:30:00Z",
      4: "115.00",
      5: "15.00",
    });
    for (const lang of ["en", "ar"] as const) {
      const link = new URL(paid[`invoice_pdf_${lang}`]);
      expect(link.pathname).toBe(`/order/v1/invoices/${seed.paid.id}/pdf/`);
      expect(link.searchParams.get("lang")).toBe(lang);
      expect(link.searchParams.get("app_id")).toBe(String(APP));
      // 7 days from the request (between the clock's readings around it), rounded up to the hour.
      const expires = Number(link.searchParams.get("expires")) * 1000;
      expect(expires).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
      expect(expires).toBeLessThan(after + 7 * 86_400_000 + 3_600_000);
    }
  });

  it('an unpaid invoice has serial "-", its due date and no QR', async () => {
    const unpaid = (await list()).results.find((r) => r.id === seed.unpaid.id)!;
    expect(unpaid).toMatchObject({
      serial: "-",
      status: "unpaid",
      issued_at: null,
      due_at: "2026-02-01T00:00:00.000Z",
      zatca_qr: null,
    });
  });

  it("a refund invoice points at the invoice it gives back", async () => {
    const refund = (await list()).results.find((r) => r.id === seed.refund.id)!;
    expect(refund).toMatchObject({
      type: "refund",
      refund_reason: "Damaged",
      total_amount: 57.5,
      invoice_reference_id: seed.paid.id,
      invoice_reference_serial: "INV-A-1",
    });
    expect(refund.refunded_invoice).toMatchObject({
      id: seed.paid.id,
      serial: "INV-A-1",
      issued_at: ISSUED_AT,
      total_amount: 115,
      currency: "SAR",
      status: "paid",
      custom_fields: null,
    });
    expect(new URL(refund.refunded_invoice!.invoice_pdf_ar).pathname).toBe(`/order/v1/invoices/${seed.paid.id}/pdf/`);
    expect(decodeZatcaQr(refund.zatca_qr!)).toMatchObject({ 4: "57.50", 5: "7.50" });
  });

  it("filters by status, type, order, customer and issue date", async () => {
    expect(ids(await list("?status=unpaid"))).toEqual([seed.unpaid.id]);
    expect(ids(await list("?type=refund"))).toEqual([seed.refund.id]);
    expect(ids(await list(`?order_id=${seed.orders[1]!.id}`))).toEqual([seed.unpaid.id]);
    expect((await list(`?customer_id=${seed.customer.id}`)).count).toBe(3);
    expect(ids(await list("?issued_at__gte=2026-01-06"))).toEqual([seed.refund.id]);
    expect(ids(await list("?issued_at__lte=2026-01-05"))).toEqual([seed.paid.id]);
    expect((await list("?issued_at__isnull=true")).count).toBe(1);
  });

  // Every declared filter at once was a 500 (D1: "Expression tree is too large").
  it("takes every filter it declares at once, and answers the rows that meet them all", async () => {
    const doc = await openApiDocument();
    const paid = (await list()).results.find((r) => r.id === seed.paid.id)! as unknown as Record<string, unknown>;
    const all = filtersMatching(doc, doc.paths[LIST]!.get!, paid);
    expect(all.used.length, `left out: ${all.left.join(", ")}`).toBeGreaterThanOrEqual(48);
    expect(ids(await list(`?${all.query}`))).toEqual([seed.paid.id]);
    // One of them missed: nothing.
    expect((await list(`?${all.query.replace(/(^|&)id=\d+/, `$1id=${seed.unpaid.id}`)}`)).count).toBe(0);
  });

  it("searches by serial, customer name or mobile number in any form", async () => {
    expect(ids(await list("?search=INV-A-2"))).toEqual([seed.refund.id]);
    expect((await list("?search=noura%20a")).count).toBe(3);
    const national = seed.customer.username;
    expect((await list(`?search=${national}`)).count).toBe(3);
    expect((await list(`?search=%2B${seed.customer.mobileNumber}`)).count).toBe(3);
    expect((await list("?search=nobody")).count).toBe(0);
    // The other store's customer is not found through this store's invoices.
    expect((await list("?search=Noura%20B")).count).toBe(0);
  });

  it("pages with page and page_size, and refuses unknown parameters", async () => {
    const first = await list("?page_size=2&order_by=id");
    expect(first.results.map((r) => r.id)).toEqual([seed.paid.id, seed.unpaid.id]);
    expect(first.next).toContain("page=2");
    const res = await call(`${LIST}?colour=red`, { token, appId: APP });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty("colour");
  });
});

describe("Invoice Details (MO7)", () => {
  it("adds the lines, each with the item, and the transactions", async () => {
    const res = await call(`${LIST}${seed.paid.id}/`, { token, appId: APP });
    expect(res.status).toBe(200);
    const body = InvoiceDetailsSchema.strict().parse(await json(res));
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({
      id: seed.paidLine.id,
      item_id: seed.item.id,
      name_en: "Lemon cake",
      name_ar: "كيكة الليمون",
      qty: 2,
      refunded_qty: 1,
      amount: 120,
      net_amount: 120,
      voucher_discounts_amount: 5,
      total_amount_excluding_tax: 100,
      tax_percentage: 15,
      tax_amount: 15,
      total_amount: 115,
      auto_renew: false,
      date: null,
      time: null,
      parent_invoice_item: null,
      custom_fields: null,
      app_id: APP,
    });
    expect(body.items[0]!.item).toMatchObject({ id: seed.item.id, name_en: "Cake A" });
    expect(body.transactions).toEqual([
      expect.objectContaining({
        invoice_id: seed.paid.id,
        type: "payment",
        status: "captured",
        amount: 110,
        currency: "SAR",
        payment_provider: "card",
        provider_reference: "pay-A",
        provider_details: null,
      }),
    ]);
  });

  it("shows a refund line's parent line and the refund transaction", async () => {
    const body = await json(await call(`${LIST}${seed.refund.id}/`, { token, appId: APP }));
    expect(body.items[0]).toMatchObject({
      parent_invoice_item: seed.paidLine.id,
      refund_reason: "Damaged",
      qty: 1,
      total_amount: 57.5,
    });
    expect(body.transactions[0]).toMatchObject({
      type: "refund",
      status: "refunded",
      provider_details: { RefundStatus: "REFUNDED" },
    });
  });

  it("404 invoice_not_found for another store's invoice and for none", async () => {
    for (const id of [other.paid.id, 999_999]) {
      const res = await call(`${LIST}${id}/`, { token, appId: APP });
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("invoice_not_found");
    }
  });

  it("loads any number of invoices, with their lines, items and customers, in one D1 round trip", async () => {
    const meter = waitsMeter(shardFor(APP));
    const ctx = { ...serviceCtx(APP), db: createDb(meter.db) };
    const all = [seed.paid.id, seed.unpaid.id, seed.refund.id, other.paid.id];
    const views = await loadInvoices(ctx, all, { origin: "https://api.test", secret: "s", withItems: true });
    expect(meter.stop().total).toBe(1);
    expect([...views.keys()].sort((a, b) => a - b)).toEqual(all.slice(0, 3).sort((a, b) => a - b));
    expect(views.get(seed.unpaid.id)!.items).toHaveLength(1);
  });

  it("a page of invoices, with the invoices they refund and their customers, waits for D1 once", async () => {
    const { res, waits } = await callWaits(LIST, { token, appId: APP });
    const page = await json(res);
    expect(res.status).toBe(200);
    expect(InvoiceListSchema.strict().safeParse(page).success).toBe(true);
    const refund = page.results.find((r: { id: number }) => r.id === seed.refund.id);
    expect(refund.refunded_invoice).toMatchObject({ id: seed.paid.id });
    expect(waits.beyondAuth).toBe(1);
  });
});

sharedAuthCases({ method: "GET", path: LIST, permission: "can_read_order" });
sharedAuthCases({ method: "GET", path: `${LIST}1/`, permission: "can_read_order" });

it("APP_1's token sees none of this store's invoices", async () => {
  const t = await tokenFor(APP_1, ["can_read_order"]);
  const res = await call(`${LIST}${seed.paid.id}/`, { token: t, appId: APP_1 });
  expect(res.status).toBe(404);
});
