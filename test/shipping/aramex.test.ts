import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CarrierError, type CarrierShipmentInput } from "../../src/modules/shipping/carriers/adapter";
import { aramexCarrier, dateOfWcf } from "../../src/modules/shipping/carriers/aramex";
import { carrierOf, carriersOf } from "../../src/modules/shipping/carriers/index";
import { mirrorCarriers } from "../../src/modules/shipping/couriers/service";
import { purchaseLabels } from "../../src/modules/shipping/labels/service";
import { createShipment } from "../../src/modules/shipping/shipments/create";
import { cancelShipment } from "../../src/modules/shipping/shipments/status";
import { pollCarrierTracking } from "../../src/modules/shipping/shipments/tracking";
import { db, serviceCtx } from "../helpers/factories";
import { eventsWhere, rowOf, rowsOf, type Store, storeFor } from "../orders/helpers";
import { ARAMEX_BASE, aramexCredentials, fakeAramex } from "./aramex-api";
import { created, PICKUPS, pickupBody, shippableOrder } from "./helpers";

const aramexEnv = { ...env, ...aramexCredentials };
const setup = () => {
  const api = fakeAramex();
  return { api, carrier: aramexCarrier(api.fetcher, { timeoutMs: 200 }) };
};

const input = (over: Partial<CarrierShipmentInput> = {}): CarrierShipmentInput => ({
  appId: 7,
  orderId: 41,
  service: "ONP",
  direction: "forward",
  origin: {
    pickup_location_id: 3,
    name: "Main Warehouse",
    address1: "Olaya St 1",
    city_id: 1,
    district_id: 1,
    lat: 24.69,
    lng: 46.68,
    phone: "+966112345678",
  },
  destination: {
    location_id: 9,
    name: "Sara",
    address1: "King Fahd Rd",
    city_id: 2,
    district_id: null,
    lat: null,
    lng: null,
    phone: "+966534501056",
  },
  packages: [{ weight_g: 1500, length_cm: 30, width_cm: 20, height_cm: 10 }],
  weightG: 1500,
  codAmountMinor: 12550,
  currency: "SAR",
  originCity: { name_en: "Riyadh", country_code: "SA" },
  destinationCity: { name_en: "Jeddah", country_code: "SA" },
  ...over,
});

const clientInfo = {
  UserName: aramexCredentials.ARAMEX_USERNAME,
  Password: aramexCredentials.ARAMEX_PASSWORD,
  Version: "v1.0",
  AccountNumber: "20016",
  AccountPin: "331421",
  AccountEntity: "RUH",
  AccountCountryCode: "SA",
};

describe("Aramex: offered only when configured", () => {
  it("is absent without credentials, present with all six; it believes no webhook", async () => {
    expect(carriersOf(env).map((a) => a.code)).not.toContain("aramex");
    expect(carrierOf({ ...aramexCredentials, ...env, ARAMEX_PASSWORD: "" }, "aramex")).toBeUndefined();
    const aramex = carrierOf(aramexEnv, "aramex");
    expect(aramex?.profile.name_en).toBe("Aramex");
    const parsed = await aramex!.parseWebhook(aramexEnv, { appId: 1, body: "{}", headers: new Headers() });
    expect(parsed).toBeNull();
  });
});

