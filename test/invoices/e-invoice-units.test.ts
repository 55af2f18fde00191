import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { consumeEInvoiceMessages } from "../../src/modules/orders/einvoices/consumer";
import { onboardUnit } from "../../src/modules/orders/einvoices/onboarding";
import { signStores } from "../../src/modules/orders/einvoices/signer";
import { endInterruptedOnboardings, warnExpiringUnits } from "../../src/modules/orders/einvoices/unit-sweeps";
import { httpEInvoicingApi } from "../../src/modules/orders/invoices/e-invoice/api";
import { parseCertificate } from "../../src/modules/orders/invoices/e-invoice/certificate";
import { FAKE_ZATCA_URL, type FakeZatca, fakeZatca } from "../../src/modules/orders/invoices/e-invoice/fake";
import { openKey, publicKeyOf } from "../../src/modules/orders/invoices/e-invoice/keys";
import { verifyEInvoice } from "../../src/modules/orders/invoices/e-invoice/verify";
import { ensureTenant, serviceCtx, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, callWaits, json, problem } from "../helpers/request";
import { issue, pendingOrders, rowOf, rowsOf, SECRET, sellerStore } from "./e-invoice-chain-fixtures";

/*
 * A store registers its e-invoicing unit over HTTP, the consumer onboards it against the local fake
 * of ZATCA (its own key, a certificate of that key), and Checkout's invoices are then signed with
 * that key and accepted by the fake; a refusal kept on the unit; a redelivered wake-up; renewal
 * that keeps the chain; the expiry warning; the refusals and another store's unit.
 */
const STORE = 8781;
const REFUSED = 8782;
const PORTAL = 8783;
const BARE = 8784;
const OTHER = 8785;
const INTERRUPTED = 8786;
const UNITS = "/order/v1/merchant/einvoicing/units/";
const tokens: Record<number, string> = {};
const merchant = (appId: number, path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token: tokens[appId]!, appId });
const register = (appId: number, otp: string, more: Record<string, unknown> = {}) =>
  merchant(appId, UNITS, {
    method: "POST",
    body: { otp, name: "Web shop", branch: "Riyadh Branch", industry: "Food", ...more },
  });

const onFake = (fake: FakeZatca) => ({
  api: httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: fake.fetch }),
  environment: "developer-portal" as const,
  secret: SECRET,
});

/** Runs the consumer for the unit as its queue message would, with the events sent. */
async function onboard(appId: number, unitId: number, fake: FakeZatca): Promise<boolean> {
  const ctx = serviceCtx(appId);
  const done = await onboardUnit(ctx.db, ctx.events, onFake(fake), appId, unitId);
  await ctx.settle();
  return done;
}

const unitRow = (appId: number, id: number) => rowOf(appId, "SELECT * FROM einvoice_units WHERE id = ?", id);
const eventsOf = (appId: number, type: string) =>
  rowsOf<{ payload: string }>(
    appId,
    "SELECT payload FROM outbox_events WHERE app_id = ? AND type = ? ORDER BY created_at",
    appId,
    type,
  );

/** Pays a new order of the store and signs its invoice; answers its e-invoice row. */
async function issuedAndSigned(appId: number) {
  const [orderId] = await pendingOrders(appId, 1);
  await issue(appId, orderId!);
  await signStores(serviceCtx(appId).db, [appId], SECRET);
  return rowOf(
    appId,
    "SELECT e.* FROM einvoices e JOIN invoices i ON i.id = e.invoice_id WHERE i.order_id = ? AND i.app_id = ?",
    orderId,
    appId,
  );
}

const fake = fakeZatca();
let unitId: number;

beforeAll(async () => {
  await Promise.all([
    sellerStore(STORE),
    sellerStore(REFUSED),
    sellerStore(PORTAL),
    ensureTenant(BARE),
    sellerStore(OTHER),
    sellerStore(INTERRUPTED),
  ]);
  for (const appId of [STORE, REFUSED, PORTAL, BARE, OTHER, INTERRUPTED]) tokens[appId] = await tokenFor(appId);
});

