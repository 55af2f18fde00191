import { beforeAll, describe, expect, it } from "vitest";
import { countRows, createCustomerFor, customerTokenFor, shardFor, tokenFor } from "../helpers/factories";
import { schemaErrors, seedMealsFor } from "../helpers/meals";
import { call, pageIds as ids, json, problem } from "../helpers/request";

/** Corporate Location (MM9): the customer's reads, and the merchant's management under /merchant/meals/. */

const A = 4409;
const B = 4410;
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;
let merchant: string;
let customer: string;
let tower: number;
let compound: number;
let closed: number;
let theirs: number;

const MINE = "/order/v1/merchant/meals/corporate-locations/";
const PUBLIC = "/api/v1/corporate-locations/";
const manage = (path: string, method: string, body?: unknown, appId = A, token = merchant) =>
  call(MINE + path, { method, appId, token, body });
const customerGet = (path: string, appId = A, token = customer) => call(PUBLIC + path, { appId, token });

async function eventsOf(type: string) {
  const { results } = await shardFor(A)
    .prepare("SELECT payload FROM outbox_events WHERE app_id = ? AND type = ? ORDER BY rowid")
    .bind(A, type)
    .all<{ payload: string }>();
  return results.map((r) => JSON.parse(r.payload).data);
}

const TOWER = {
  name_en: "Olaya Towers",
  name_ar: "أبراج العليا",
  company_name: "Acme",
  city_id: 1,
  district: "Olaya",
  address: "Tower B, reception",
  lat: 24.69,
  lng: 46.685,
  instructions: "Leave at the ground floor reception.",
};

beforeAll(async () => {
  a = await seedMealsFor(A, 4_470_000);
  b = await seedMealsFor(B, 4_480_000);
  merchant = await tokenFor(A, ["can_write_item", "can_read_item"]);
  customer = await customerTokenFor(A, (await createCustomerFor(A)).id);
});

describe("merchant: create, update, delete", () => {
  it("creates a location with its delivery windows, in the order given, and announces it", async () => {
    const res = await manage("", "POST", { ...TOWER, delivery_window_ids: [a.id(2), a.id(1)] });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(schemaErrors("createCorporateLocation", created, "201")).toEqual([]);
    tower = created.id;
    expect(created).toMatchObject({
      ...TOWER,
      app_id: A,
      is_active: true,
      is_deleted: false,
      custom_fields: null,
      delivery_windows: [
        { id: a.id(2), restaurant_id: a.green, from_time: "12:00:00", to_time: "15:00:00" },
        { id: a.id(1), restaurant_id: a.green, from_time: "06:00:00", to_time: "09:00:00" },
      ],
    });
    expect(await eventsOf("corporate_location.created")).toEqual([{ id: tower }]);

    compound = (
      await json(
        await manage("", "POST", {
          name_en: "Diplomatic Quarter",
          name_ar: "الحي الدبلوماسي",
          city_id: 2,
          lat: 24.68,
          lng: 46.62,
          delivery_window_ids: [a.id(3)],
          ordering: 5,
        }),
      )
    ).id;
    closed = (
      await json(
        await manage("", "POST", {
          name_en: "Old site",
          name_ar: "الموقع القديم",
          city_id: 1,
          lat: 1,
          lng: 1,
          is_active: false,
        }),
      )
    ).id;
    theirs = (await json(await manage("", "POST", { ...TOWER }, B, await tokenFor(B, ["can_write_item"])))).id;
  });

  it("refuses windows that are not the store's, and bad fields, with a 400 naming them", async () => {
    const foreign = await problem(await manage("", "POST", { ...TOWER, delivery_window_ids: [b.id(1), a.id(1)] }));
    expect(foreign.errors!.delivery_window_ids![0]).toContain(String(b.id(1)));
    const cases: [unknown, string][] = [
      [{ ...TOWER, name_en: undefined }, "name_en"],
      [{ ...TOWER, lat: 91 }, "lat"],
      [{ ...TOWER, city_id: 0 }, "city_id"],
      [{ ...TOWER, delivery_window_ids: [1, 1] }, "delivery_window_ids"],
      [{ ...TOWER, floor: 3 }, "floor"],
    ];
    for (const [body, field] of cases) {
      const p = await problem(await manage("", "POST", body));
      expect(p.status, field).toBe(400);
      expect(p.errors, field).toHaveProperty(field);
    }
    expect((await problem(await manage(`${tower}/`, "PATCH", {}))).errors).toHaveProperty("body");
  });

  it("updates the fields given, and announces it", async () => {
    const res = await manage(`${tower}/`, "PATCH", { instructions: null, delivery_window_ids: [a.id(1)] });
    expect(res.status).toBe(200);
    const updated = await json(res);
    expect(updated).toMatchObject({ name_en: "Olaya Towers", instructions: null });
    expect(updated.delivery_windows.map((w: { id: number }) => w.id)).toEqual([a.id(1)]);
    expect(await eventsOf("corporate_location.updated")).toEqual([{ id: tower }]);
  });

  it("never reaches another store's location", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name_en: "Taken" }],
      ["DELETE", undefined],
    ] as const) {
      const p = await problem(await manage(`${theirs}/`, method, body));
      expect(p, method).toMatchObject({ status: 404, code: "corporate_location_not_found" });
    }
    expect(ids(await json(await manage("", "GET")))).not.toContain(theirs);
  });

  it("needs can_write_item to write and can_read_item to read", async () => {
    const reader = await tokenFor(A, ["can_read_item"]);
    expect((await problem(await manage("", "POST", TOWER, A, reader))).code).toBe("missing_permission");
    const writer = await tokenFor(A, ["can_write_item"]);
    expect((await problem(await manage("", "GET", undefined, A, writer))).code).toBe("missing_permission");
    expect((await problem(await manage("", "GET", undefined, A, customer))).code).toBe("wrong_principal");
  });
});