describe("Aramex: CreateShipments", () => {
  it("sends the documented request and returns the waybill as reference and tracking number", async () => {
    const { api, carrier } = setup();
    const shipment = await carrier.createShipment(aramexEnv, input());
    expect(api.requests).toHaveLength(1);
    const [sent] = api.requests;
    expect(sent).toMatchObject({
      method: "POST",
      url: `${ARAMEX_BASE}/Shipping/Service_1_0.svc/json/CreateShipments`,
      contentType: "application/json",
    });
    expect(sent!.body.ClientInfo).toEqual(clientInfo);
    expect(sent!.body.LabelInfo).toEqual({ ReportID: 9201, ReportType: "URL" });
    expect(sent!.body.Transaction).toEqual({ Reference1: "41", Reference2: "7" });
    const s = sent!.body.Shipments[0];
    expect(s.Shipper).toEqual({
      Reference1: "order 41",
      AccountNumber: "20016",
      PartyAddress: { Line1: "Olaya St 1", City: "Riyadh", CountryCode: "SA", Latitude: 24.69, Longitude: 46.68 },
      Contact: {
        PersonName: "Main Warehouse",
        CompanyName: "Main Warehouse",
        PhoneNumber1: "+966112345678",
        CellPhone: "+966112345678",
      },
    });
    expect(s.Consignee.PartyAddress).toEqual({ Line1: "King Fahd Rd", City: "Jeddah", CountryCode: "SA" });
    expect(s.Consignee.AccountNumber).toBeUndefined();
    expect(s.ShippingDateTime).toMatch(/^\/Date\(\d+\)\/$/);
    expect(s.Details).toEqual({
      Dimensions: { Length: 30, Width: 20, Height: 10, Unit: "CM" },
      ActualWeight: { Value: 1.5, Unit: "KG" },
      ProductGroup: "DOM",
      ProductType: "ONP",
      PaymentType: "P",
      PaymentOptions: "",
      Services: "CODS",
      NumberOfPieces: 1,
      DescriptionOfGoods: "Order 41",
      GoodsOriginCountry: "SA",
      CashOnDeliveryAmount: { Value: 125.5, CurrencyCode: "SAR" },
    });
    expect(shipment).toEqual({
      carrierReference: expect.stringMatching(/^\d{11}$/),
      trackingNumber: shipment.carrierReference,
      trackingUrl: `https://www.aramex.com/track/results?ShipmentNumber=${shipment.carrierReference}`,
      costMinor: null,
    });
  });

  it("without COD: no CODS service, no amount; a return is paid by the store's account as consignee", async () => {
    const { api, carrier } = setup();
    await carrier.createShipment(aramexEnv, input({ codAmountMinor: 0, direction: "return" }));
    const s = api.requests[0]!.body.Shipments[0];
    expect(s.Details.Services).toBe("");
    expect(s.Details.CashOnDeliveryAmount).toBeUndefined();
    expect(s.Details.PaymentType).toBe("C");
    expect(s.Shipper.AccountNumber).toBeUndefined();
    expect(s.Consignee.AccountNumber).toBe("20016");
  });

  it("Aramex's refusals, a 500 and no answer are CarrierErrors with its words; unnamed cities are refused before any call", async () => {
    const { api, carrier } = setup();
    const refusal = carrier.createShipment(aramexEnv, input({ destination: { ...input().destination, phone: null } }));
    await expect(refusal).rejects.toThrow(CarrierError);
    await expect(refusal).rejects.toThrow("ERR52: Shipment creation failed");
    await expect(carrier.createShipment({ ...aramexEnv, ARAMEX_PASSWORD: "wrong" }, input())).rejects.toThrow(
      "ERR01: Invalid username or password",
    );
    api.answerWith(() => new Response("<html>busy</html>", { status: 500 }));
    await expect(carrier.createShipment(aramexEnv, input())).rejects.toThrow("answered 500 without JSON");
    const before = api.requests.length;
    await expect(carrier.createShipment(aramexEnv, input({ destinationCity: null }))).rejects.toThrow(
      "need a city Aramex can name",
    );
    await expect(
      carrier.createShipment(aramexEnv, input({ destinationCity: { name_en: "Dubai", country_code: "AE" } })),
    ).rejects.toThrow("Only domestic");
    expect(api.requests.length).toBe(before);
    // A server that never answers: only the adapter's timeout ends the wait.
    const hanging = aramexCarrier(
      (_url, init) =>
        new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)),
        ),
      { timeoutMs: 50 },
    );
    await expect(hanging.createShipment(aramexEnv, input())).rejects.toThrow("no answer in 50 ms");
  });
});