describe("registering and onboarding a unit", () => {
  it("answers 202 onboarding at once, the OTP sealed, then the consumer makes it active on its own key", async () => {
    const { res, waits } = await callWaits(UNITS, {
      method: "POST",
      token: tokens[STORE]!,
      appId: STORE,
      body: {
        otp: "314159",
        name: "Web shop",
        branch: "Riyadh Branch",
        industry: "Food",
        invoice_types: ["simplified", "standard"],
      },
    });
    expect(res.status).toBe(202);
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    const body = await json(res);
    unitId = body.id;
    expect(body).toMatchObject({
      status: "onboarding",
      name: "Web shop",
      branch: "Riyadh Branch",
      industry: "Food",
      registered_address: "2322 Prince Sultan, Al-Murabba, Riyadh 23333",
      invoice_types: ["standard", "simplified"],
      production_not_after: null,
      messages: [],
      last_icv: 0,
    });
    expect(body.egs_serial).toMatch(/^3-[0-9a-f-]{36}$/);
    const row = await unitRow(STORE, unitId);
    expect(row.otp_sealed).toMatch(/^v1\./);
    expect(row.otp_sealed).not.toContain("314159");
    expect(await eventsOf(STORE, "einvoice_unit.created")).toHaveLength(1);
    const [wake] = await eventsOf(STORE, "einvoice.onboard");
    expect(JSON.parse(wake!.payload)).toMatchObject({
      type: "einvoice.onboard",
      app_id: STORE,
      data: { unit_id: unitId },
    });

    // The queue's consumer, given the outbox's message as the queue delivers it.
    const acked: string[] = [];
    const message = {
      id: "m1",
      body: JSON.parse(wake!.payload),
      attempts: 1,
      timestamp: new Date(),
      ack: () => acked.push("m1"),
      retry: () => acked.push("retried"),
    };
    await consumeEInvoiceMessages({ queue: "commerce-einvoices", messages: [message] } as never, env, onFake(fake).api);
    expect(acked).toEqual(["m1"]);

    const active = await json(await merchant(STORE, `${UNITS}${unitId}/`));
    expect(active).toMatchObject({ id: unitId, status: "active", messages: [] });
    expect(Date.parse(active.production_not_after)).toBeGreaterThan(Date.now() + 365 * 86_400_000);
    for (const secret of ["private_key", "secret", "otp", "certificate"])
      expect(JSON.stringify(active)).not.toMatch(new RegExp(`"[a-z_]*${secret}[a-z_]*":`));
    // Four compliance checks (standard and simplified, invoice and credit note), then the production CSID.
    expect(fake.requests.map((r) => r.path)).toEqual([
      "/compliance",
      ...Array(4).fill("/compliance/invoices"),
      "/production/csids",
    ]);
    const stored = await unitRow(STORE, unitId);
    expect(stored.otp_sealed).toBeNull();
    const key = await openKey(SECRET, `${STORE}:${unitId}`, stored.private_key_sealed);
    expect(parseCertificate(stored.production_certificate).publicKey).toEqual(publicKeyOf(key));
    const [activated] = await eventsOf(STORE, "einvoice_unit.activated");
    expect(JSON.parse(activated!.payload).data).toMatchObject({ id: unitId, status: "active", messages: [] });
  });

  it("a redelivered wake-up does nothing: the OTP was taken", async () => {
    const sent = fake.requests.length;
    expect(await onboard(STORE, unitId, fake)).toBe(false);
    expect(fake.requests.length).toBe(sent);
    expect(await eventsOf(STORE, "einvoice_unit.activated")).toHaveLength(1);
  });

  it("an invoice Checkout issues is signed with the unit's own key and certificate, and the fake reports it", async () => {
    const doc = await issuedAndSigned(STORE);
    expect(doc).toMatchObject({ unit_id: unitId, icv: 1 });
    const verified = verifyEInvoice(doc.xml);
    expect(verified.problems).toEqual([]);
    const stored = await unitRow(STORE, unitId);
    expect(doc.xml).toContain(`<ds:X509Certificate>${stored.production_certificate}</ds:X509Certificate>`);
    const production = { binarySecurityToken: btoa(stored.production_certificate), secret: await secretOf(stored) };
    const reported = await onFake(fake).api.report(production, {
      invoiceHash: doc.invoice_hash,
      uuid: doc.uuid,
      xml: doc.xml,
    });
    expect(reported).toMatchObject({ kind: "reported" });
  });

  it("answers 409 einvoice_unit_exists while the store holds one", async () => {
    const res = await register(STORE, "271828");
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "einvoice_unit_exists", unit_id: unitId });
  });
});

