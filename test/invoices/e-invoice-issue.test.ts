import { beforeAll, describe, expect, it } from "vitest";
import { signStores } from "../../src/modules/orders/einvoices/signer";
import { FIRST_PIH } from "../../src/modules/orders/invoices/e-invoice/hash";
import { decodeQr } from "../../src/modules/orders/invoices/e-invoice/qr";
import { verifyEInvoice } from "../../src/modules/orders/invoices/e-invoice/verify";
import { db, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { activeUnit, issue, pendingOrders, rowOf, rowsOf, SECRET, sellerStore } from "./e-invoice-chain-fixtures";

/*
 * What issuing an invoice writes for ZATCA, and what a merchant reads of it: the chain's link in
 * the invoice's own batch (or `not_required`), Invoice Details' `einvoice` and Phase 2 QR, the
 * signed XML's download, a credit note of a refund, and a store whose settings lack what the
 * document needs.
 */
const WITH_UNIT = 8762;
const WITHOUT_UNIT = 8763;
const NO_ADDRESS = 8764;
const INVOICES = "/order/v1/merchant/invoices/";
const tokens: Record<number, string> = {};

const merchant = (appId: number, path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token: tokens[appId]!, appId });
const invoiceOfOrder = (appId: number, orderId: number) =>
  rowOf(appId, "SELECT * FROM invoices WHERE app_id = ? AND order_id = ? AND type = 'invoice'", appId, orderId);
const signEvents = (appId: number) =>
  rowOf<{ n: number }>(
    appId,
    "SELECT count(*) AS n FROM outbox_events WHERE app_id = ? AND type = 'einvoice.sign'",
    appId,
  );

let unitId: number;
beforeAll(async () => {
  await Promise.all([sellerStore(WITH_UNIT), sellerStore(WITHOUT_UNIT), sellerStore(NO_ADDRESS, false)]);
  unitId = await activeUnit(WITH_UNIT);
  for (const appId of [WITH_UNIT, WITHOUT_UNIT, NO_ADDRESS]) tokens[appId] = await tokenFor(appId);
});

