import { describe, expect, it } from "vitest";
import type { EventType } from "../../src/core/events/registry";
import { consumerSink } from "../../src/modules/orders/einvoices/consumer";
import { signStores } from "../../src/modules/orders/einvoices/signer";
import { retryDelaySeconds, submitStores } from "../../src/modules/orders/einvoices/submitter";
import { EVENT_CATALOGUE, eventEnvelopeSchema } from "../../src/modules/webhooks/catalogue";
import { db, shardFor } from "../helpers/factories";
import { call, json } from "../helpers/request";
import { chain, KINDS } from "./e-invoice-api-helpers";
import { issue, pendingOrders, rowOf, SECRET } from "./e-invoice-chain-fixtures";
import {
  checkedOutInvoice,
  consume,
  einvoiceOf,
  outboxOf,
  reportingStore,
  sealSecret,
} from "./e-invoice-reporting-fixtures";

/*
 * Reporting after signing (docs/zatca.md, "Reporting and clearance"), as the webhooks Worker's
 * e-invoice consumer runs it against the local fake of ZATCA's API: the answer on the invoice and
 * its e-invoice, its event in the outbox, retries with backoff, a redelivered message or two
 * consumers at once submitting each document once, the fake's refusals surfacing on the invoice.
 */
const INVOICES = "/order/v1/merchant/invoices/";
const HOUR = 3600_000;

/** A paid invoice of a new order of the store (the batch Checkout runs); answers its row. */
async function paidInvoice(appId: number) {
  const [orderId] = await pendingOrders(appId, 1);
  await issue(appId, orderId!);
  return rowOf(appId, "SELECT * FROM invoices WHERE app_id = ? AND order_id = ?", appId, orderId);
}

/** The event matches its schema in the webhook catalogue. */
function expectDocumented(event: { type: string }) {
  expect(EVENT_CATALOGUE[event.type as EventType]).toBeDefined();
  const parsed = eventEnvelopeSchema(event.type as EventType).safeParse(event);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
}

const reportsOf = (fake: { requests: { path: string; body: unknown }[] }, uuid: string) =>
  fake.requests.filter((r) => r.path === "/invoices/reporting/single" && (r.body as { uuid: string }).uuid === uuid);

describe("reporting a simplified invoice", () => {
  it("from Checkout: signed, reported, the warnings kept on Invoice Details, invoice.zatca_reported emitted once", async () => {
    const A = 8771;
    // The fake's clock a day and more after the invoice: reported, with BR-KSA-98's warning (202).
    const { fake, api, token } = await reportingStore(A, Date.now() + 25 * HOUR);
    const { invoice } = await checkedOutInvoice(A, token);

    const first = await consume(A, api);
    expect(first).toMatchObject({ acked: 1, delays: [] });
    const row = await einvoiceOf(A, invoice.id);
    expect(row).toMatchObject({ zatca_status: "reported", attempts: 1, next_attempt_at: null });
    expect(row.submitted_at).toEqual(expect.any(String));
    expect(reportsOf(fake, row.uuid)).toHaveLength(1);
    expect(reportsOf(fake, row.uuid)[0]!.body).toMatchObject({ invoiceHash: row.invoice_hash, uuid: row.uuid });

    const warning = {
      type: "warning",
      code: "BR-KSA-98",
      category: "KSA",
      message: "The simplified invoice should be submitted within 24 hours of issuing the invoice.",
    };
    const details = await json(await call(`${INVOICES}${invoice.id}/`, { token, appId: A }));
    expect(details.zatca_status).toBe("reported");
    expect(details.einvoice).toMatchObject({ zatca_status: "reported", invoice_hash: row.invoice_hash });
    expect(details.einvoice.messages).toEqual([
      { type: "info", code: "XSD_ZATCA_VALID", category: "XSD validation", message: expect.any(String) },
      warning,
    ]);

    const [event, ...more] = await outboxOf(A, "invoice.zatca_reported");
    expect(more).toEqual([]);
    expect(event!.data).toEqual({
      id: invoice.id,
      order_id: invoice.order_id,
      serial: invoice.serial,
      zatca_status: "reported",
      warnings: [warning],
    });
    expectDocumented(event!);
    expect(first.emitted.map((e) => e.id)).toEqual([event!.id]);

    // The same wake-up delivered again: nothing sent, nothing recorded.
    const again = await consume(A, api, 2);
    expect(again).toMatchObject({ acked: 2, emitted: [] });
    expect(reportsOf(fake, row.uuid)).toHaveLength(1);
    expect(await outboxOf(A, "invoice.zatca_reported")).toHaveLength(1);
  });

  it("two consumers at once submit each document once, in counter order", async () => {
    const A = 8772;
    const { fake, api } = await reportingStore(A);
    const invoices = [await paidInvoice(A), await paidInvoice(A), await paidInvoice(A)];
    await signStores(db(A), [A], SECRET);
    await Promise.all([consume(A, api), consume(A, api)]);
    const rows = await Promise.all(invoices.map((i) => einvoiceOf(A, i.id)));
    for (const row of rows) {
      expect(row.zatca_status).toBe("reported");
      expect(reportsOf(fake, row.uuid)).toHaveLength(1);
    }
    const sent = fake.requests.filter((r) => r.path === "/invoices/reporting/single");
    expect(sent.map((r) => (r.body as { uuid: string }).uuid)).toEqual(rows.map((r) => r.uuid));
    expect(await outboxOf(A, "invoice.zatca_reported")).toHaveLength(3);
  });
});