/** The unit's production secret, opened as the consumer opens it. */
async function secretOf(row: Record<string, any>) {
  const { openText } = await import("../../src/modules/orders/einvoices/sealing");
  return openText(SECRET, `${row.app_id}:${row.id}`, row.production_secret_sealed);
}

describe("onboarding refused", () => {
  it("a spent OTP: the unit failed with ZATCA's message, and registering again with a new OTP succeeds", async () => {
    const failed = await json(await register(REFUSED, "314159"));
    expect(await onboard(REFUSED, failed.id, fake)).toBe(true);
    const shown = await json(await merchant(REFUSED, `${UNITS}${failed.id}/`));
    expect(shown).toMatchObject({
      status: "failed",
      messages: [{ code: "Invalid-OTP", message: "The provided OTP is invalid" }],
    });
    const [event] = await eventsOf(REFUSED, "einvoice_unit.onboarding_failed");
    expect(JSON.parse(event!.payload).data).toMatchObject({ id: failed.id, status: "failed" });

    const again = await register(REFUSED, "161803");
    expect(again.status).toBe(202);
    const retried = (await json(again)).id;
    expect(await onboard(REFUSED, retried, fake)).toBe(true);
    expect((await unitRow(REFUSED, retried)).status).toBe("active");
    const list = await json(await merchant(REFUSED, `${UNITS}?status=failed`));
    expect(list).toMatchObject({ count: 1, results: [{ id: failed.id, status: "failed" }] });
  });

  it("the developer portal's fixed certificate: failed, saying to onboard on the simulation", async () => {
    const unit = await json(await register(PORTAL, "577215"));
    expect(await onboard(PORTAL, unit.id, fakeZatca({ fixedCertificate: true }))).toBe(true);
    const row = await unitRow(PORTAL, unit.id);
    expect(row.status).toBe("failed");
    const [message] = JSON.parse(row.messages);
    expect(message.code).toBe("local-certificate-not-unit-key");
    expect(message.message).toMatch(/developer portal issues one fixed test certificate.*simulation/);
  });

  it("a store without its seller details: 409 naming what is missing", async () => {
    const res = await register(BARE, "123456");
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({
      code: "einvoice_seller_incomplete",
      missing: ["vat_number", "seller_name", "seller_address"],
    });
  });

  it("bad input: 400 naming each field", async () => {
    const res = await merchant(OTHER, UNITS, {
      method: "POST",
      body: { otp: "12ab56", name: " ", industry: "x".repeat(129), invoice_types: [], extra: 1 },
    });
    expect(res.status).toBe(400);
    const errors = (await problem(res)).errors!;
    expect(Object.keys(errors).sort()).toEqual(
      expect.arrayContaining(["otp", "name", "branch", "industry", "invoice_types"]),
    );
    expect(errors.otp![0]).toMatch(/six digits/);
    const renew = await merchant(STORE, `${UNITS}${unitId}/renew/`, { method: "POST", body: { otp: 123456 } });
    expect(renew.status).toBe(400);
    expect(Object.keys((await problem(renew)).errors!)).toEqual(["otp"]);
  });
});