describe("issuing an invoice: the chain's link in its own batch", () => {
  it("a store without an e-invoicing unit: not_required, no chain row, no wake-up, Phase 1's QR", async () => {
    const [orderId] = await pendingOrders(WITHOUT_UNIT, 1);
    await issue(WITHOUT_UNIT, orderId!);
    const invoice = await invoiceOfOrder(WITHOUT_UNIT, orderId!);
    expect(invoice).toMatchObject({ status: "paid", zatca_status: "not_required" });
    expect(await rowsOf(WITHOUT_UNIT, "SELECT id FROM einvoices WHERE app_id = ?", WITHOUT_UNIT)).toEqual([]);
    expect(await signEvents(WITHOUT_UNIT)).toEqual({ n: 0 });

    const details = await json(await merchant(WITHOUT_UNIT, `${INVOICES}${invoice.id}/`));
    expect(details).toMatchObject({ zatca_status: "not_required", einvoice: null });
    // Phase 1's QR: five tags, no hash.
    expect([...decodeQr(details.zatca_qr).keys()]).toEqual([1, 2, 3, 4, 5]);
    const download = await merchant(WITHOUT_UNIT, `${INVOICES}${invoice.id}/e-invoice/`);
    expect(download.status).toBe(404);
    expect((await problem(download)).code).toBe("einvoice_not_found");
  });

  it("a batch that fails takes no counter", async () => {
    const [orderId] = await pendingOrders(WITH_UNIT, 1);
    const before = await rowOf(WITH_UNIT, "SELECT last_icv FROM einvoice_units WHERE id = ?", unitId);
    await issue(WITH_UNIT, orderId!);
    // Paid already: the second batch's guard (the order still pending) rolls it back whole.
    await expect(issue(WITH_UNIT, orderId!)).rejects.toThrow();
    expect(await rowOf(WITH_UNIT, "SELECT last_icv FROM einvoice_units WHERE id = ?", unitId)).toEqual({
      last_icv: before.last_icv + 1,
    });
    const invoice = await invoiceOfOrder(WITH_UNIT, orderId!);
    expect(await rowsOf(WITH_UNIT, "SELECT icv FROM einvoices WHERE invoice_id = ?", invoice.id)).toEqual([
      { icv: before.last_icv + 1 },
    ]);
  });

  it("Invoice Details shows the e-invoice pending, then signed with its Phase 2 QR; the XML downloads once signed", async () => {
    const [orderId] = await pendingOrders(WITH_UNIT, 1);
    await issue(WITH_UNIT, orderId!);
    const invoice = await invoiceOfOrder(WITH_UNIT, orderId!);
    const row = await rowOf(WITH_UNIT, "SELECT icv, uuid FROM einvoices WHERE invoice_id = ?", invoice.id);
    const path = `${INVOICES}${invoice.id}/`;

    const pending = await json(await merchant(WITH_UNIT, path));
    expect(pending).toMatchObject({
      zatca_status: "pending",
      zatca_qr: null,
      einvoice: { uuid: row.uuid, icv: row.icv, invoice_hash: null, pih: null, zatca_status: "pending", messages: [] },
    });
    const early = await merchant(WITH_UNIT, `${path}e-invoice/`);
    expect(early.status).toBe(404);
    expect((await problem(early)).code).toBe("signed_einvoice_not_found");

    await signStores(db(WITH_UNIT), [WITH_UNIT], SECRET);
    const signed = await json(await merchant(WITH_UNIT, path));
    const stored = await rowOf(
      WITH_UNIT,
      "SELECT pih, invoice_hash, qr, xml FROM einvoices WHERE invoice_id = ?",
      invoice.id,
    );
    expect(signed.einvoice).toEqual({
      uuid: row.uuid,
      icv: row.icv,
      invoice_hash: stored.invoice_hash,
      pih: stored.pih,
      zatca_status: "pending",
      messages: [],
    });
    expect(signed.zatca_qr).toBe(stored.qr);
    expect(new TextDecoder().decode(decodeQr(signed.zatca_qr).get(6))).toBe(stored.invoice_hash);

    const download = await merchant(WITH_UNIT, `${path}e-invoice/`);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toContain("application/xml");
    expect(download.headers.get("Content-Disposition")).toContain(`${invoice.serial}.xml`);
    const xml = await download.text();
    expect(xml).toBe(stored.xml);
    expect(verifyEInvoice(xml)).toMatchObject({ problems: [], icv: row.icv, uuid: row.uuid });
  });

  it("a refund invoice is a credit note in the chain: the next counter, its invoice's serial and the reason", async () => {
    const [orderId] = await pendingOrders(WITH_UNIT, 1);
    await issue(WITH_UNIT, orderId!);
    const invoice = await invoiceOfOrder(WITH_UNIT, orderId!);
    const res = await merchant(WITH_UNIT, `${INVOICES}${invoice.id}/refund/`, {
      method: "POST",
      body: { refund_reason: "Damaged on delivery" },
    });
    expect(res.status).toBe(201);
    const refund = await json(res);
    expect(refund).toMatchObject({ type: "refund", zatca_status: "pending" });
    const [original, credit] = await rowsOf(
      WITH_UNIT,
      "SELECT invoice_id, icv FROM einvoices WHERE invoice_id IN (?, ?) ORDER BY icv",
      invoice.id,
      refund.id,
    );
    expect(credit!.icv).toBe(original!.icv + 1);
    await signStores(db(WITH_UNIT), [WITH_UNIT], SECRET);
    const { xml } = await rowOf(WITH_UNIT, "SELECT xml FROM einvoices WHERE invoice_id = ?", refund.id);
    expect(verifyEInvoice(xml)).toMatchObject({
      problems: [],
      typeCode: "381",
      transactionCode: "0200000",
      billingReference: invoice.serial,
    });
    expect(xml).toContain("<cbc:InstructionNote>Damaged on delivery</cbc:InstructionNote>");
  });

  it("the first document ever has FIRST_PIH; a store without its national address waits, then signs once set", async () => {
    const unit = await activeUnit(NO_ADDRESS);
    const [orderId] = await pendingOrders(NO_ADDRESS, 1);
    await issue(NO_ADDRESS, orderId!);
    expect(await signStores(db(NO_ADDRESS), [NO_ADDRESS], SECRET)).toBe(0);
    const waiting = await json(
      await merchant(NO_ADDRESS, `${INVOICES}${(await invoiceOfOrder(NO_ADDRESS, orderId!)).id}/`),
    );
    expect(waiting.einvoice.messages).toEqual([
      expect.objectContaining({ type: "error", code: "seller-address-missing" }),
    ]);
    expect(await rowOf(NO_ADDRESS, "SELECT signed_icv FROM einvoice_units WHERE id = ?", unit)).toEqual({
      signed_icv: 0,
    });

    const address = {
      street: "Olaya",
      building_number: "1234",
      district: "Al Olaya",
      city: "Riyadh",
      postal_code: "12211",
    };
    const set = await merchant(NO_ADDRESS, "/api/v1/dashboard/admin/settings/", {
      method: "PATCH",
      body: { seller_address: address },
    });
    expect(set.status).toBe(200);
    expect((await json(set)).seller_address).toEqual(address);
    expect(await signStores(db(NO_ADDRESS), [NO_ADDRESS], SECRET)).toBe(1);
    const { xml, pih } = await rowOf(NO_ADDRESS, "SELECT xml, pih FROM einvoices WHERE unit_id = ?", unit);
    expect(pih).toBe(FIRST_PIH);
    expect(verifyEInvoice(xml).problems).toEqual([]);
  });

  it("refuses a seller address that is not a Saudi national address's, saying which part", async () => {
    const res = await merchant(NO_ADDRESS, "/api/v1/dashboard/admin/settings/", {
      method: "PATCH",
      body: {
        seller_address: { street: "Olaya", building_number: "12", district: "X", city: "Riyadh", postal_code: "1" },
      },
    });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(Object.keys(body.errors ?? {}).sort()).toEqual([
      "seller_address.building_number",
      "seller_address.postal_code",
    ]);
  });
});
