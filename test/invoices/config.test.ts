import { beforeAll, describe, expect, it } from "vitest";
import { readInvoiceConfig } from "../../src/modules/orders/invoices/config";
import { InvoiceConfigSchema } from "../../src/modules/orders/invoices/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import { db, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { seedInvoices } from "./fixtures";

const APP = 6163;
const CONFIG = "/order/v1/merchant/invoices/config/";
let reader: string;
let writer: string;

beforeAll(async () => {
  await ensureTenant(APP);
  reader = await tokenFor(APP, ["can_retrieve_app_config"]);
  writer = await tokenFor(APP, ["can_retrieve_app_config", "can_update_app_config", "can_read_order"]);
});

const get = async () => {
  const res = await call(CONFIG, { token: reader, appId: APP });
  expect(res.status).toBe(200);
  return InvoiceConfigSchema.strict().parse(await json(res));
};
const post = (body: unknown) => call(CONFIG, { method: "POST", token: writer, appId: APP, body });

async function configEvents() {
  const rows = await shardFor(APP)
    .prepare("SELECT payload FROM outbox_events WHERE type = 'invoice_config.updated' AND app_id = ?")
    .bind(APP)
    .all<{ payload: string }>();
  return rows.results.map((r) => JSON.parse(r.payload) as { data: unknown });
}

describe("Invoice Config (MO6)", () => {
  it("has the defaults before the store changes anything", async () => {
    expect(await get()).toEqual({
      serial_prefix: "INV-",
      due_days: 0,
      footer_en: null,
      footer_ar: null,
      is_zatca_qr_enabled: true,
    });
    expect(await readInvoiceConfig(db(), APP)).toEqual(await get());
  });

  it("changes some settings, keeps the others, stores one row and emits invoice_config.updated", async () => {
    const res = await post({ serial_prefix: "SHOP-26", footer_ar: "شكراً لزيارتكم", due_days: 3 });
    expect(res.status).toBe(200);
    const expected = {
      serial_prefix: "SHOP-26",
      due_days: 3,
      footer_en: null,
      footer_ar: "شكراً لزيارتكم",
      is_zatca_qr_enabled: true,
    };
    expect(await json(res)).toEqual(expected);
    expect(await get()).toEqual(expected);
    expect(await post({ footer_en: "Thanks!" }).then((r) => r.status)).toBe(200);
    expect(await get()).toEqual({ ...expected, footer_en: "Thanks!" });
    // An empty footer removes it.
    expect(await json(await post({ footer_en: "  " }))).toMatchObject({ footer_en: null });
    const rows = await shardFor(APP)
      .prepare("SELECT serial_prefix, due_days FROM invoice_config WHERE app_id = ?")
      .bind(APP)
      .all();
    expect(rows.results).toEqual([{ serial_prefix: "SHOP-26", due_days: 3 }]);
    const events = await configEvents();
    expect(events).toHaveLength(3);
    expect(events[0]!.data).toEqual({ app_id: APP });
  });

  it.each([
    [{ serial_prefix: "inv-" }, "serial_prefix"],
    [{ serial_prefix: "" }, "serial_prefix"],
    [{ serial_prefix: "ABCDEFGHIJK" }, "serial_prefix"],
    [{ serial_prefix: "INV/" }, "serial_prefix"],
    [{ due_days: 366 }, "due_days"],
    [{ due_days: -1 }, "due_days"],
    [{ due_days: 1.5 }, "due_days"],
    [{ footer_en: "x".repeat(501) }, "footer_en"],
    [{ footer_ar: 5 }, "footer_ar"],
    [{ is_zatca_qr_enabled: "yes" }, "is_zatca_qr_enabled"],
    [{ colour: "red" }, "colour"],
    [{}, "body"],
  ])("refuses %j with a 400 naming %s, and changes nothing", async (body, field) => {
    const before = await get();
    const res = await post(body);
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
    expect(await get()).toEqual(before);
  });

  it("turning the QR off removes zatca_qr from the store's invoices", async () => {
    const seed = await seedInvoices(APP, "C");
    const qrOf = async () =>
      (await json(await call(`/order/v1/merchant/invoices/${seed.paid.id}/`, { token: writer, appId: APP }))).zatca_qr;
    expect(await qrOf()).toEqual(expect.any(String));
    expect((await post({ is_zatca_qr_enabled: false })).status).toBe(200);
    expect(await qrOf()).toBeNull();
    expect((await post({ is_zatca_qr_enabled: true })).status).toBe(200);
    expect(await qrOf()).toEqual(expect.any(String));
  });

  it("a reader may not change it", async () => {
    const res = await call(CONFIG, { method: "POST", token: reader, appId: APP, body: { due_days: 1 } });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("missing_permission");
  });
});

sharedAuthCases({ method: "GET", path: CONFIG, permission: "can_retrieve_app_config" });
sharedAuthCases({ method: "POST", path: CONFIG, permission: "can_update_app_config", body: { due_days: 1 } });
