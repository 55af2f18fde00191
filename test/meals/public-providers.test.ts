import { beforeAll, describe, expect, it } from "vitest";
import { APP_1, shardFor } from "../helpers/factories";
import { missingKeys, schemaErrors, seedMealsFor } from "../helpers/meals";
import { deref, openApiDocument, validate } from "../helpers/openapi";
import { call, json, problem } from "../helpers/request";

// Stores and meals ids of this file's own (other meals files have stores 51 to 58).
const A = 59;
const B = 60;
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;

beforeAll(async () => {
  a = await seedMealsFor(A, 590_000);
  b = await seedMealsFor(B, 600_000);
  // Store B's Kabsa House inactive: these tests ran after Restaurant Details (public-restaurants.test.ts),
  // which leaves it so, when they shared a file.
  await shardFor(APP_1).prepare("UPDATE restaurants SET is_active = 0 WHERE id = ?").bind(b.kabsa).run();
});

describe("List Channel Providers (2.6, 4.6)", () => {
  const providers = (body: unknown) => call("/api/v1/sales-channels/providers/", { appId: A, method: "POST", body });
  const byName = (list: { name_en: string }[], name: string) =>
    list.find((p) => p.name_en === name) as Record<string, any>;

  // The server took numbers the document refused (`"lng": 0`): the document now says both.
  it("takes lat and lng as strings or numbers, as the document declares them", async () => {
    const doc = await openApiDocument();
    const schema = deref(
      doc,
      doc.paths["/api/v1/sales-channels/providers/"]!.post!.requestBody!.content["application/json"]!.schema,
    );
    for (const body of [
      { lat: 0, lng: 0 },
      { lat: "24.7136", lng: "46.6753" },
      { lat: " 24.7", lng: -180 },
    ]) {
      expect(validate(schema, body), JSON.stringify(body)).toEqual([]);
      expect((await providers(body)).status, JSON.stringify(body)).toBe(200);
    }
    for (const body of [
      { lat: 91, lng: 0 },
      { lat: "north", lng: "0" },
      { lat: true, lng: 0 },
    ]) {
      expect(validate(schema, body), JSON.stringify(body)).not.toEqual([]);
      expect((await providers(body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("serves every field, and availability from zones, radius and pickup city", async () => {
    // Central Riyadh: inside Kabsa House's zone and within 12 km of Green Bowl's Olaya branch.
    const res = await providers({ lat: "24.7136", lng: "46.6753", city_id: 1 });
    expect(res.status).toBe(200);
    const list = await json(res);
    expect(schemaErrors("listChannelProviders", list)).toEqual([]);
    expect(list.map((p: { id: number }) => p.id)).toEqual([a.green, a.kabsa]);
    expect(
      missingKeys(list[0], [
        "id",
        "name_en",
        "name_ar",
        "subtitle_en",
        "subtitle_ar",
        "logo",
        "banner",
        "start_after",
        "store_start_after",
        "primary_color",
        "secondary_color",
        "closed_dates",
        "supports_pickup",
        "supports_delivery",
        "off_days",
        "is_available_for_user",
        "delivery_windows",
        "pickup_branches",
      ]),
    ).toEqual([]);
    expect(list[0]).toMatchObject({ is_available_for_user: true, closed_dates: ["2026-12-31"], off_days: ["friday"] });
    expect(list[0].delivery_windows).toEqual([
      expect.objectContaining({ from_time: "06:00:00", to_time: "09:00:00" }),
      expect.objectContaining({ from_time: "12:00:00" }),
    ]);
    expect(list[0].pickup_branches).toEqual([
      {
        id: a.id(1),
        name_en: "Olaya",
        name_ar: "العليا",
        location: { address1: "Olaya St, Riyadh", lat: "24.6907", lng: "46.6853" },
      },
    ]);
    expect(list[1].is_available_for_user).toBe(true);
    expect(list[0]).not.toHaveProperty("debug");

    // North of Riyadh, 30 km out: outside the zone and the radius; with a city, pickup still serves.
    const far = await json(await providers({ lat: 24.98, lng: 46.7, debug: true }));
    expect(byName(far, "Green Bowl")).toMatchObject({
      is_available_for_user: false,
      debug: { reason: "outside_delivery_area", nearest_branch_id: a.id(1) },
    });
    expect(byName(far, "Kabsa House")).toMatchObject({
      is_available_for_user: false,
      debug: { reason: "outside_delivery_area", zone_id: null },
    });
    const inRiyadh = await json(await providers({ lat: 24.98, lng: 46.7, city_id: 1, debug: true }));
    expect(byName(inRiyadh, "Green Bowl").debug.reason).toBe("pickup_in_city");

    // Jeddah (city 2): Green Bowl has a pickup branch there; Kabsa House nothing.
    const jeddah = await json(await providers({ city_id: 2, debug: true }));
    expect(byName(jeddah, "Green Bowl")).toMatchObject({
      is_available_for_user: true,
      pickup_branches: [expect.objectContaining({ name_en: "Tahlia" })],
    });
    expect(byName(jeddah, "Kabsa House").is_available_for_user).toBe(false);
    const inside = await json(await providers({ lat: "24.70", lng: "46.75", debug: true }));
    expect(byName(inside, "Kabsa House").debug).toMatchObject({ reason: "inside_delivery_zone", zone_id: a.id(1) });
  });

  it("refuses bad coordinates and a request without a location", async () => {
    for (const [body, field] of [
      [{ lat: "91", lng: "46" }, "lat"],
      [{ lat: "24.7", lng: "-181" }, "lng"],
      [{ lat: "north", lng: "46" }, "lat"],
      [{ lat: "24.7" }, "lat"],
      [{}, "body"],
      [{ city_id: "one" }, "city_id"],
      [{ city_id: 1, radius: 5 }, "radius"],
    ] as const) {
      const res = await providers(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await problem(res)).errors ?? {}), JSON.stringify(body)).toContain(field);
    }
  });

  it("never lists another tenant's providers", async () => {
    const list = await json(
      await call("/api/v1/sales-channels/providers/", { appId: B, method: "POST", body: { city_id: 1 } }),
    );
    expect(list.map((p: { id: number }) => p.id)).toEqual([b.green]);
  });
});