describe("customer: List Corporate Locations and details", () => {
  it("lists the active locations only, paginated, filtered and searched", async () => {
    const res = await customerGet("");
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(schemaErrors("listCorporateLocations", page)).toEqual([]);
    expect(ids(page)).toEqual([tower, compound]);
    expect(ids(await json(await customerGet("?city_id=2")))).toEqual([compound]);
    expect(ids(await json(await customerGet("?search=acme")))).toEqual([tower]);
    expect(ids(await json(await customerGet("?order_by=-ordering")))).toEqual([compound, tower]);
    const paged = await json(await customerGet("?page_size=1"));
    expect(paged.count).toBe(2);
    expect(paged.next).toContain("page=2");
    // The merchant sees the inactive one too.
    expect(ids(await json(await manage("", "GET")))).toEqual([closed, tower, compound]);
    expect((await problem(await customerGet("?colour=red"))).errors).toHaveProperty("colour");
  });

  it("serves one active location; an inactive one, or another store's, is a 404", async () => {
    const res = await customerGet(`${compound}/`);
    expect(res.status).toBe(200);
    const one = await json(res);
    expect(schemaErrors("getCorporateLocation", one)).toEqual([]);
    expect(one.delivery_windows).toEqual([
      { id: a.id(3), restaurant_id: a.kabsa, from_time: "18:00:00", to_time: "23:00:00" },
    ]);
    for (const id of [closed, theirs, 999_999]) {
      expect((await problem(await customerGet(`${id}/`))).code).toBe("corporate_location_not_found");
    }
    expect((await json(await manage(`${closed}/`, "GET"))).is_active).toBe(false);
  });

  it("hides the windows of an inactive restaurant from customers, not from the merchant", async () => {
    const off = await call(`/order/v1/merchant/meals/restaurants/${a.kabsa}/`, {
      method: "PATCH",
      appId: A,
      token: merchant,
      body: { is_active: false },
    });
    expect(off.status).toBe(200);
    expect((await json(await customerGet(`${compound}/`))).delivery_windows).toEqual([]);
    expect((await json(await customerGet(""))).results[1].delivery_windows).toEqual([]);
    expect((await json(await manage(`${compound}/`, "GET"))).delivery_windows).toHaveLength(1);
  });

  it("needs the customer's token for the store", async () => {
    expect((await call(PUBLIC, { appId: A })).status).toBe(401);
    expect((await problem(await customerGet("", A, merchant))).code).toBe("wrong_principal");
    expect((await problem(await customerGet("", B))).code).toBe("wrong_tenant");
  });
});

describe("merchant: delete", () => {
  it("soft-deletes, announces it, and the location is gone for everyone", async () => {
    const res = await manage(`${tower}/`, "DELETE");
    expect(res.status).toBe(204);
    expect(await eventsOf("corporate_location.deleted")).toEqual([{ id: tower }]);
    expect(await countRows("corporate_locations", `id = ${tower} AND is_deleted = 1`)).toBe(1);
    expect((await problem(await customerGet(`${tower}/`))).code).toBe("corporate_location_not_found");
    expect((await problem(await manage(`${tower}/`, "GET"))).code).toBe("corporate_location_not_found");
    expect(ids(await json(await customerGet("")))).toEqual([compound]);
  });
});