describe("renewal", () => {
  it("renews with a new OTP: the unit goes on issuing meanwhile, then signs with a new key, its chain going on", async () => {
    const before = await unitRow(STORE, unitId);
    const res = await merchant(STORE, `${UNITS}${unitId}/renew/`, { method: "POST", body: { otp: "662607" } });
    expect(res.status).toBe(202);
    expect(await json(res)).toMatchObject({ id: unitId, status: "renewing" });
    expect(await eventsOf(STORE, "einvoice_unit.renewing")).toHaveLength(1);
    // Issued while renewing: on the old certificate, ICV 2.
    const during = await issuedAndSigned(STORE);
    expect(during.icv).toBe(2);
    expect(during.xml).toContain(before.production_certificate);

    expect(await onboard(STORE, unitId, fake)).toBe(true);
    const after = await unitRow(STORE, unitId);
    expect(after.status).toBe("active");
    expect(after.production_certificate).not.toBe(before.production_certificate);
    expect(after.private_key_sealed).not.toBe(before.private_key_sealed);
    expect(fake.requests.at(-1)).toMatchObject({ method: "PATCH", path: "/production/csids" });
    expect(await eventsOf(STORE, "einvoice_unit.renewed")).toHaveLength(1);

    const next = await issuedAndSigned(STORE);
    expect(next).toMatchObject({ icv: 3, pih: during.invoice_hash });
    expect(next.xml).toContain(after.production_certificate);
    expect(verifyEInvoice(next.xml).problems).toEqual([]);
    // The fake's chain of this unit (its SN) goes on across the certificates.
    const production = { binarySecurityToken: btoa(after.production_certificate), secret: await secretOf(after) };
    const api = onFake(fake).api;
    expect(
      await api.report(production, { invoiceHash: during.invoice_hash, uuid: during.uuid, xml: during.xml }),
    ).toMatchObject({ kind: "reported" });
    expect(
      await api.report(production, { invoiceHash: next.invoice_hash, uuid: next.uuid, xml: next.xml }),
    ).toMatchObject({ kind: "reported" });
  });

  it("a renewal ZATCA refuses leaves the unit active on its CSID, with ZATCA's message", async () => {
    const before = await unitRow(STORE, unitId);
    await merchant(STORE, `${UNITS}${unitId}/renew/`, { method: "POST", body: { otp: "662607" } });
    expect(await onboard(STORE, unitId, fake)).toBe(true);
    const after = await unitRow(STORE, unitId);
    expect(after).toMatchObject({ status: "active", production_certificate: before.production_certificate });
    expect(JSON.parse(after.messages)).toMatchObject([{ code: "Invalid-OTP" }]);
    expect(await eventsOf(STORE, "einvoice_unit.renewal_failed")).toHaveLength(1);
  });

  it("renewing a unit that is not active: 409 invalid_state_transition", async () => {
    const [failed] = await rowsOf(
      REFUSED,
      "SELECT id FROM einvoice_units WHERE app_id = ? AND status = 'failed'",
      REFUSED,
    );
    const res = await merchant(REFUSED, `${UNITS}${failed!.id}/renew/`, { method: "POST", body: { otp: "111111" } });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "invalid_state_transition", current_status: "failed" });
  });

  it("warns 30 days before the production CSID expires, once", async () => {
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString();
    await serviceCtx(STORE).db.run(
      (await import("drizzle-orm")).sql`UPDATE einvoice_units SET production_not_after = ${soon} WHERE id = ${unitId}`,
    );
    const pending: Promise<unknown>[] = [];
    await warnExpiringUnits(env, (p) => pending.push(p));
    await warnExpiringUnits(env, (p) => pending.push(p));
    await Promise.all(pending);
    const warned = await eventsOf(STORE, "einvoice_unit.expiring");
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0]!.payload).data).toMatchObject({ id: unitId, production_not_after: soon });
  });
});

describe("an onboarding whose consumer died after taking the OTP", () => {
  it("is ended by the cron after 10 minutes, failed with a message, and the store can register again", async () => {
    const unit = await json(await register(INTERRUPTED, "141421"));
    const { sql } = await import("drizzle-orm");
    const stale = new Date(Date.now() - 11 * 60_000).toISOString();
    // As the consumer leaves it when its isolate dies: the OTP taken, no answer written.
    await serviceCtx(INTERRUPTED).db.run(
      sql`UPDATE einvoice_units SET otp_sealed = NULL, modified_at = ${stale} WHERE id = ${unit.id}`,
    );
    expect((await register(INTERRUPTED, "141422")).status).toBe(409);
    const pending: Promise<unknown>[] = [];
    await endInterruptedOnboardings(env, (p) => pending.push(p));
    await Promise.all(pending);
    expect(await json(await merchant(INTERRUPTED, `${UNITS}${unit.id}/`))).toMatchObject({
      status: "failed",
      messages: [{ code: "local-interrupted" }],
    });
    expect(await eventsOf(INTERRUPTED, "einvoice_unit.onboarding_failed")).toHaveLength(1);
    expect((await register(INTERRUPTED, "141423")).status).toBe(202);
  });
});

describe("another store's unit", () => {
  it("is a 404 under its id, read or renewed", async () => {
    const theirs = await rowCallerLacks("einvoice_units", OTHER, async () => {
      const [row] = await rowsOf<{ id: number }>(STORE, "SELECT id FROM einvoice_units WHERE id = ?", unitId);
      return row!;
    });
    for (const res of [
      await merchant(OTHER, `${UNITS}${theirs.id}/`),
      await merchant(OTHER, `${UNITS}${theirs.id}/renew/`, { method: "POST", body: { otp: "123456" } }),
    ]) {
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("einvoice_unit_not_found");
    }
  });
});
