import { beforeAll, describe, expect, it } from "vitest";
import { sharedAuthCases } from "../helpers/auth-cases";
import { shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { json, problem } from "../helpers/request";
import { eventsWhere, rowOf } from "../orders/helpers";
import { CONNECTIONS, PROFILE, type Shop, sent, storeOf } from "./helpers";

const A = 17_701;
const B = 17_702;
const C = 17_703;
let a: Shop;
let b: Shop;
let c: Shop;

beforeAll(async () => {
  a = await storeOf(A);
  b = await storeOf(B);
  c = await storeOf(C);
});

const patch = (as: Shop, body: unknown) => as.as(PROFILE, { method: "PATCH", body });
const profileEvents = (appId: number) => eventsWhere(appId, ["sales_channel.profile_updated"], "app_id", appId);

describe("Channel Profile (MX5)", () => {
  it("before any change: the store's own names, nothing listed, no cities", async () => {
    const res = await c.as(PROFILE);
    const out = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("getChannelProfile", out)).toEqual([]);
    expect(out).toEqual({
      app_id: C,
      name_en: `Store ${C}`,
      name_ar: `متجر ${C}`,
      logo: null,
      description_en: null,
      description_ar: null,
      is_listed: false,
      contact: { name: null, email: null, phone: null, website: null },
      supported_cities: [],
      modified_at: null,
    });
  });

  it("takes the store settings' names and logo until the profile sets its own", async () => {
    await shardFor(C)
      .prepare("INSERT INTO store_settings (app_id, name_en, logo) VALUES (?, 'Settings name', '/logo.png')")
      .bind(C)
      .run();
    expect(await json(await c.as(PROFILE))).toMatchObject({
      name_en: "Settings name",
      name_ar: `متجر ${C}`,
      logo: "/logo.png",
    });
  });

  it("PATCH changes the fields given, keeps the others, and emits profile_updated naming them", async () => {
    let res = await patch(a, {
      name_en: "Green Market",
      description_en: "Healthy plans from many kitchens.",
      is_listed: true,
      contact: { email: "team@green.example", phone: "+966 11 000 0000" },
      supported_city_ids: [2, 1],
    });
    let out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(schemaErrors("updateChannelProfile", out)).toEqual([]);
    expect(out).toMatchObject({
      app_id: A,
      name_en: "Green Market",
      name_ar: `متجر ${A}`,
      description_en: "Healthy plans from many kitchens.",
      is_listed: true,
      contact: { name: null, email: "team@green.example", phone: "+966 11 000 0000", website: null },
      supported_cities: [
        { id: 2, name_en: "Jeddah" },
        { id: 1, name_en: "Riyadh" },
      ],
    });
    expect(out.modified_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    res = await patch(a, { contact: { website: "https://green.example" }, name_en: null });
    out = await json(res);
    expect(out).toMatchObject({
      name_en: `Store ${A}`,
      is_listed: true,
      contact: { email: "team@green.example", website: "https://green.example" },
    });
    expect(out.supported_cities).toHaveLength(2);
    const events = await profileEvents(A);
    expect(events.map((e) => e.data.changes)).toEqual([
      ["name_en", "description_en", "is_listed", "contact.email", "contact.phone", "supported_city_ids"],
      ["name_en", "contact.website"],
    ]);
    expect((await rowOf("SELECT * FROM channel_profiles WHERE app_id = ?", A)).supported_city_ids).toBe("[2,1]");
  });

  it("400 for bad input, naming the field; nothing changes", async () => {
    for (const [body, field] of [
      [{}, "body"],
      [{ supported_city_ids: [1, 1] }, "supported_city_ids"],
      [{ supported_city_ids: [999_999] }, "supported_city_ids"],
      [{ contact: { email: "not-an-email" } }, "contact.email"],
      [{ contact: { website: "green" } }, "contact.website"],
      [{ contact: { fax: "1" } }, "contact.fax"],
      [{ name_en: "" }, "name_en"],
      [{ is_listed: "yes" }, "is_listed"],
      [{ colour: "green" }, "colour"],
    ] as const) {
      const res = await patch(b, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await problem(res)).errors, JSON.stringify(body)).toHaveProperty([field]);
    }
    expect(await rowOf("SELECT * FROM channel_profiles WHERE app_id = ?", B)).toBeNull();
    expect(await profileEvents(B)).toEqual([]);
  });

  it("is each store's own, and names the store in its connection requests", async () => {
    await patch(b, { name_en: "Kabsa Kitchen", logo: "/kabsa.png" });
    expect((await json(await a.as(PROFILE))).name_en).toBe(`Store ${A}`);
    expect((await json(await b.as(PROFILE))).name_en).toBe("Kabsa Kitchen");
    const req = await sent(a, { provider_app_id: B });
    expect(req.provider).toEqual({ app_id: B, name_en: "Kabsa Kitchen", name_ar: `متجر ${B}`, logo: "/kabsa.png" });
    const seen = await json(await b.as(`${CONNECTIONS}${req.id}/`));
    expect(seen.channel).toMatchObject({ app_id: A, name_en: `Store ${A}` });
  });
});

sharedAuthCases({ method: "GET", path: PROFILE, permission: "can_read_sales_channels" });
sharedAuthCases({ method: "PATCH", path: PROFILE, permission: "can_write_sales_channels", body: { is_listed: true } });