describe("Aramex: PrintLabel, TrackShipments, cancel", () => {
  it("asks PrintLabel for the waybill's label URL; an unknown waybill is Aramex's error", async () => {
    const { api, carrier } = setup();
    const { carrierReference: awb } = await carrier.createShipment(aramexEnv, input());
    expect(await carrier.label(aramexEnv, awb)).toEqual({
      url: `https://ws.sbx.aramex.net/content/rpt_cache/${awb}.pdf`,
    });
    expect(api.requests[1]).toMatchObject({
      url: `${ARAMEX_BASE}/Shipping/Service_1_0.svc/json/PrintLabel`,
      body: {
        ClientInfo: clientInfo,
        Transaction: { Reference1: awb },
        ShipmentNumber: awb,
        ProductGroup: "DOM",
        OriginEntity: "RUH",
        LabelInfo: { ReportID: 9201, ReportType: "URL" },
      },
    });
    await expect(carrier.label(aramexEnv, "1")).rejects.toThrow("ERR03: Shipment 1 not found");
  });

  it("tracks in batches of 50, maps update codes (skipping scans that change nothing), oldest first", async () => {
    const { api, carrier } = setup();
    const { carrierReference: awb } = await carrier.createShipment(aramexEnv, input());
    api.scan(awb, "SH012", "Picked up from shipper", 30);
    api.scan(awb, "SH047", "Sorted at facility", 20);
    api.scan(awb, "SH003", "Out for delivery", 10);
    const refs = [awb, ...Array.from({ length: 59 }, (_, i) => String(1000 + i))];
    const tracked = await carrier.trackMany!(aramexEnv, refs);
    const calls = api.requests.filter((r) => r.path.endsWith("/TrackShipments"));
    expect(calls.map((c) => c.body.Shipments.length)).toEqual([50, 10]);
    expect(calls[0]!.url).toBe(`${ARAMEX_BASE}/Tracking/Service_1_0.svc/json/TrackShipments`);
    expect(calls[0]!.body).toMatchObject({ ClientInfo: clientInfo, GetLastTrackingUpdateOnly: false });
    const updates = tracked.get(awb)!;
    expect(updates.map((u) => [u.status, u.carrierStatus])).toEqual([
      ["picked_up", "SH012"],
      ["out_for_delivery", "SH003"],
    ]);
    expect(updates[0]!.note).toBe("Picked up from shipper · Riyadh, Saudi Arabia");
    expect(Date.parse(updates[0]!.at)).toBeLessThan(Date.parse(updates[1]!.at));
    expect(tracked.has("1000")).toBe(false);
    expect(dateOfWcf("/Date(1714557600000+0300)/")).toBe("2024-05-01T10:00:00.000Z");
  });

  it("cancels an unscanned waybill without a call that changes it; a scanned one is refused", async () => {
    const { api, carrier } = setup();
    const { carrierReference: awb } = await carrier.createShipment(aramexEnv, input());
    // Aramex charges no label per waybill: a cancelled one has nothing to give back.
    expect(await carrier.cancelShipment(aramexEnv, awb)).toEqual({ refunded: false });
    expect(api.requests.at(-1)!.path).toMatch(/TrackShipments$/);
    api.scan(awb, "SH012", "Picked up from shipper");
    await expect(carrier.cancelShipment(aramexEnv, awb)).rejects.toThrow(/has scanned waybill \d+ \(SH012\)/);
  });
});