describe("retries", () => {
  it("the backoff: 1, 5, 15, 60 minutes, then hourly; ZATCA's Retry-After when longer", () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => retryDelaySeconds(n, null))).toEqual([60, 300, 900, 3600, 3600, 3600]);
    expect(retryDelaySeconds(2, 600)).toBe(600);
    expect(retryDelaySeconds(2, 30)).toBe(300);
  });

  it("503 then 429 with Retry-After: pending, attempts and next attempt set, the message delayed; reported when due", async () => {
    const A = 8773;
    const { fake, api } = await reportingStore(A);
    const invoice = await paidInvoice(A);
    fake.interrupt(503);
    const before = Date.now();
    const first = await consume(A, api);
    const after = Date.now();
    expect(first).toMatchObject({ acked: 0, delays: [60], emitted: [] });
    let row = await einvoiceOf(A, invoice.id);
    expect(row).toMatchObject({ zatca_status: "pending", attempts: 1, submitted_at: null });
    const next = Date.parse(row.next_attempt_at);
    expect(next).toBeGreaterThanOrEqual(before + 60_000);
    expect(next).toBeLessThanOrEqual(after + 60_000);

    // Not yet due: a wake-up now sends nothing.
    await consume(A, api);
    expect(reportsOf(fake, row.uuid)).toHaveLength(1);

    // Due (the cron's sweep, its clock past the time): 429 asking for 10 minutes, more than the 5 of the backoff.
    fake.interrupt(429, "600");
    const sweep = consumerSink({ EVENTS: { send: async () => {}, sendBatch: async () => {} } as unknown as Queue });
    const later = Date.now() + 2 * 60_000;
    expect(await submitStores(db(A), sweep.sink, api, SECRET, [A], () => later)).toEqual({
      submitted: 0,
      retryInSeconds: 600,
    });
    row = await einvoiceOf(A, invoice.id);
    expect(row).toMatchObject({ zatca_status: "pending", attempts: 2 });
    expect(Date.parse(row.next_attempt_at)).toBe(later + 600_000);

    expect(await submitStores(db(A), sweep.sink, api, SECRET, [A], () => later + 601_000)).toEqual({
      submitted: 1,
      retryInSeconds: null,
    });
    await sweep.settle();
    row = await einvoiceOf(A, invoice.id);
    expect(row).toMatchObject({ zatca_status: "reported", attempts: 3, next_attempt_at: null });
    expect(reportsOf(fake, row.uuid)).toHaveLength(3);
    expect(await outboxOf(A, "invoice.zatca_reported")).toHaveLength(1);
  });
});

describe("the fake's refusals on the invoice", () => {
  it("a document altered after signing: rejected with ZATCA's hash error, invoice.zatca_rejected emitted", async () => {
    const A = 8774;
    const { api, token } = await reportingStore(A);
    const invoice = await paidInvoice(A);
    await signStores(db(A), [A], SECRET);
    const signed = await einvoiceOf(A, invoice.id);
    // One letter of the seller's name changed after signing: the body no longer has the hash sent with it.
    await shardFor(A)
      .prepare("UPDATE einvoices SET xml = replace(xml, 'Supply LTD', 'Supply LTE') WHERE id = ?")
      .bind(signed.id)
      .run();
    const { emitted } = await consume(A, api);
    const row = await einvoiceOf(A, invoice.id);
    expect(row.zatca_status).toBe("rejected");
    const errors = JSON.parse(row.zatca_messages).filter((m: { type: string }) => m.type === "error");
    expect(errors).toContainEqual({
      type: "error",
      code: "invalid-invoice-hash",
      category: "INVOICE_HASHING_ERRORS",
      message: "The invoice hash API body does not match the (calculated) Hash of the XML",
    });
    const details = await json(await call(`${INVOICES}${invoice.id}/`, { token, appId: A }));
    expect(details).toMatchObject({ zatca_status: "rejected", einvoice: { zatca_status: "rejected" } });
    expect(details.einvoice.messages).toEqual(JSON.parse(row.zatca_messages));
    const [event] = await outboxOf(A, "invoice.zatca_rejected");
    expect(event!.data).toEqual({
      id: invoice.id,
      order_id: invoice.order_id,
      serial: invoice.serial,
      zatca_status: "rejected",
      errors,
    });
    expectDocumented(event!);
    expect(emitted.map((e) => e.type)).toEqual(["invoice.zatca_rejected"]);
  });

  it("a broken chain: the first document's PIH is not the hash ZATCA last received from the unit", async () => {
    const A = 8775;
    const { api, production } = await reportingStore(A);
    // Another document of the unit reached ZATCA first: its head is past the first PIH.
    expect((await api.report(production, chain(KINDS.simplifiedInvoice)[0]!)).kind).toBe("reported");
    const invoice = await paidInvoice(A);
    const { emitted } = await consume(A, api);
    const row = await einvoiceOf(A, invoice.id);
    expect(row.zatca_status).toBe("rejected");
    expect(JSON.parse(row.zatca_messages)).toContainEqual({
      type: "error",
      code: "invalid-previous-invoice-hash",
      category: "KSA",
      message: "The previous invoice hash (KSA-13) is not the hash of this unit's previous document.",
    });
    expect(emitted.map((e) => e.type)).toEqual(["invoice.zatca_rejected"]);
    expect((await outboxOf(A, "invoice.zatca_rejected"))[0]!.data).toMatchObject({
      id: invoice.id,
      errors: [expect.objectContaining({ code: "invalid-previous-invoice-hash" })],
    });
  });

  it("credentials refused (401): the unit stops, the merchant is told once, the document waits pending", async () => {
    const A = 8776;
    const { unitId, api, fake } = await reportingStore(A);
    await sealSecret(A, unitId, "not-the-secret");
    const invoice = await paidInvoice(A);
    const first = await consume(A, api);
    expect(first.acked).toBe(1);
    const row = await einvoiceOf(A, invoice.id);
    expect(row).toMatchObject({ zatca_status: "pending", attempts: 1, next_attempt_at: null, submitted_at: null });
    const unit = await rowOf(A, "SELECT credentials_refused_at FROM einvoice_units WHERE id = ?", unitId);
    expect(unit.credentials_refused_at).toEqual(expect.any(String));
    const [event, ...more] = await outboxOf(A, "einvoice_unit.credentials_refused");
    expect(more).toEqual([]);
    expect(event!.data).toMatchObject({ id: unitId });
    expectDocumented(event!);
    // Stopped: another wake-up sends nothing more.
    const sent = fake.requests.length;
    await consume(A, api);
    expect(fake.requests.length).toBe(sent);
    expect(await outboxOf(A, "einvoice_unit.credentials_refused")).toHaveLength(1);
  });
});