describe("Aramex through the shipping module: create, carrier_reference, scheduled poll, cancel", () => {
  const A = 9751;
  let store: Store;
  let courierId: number;
  let api: ReturnType<typeof fakeAramex>;

  beforeAll(async () => {
    store = await storeFor(A);
    await created(store, PICKUPS, pickupBody({ is_default: true, phone: "+966112345678" }));
    await mirrorCarriers(serviceCtx(A), aramexEnv);
    courierId = (await rowOf("SELECT id FROM couriers WHERE app_id = ? AND code = 'aramex'", A)).id as number;
  });
  afterEach(() => vi.unstubAllGlobals());

  const deps = () => ({ db: db(), env: aramexEnv, waitUntil: () => {} });

  async function shippedByAramex() {
    api = fakeAramex();
    vi.stubGlobal("fetch", api.fetcher);
    const o = await shippableOrder(store);
    const ctx = serviceCtx(A);
    const shipment = await createShipment(ctx, aramexEnv, { fulfillment_ids: o.fulfillmentIds, courier_id: courierId });
    await ctx.settle();
    return { ...o, shipment };
  }

  it("creates at Aramex with the cities by name; the view shows the waybill as carrier_reference", async () => {
    const { shipment } = await shippedByAramex();
    const sent = api.requests[0]!.body.Shipments[0];
    expect(sent.Shipper.PartyAddress.City).toBe("Riyadh");
    expect(sent.Consignee.PartyAddress).toMatchObject({ City: "Riyadh", CountryCode: "SA" });
    expect(shipment).toMatchObject({
      courier_id: courierId,
      service: "ONP",
      status: "created",
      carrier_reference: expect.stringMatching(/^\d{11}$/),
      cost: 0,
    });
    expect(shipment.tracking_number).toBe(shipment.carrier_reference);
  });

  it("the scheduled poll applies new scans through the status path, once; a scanned shipment cannot be cancelled", async () => {
    const { shipment } = await shippedByAramex();
    const awb = shipment.carrier_reference!;
    api.scan(awb, "SH012", "Picked up from shipper", 10);
    const first = await pollCarrierTracking(deps());
    expect(first.find((r) => r.carrier === "aramex")).toMatchObject({ applied: 1 });
    const history = await rowsOf(
      "SELECT status, source, carrier_status FROM shipment_status_history WHERE shipment_id = ? ORDER BY id",
      shipment.id,
    );
    expect(history).toEqual([
      { status: "created", source: "merchant", carrier_status: null },
      { status: "picked_up", source: "carrier", carrier_status: "SH012" },
    ]);
    const events = await eventsWhere(A, ["shipment.status_changed"], "id", shipment.id);
    expect(events.map((e) => [e.data.status, e.data.source])).toEqual([["picked_up", "carrier"]]);
    // Polled again with nothing new: the old scan is not applied twice.
    const again = await pollCarrierTracking(deps());
    expect(again.find((r) => r.carrier === "aramex")).toMatchObject({ applied: 0, ignored: 0 });
    await expect(cancelShipment(serviceCtx(A), aramexEnv, shipment.id)).rejects.toMatchObject({ status: 409 });
    api.scan(awb, "SH001", "Received at facility", 5);
    api.scan(awb, "SH003", "Out for delivery", 1);
    await pollCarrierTracking(deps());
    expect((await rowOf("SELECT status FROM shipments WHERE id = ?", shipment.id)).status).toBe("out_for_delivery");
  });

  it("a labelled Aramex shipment cancelled: the label is voided, nothing is credited (Aramex keeps no label charge)", async () => {
    const { shipment } = await shippedByAramex();
    // A priced label (as a contract rate would be), paid from the wallet: what voiding does with it.
    await rowOf("UPDATE shipments SET cost_minor = 700 WHERE id = ? RETURNING id", shipment.id);
    await rowOf(
      `INSERT INTO store_wallet_entries (app_id, type, source, amount_minor, balance_after_minor, order_id, reference, created_at)
       VALUES (?, 'credit', 'adjustment', 700, 700 + coalesce((SELECT balance_after_minor FROM store_wallet_entries
         WHERE app_id = ? ORDER BY id DESC LIMIT 1), 0), NULL, 'test', '2025-01-01T00:00:00Z') RETURNING id`,
      A,
      A,
    );
    const ctx = serviceCtx(A);
    const [label] = (await purchaseLabels(ctx, { shipment_ids: [shipment.id] }, "https://api.test")).labels;
    await cancelShipment(ctx, aramexEnv, shipment.id);
    await ctx.settle();
    expect(
      await rowsOf(
        "SELECT type, amount_minor FROM store_wallet_entries WHERE reference = ?",
        `shipment:${shipment.id}`,
      ),
    ).toEqual([{ type: "debit", amount_minor: -700 }]);
    expect(
      await rowOf("SELECT refund_minor, voided_at IS NOT NULL AS v FROM shipping_labels WHERE id = ?", label!.id),
    ).toEqual({
      refund_minor: 0,
      v: 1,
    });
    const [voided] = await eventsWhere(A, ["shipment.label_voided"], "id", shipment.id);
    expect(voided!.data).toMatchObject({ label_id: label!.id, refund: 0 });
  });

  it("cancels an unscanned Aramex shipment; Aramex down during a poll is reported, not thrown", async () => {
    const { shipment } = await shippedByAramex();
    const cancelled = await cancelShipment(serviceCtx(A), aramexEnv, shipment.id);
    expect(cancelled.status).toBe("cancelled");
    api.answerWith(() => new Response("", { status: 503 }));
    const down = await pollCarrierTracking(deps());
    expect(down.find((r) => r.carrier === "aramex")?.error).toMatch(/without JSON|503/);
  });
});