describe("a refund's credit note waits for its original", () => {
  /** A paid invoice, refunded whole through Refund Invoice, both documents signed. */
  async function refunded(A: number, token: string) {
    const invoice = await paidInvoice(A);
    const res = await call(`${INVOICES}${invoice.id}/refund/`, {
      method: "POST",
      body: { refund_reason: "Damaged on delivery" },
      token,
      appId: A,
    });
    expect(res.status).toBe(201);
    const refund = await json(res);
    await signStores(db(A), [A], SECRET);
    return { invoice, refund };
  }

  it("sent only once its original is reported", async () => {
    const A = 8777;
    const { fake, api, token } = await reportingStore(A);
    const { invoice, refund } = await refunded(A, token);
    const [original, credit] = [await einvoiceOf(A, invoice.id), await einvoiceOf(A, refund.id)];
    fake.interrupt(503);
    await consume(A, api);
    expect((await einvoiceOf(A, invoice.id)).zatca_status).toBe("pending");
    expect(await einvoiceOf(A, refund.id)).toMatchObject({ zatca_status: "pending", attempts: 0 });
    expect(reportsOf(fake, credit.uuid)).toEqual([]);

    const sweep = consumerSink({ EVENTS: { send: async () => {}, sendBatch: async () => {} } as unknown as Queue });
    await submitStores(db(A), sweep.sink, api, SECRET, [A], () => Date.now() + 2 * 60_000);
    await sweep.settle();
    expect((await einvoiceOf(A, invoice.id)).zatca_status).toBe("reported");
    expect(await einvoiceOf(A, refund.id)).toMatchObject({ zatca_status: "reported", attempts: 1 });
    const order = fake.requests.map((r) => (r.body as { uuid?: string }).uuid);
    expect(order.lastIndexOf(original.uuid)).toBeLessThan(order.indexOf(credit.uuid));
  });

  it("rejected with the public system's message, unsent, when its original is rejected", async () => {
    const A = 8778;
    const { fake, api, token } = await reportingStore(A);
    const { invoice, refund } = await refunded(A, token);
    const original = await einvoiceOf(A, invoice.id);
    await shardFor(A)
      .prepare("UPDATE einvoices SET xml = replace(xml, 'Supply LTD', 'Supply LTE') WHERE id = ?")
      .bind(original.id)
      .run();
    const { emitted } = await consume(A, api);
    expect((await einvoiceOf(A, invoice.id)).zatca_status).toBe("rejected");
    const credit = await einvoiceOf(A, refund.id);
    expect(credit.zatca_status).toBe("rejected");
    const error = {
      type: "error",
      code: "parent-invoice-not-published",
      message: "Parent invoice must be successfully published before creating a return invoice",
    };
    expect(JSON.parse(credit.zatca_messages)).toEqual([error]);
    expect(reportsOf(fake, credit.uuid)).toEqual([]);
    const details = await json(await call(`${INVOICES}${refund.id}/`, { token, appId: A }));
    expect(details).toMatchObject({ zatca_status: "rejected", einvoice: { messages: [error] } });
    const events = await outboxOf(A, "invoice.zatca_rejected");
    expect(events.map((e) => (e.data as { id: number }).id)).toEqual([invoice.id, refund.id]);
    expect(events[1]!.data).toMatchObject({ serial: refund.serial, errors: [error] });
    expect(emitted.map((e) => e.type)).toEqual(["invoice.zatca_rejected", "invoice.zatca_rejected"]);
  });
});
