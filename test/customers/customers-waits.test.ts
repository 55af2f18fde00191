import { beforeAll, describe, expect, it } from "vitest";
import { createCustomerFor, customerTokenFor, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, callWaits, json, problem } from "../helpers/request";
import { outboxOf } from "./records-fixtures";

/**
 * The D1 round trips the customers' writes wait for beyond the token check (test/helpers/d1-waits.ts):
 * one read round trip, then one guarded batch that answers the result. Counted, never timed;
 * each case also checks the answer a client relies on. Stores of this file only.
 */
const S = 4261;
const API = "/api/v1/customer";
const MERCHANT = "/order/v1/merchant";
const RIYADH = 1;
const OLAYA = 1; // a district of Riyadh (geography migration)

const home = {
  type: "home",
  name_en: "Home",
  name_ar: "المنزل",
  latitude: 24.6917,
  longitude: 46.6853,
  city_id: RIYADH,
  district_id: OLAYA,
};

let merchant: string;
beforeAll(async () => {
  await ensureTenant(S);
  merchant = await tokenFor(S, ["can_read_order", "can_write_order"]);
});

/** A request of customer `id` with their own access token, metered. */
async function asCustomer(id: number, path: string, method: string, body?: unknown) {
  return callWaits(API + path, { method, body, appId: S, token: await customerTokenFor(S, id) });
}
const asMerchant = (path: string, method: string, body?: unknown) =>
  callWaits(MERCHANT + path, { method, body, appId: S, token: merchant });

describe("D1 waits of the customer's own profile", () => {
  it("Update Profile, Language and Avatar wait twice, Platform Version once; each answers the profile as written", async () => {
    const { id } = await createCustomerFor(S, { name: "Before", email: "old@example.com", isEmailVerified: true });
    const profile = await asCustomer(id, "/profile/", "PATCH", {
      name: "After",
      email: "new@example.com",
      current_city_id: RIYADH,
    });
    expect(profile.res.status).toBe(200);
    expect(await json(profile.res)).toMatchObject({
      id,
      name: "After",
      email: "new@example.com",
      is_email_verified: false,
      current_city_id: RIYADH,
    });
    expect(profile.waits.beyondAuth).toBe(2);
    const lang = await asCustomer(id, "/profile/language/", "PATCH", { lang: "ar" });
    expect(lang.res.status).toBe(200);
    expect(await json(lang.res)).toMatchObject({ id, lang: "ar", name: "After" });
    expect(lang.waits.beyondAuth).toBe(2);
    const avatar = await asCustomer(id, "/profile/avatar/", "POST", { avatar: "https://cdn.example.com/a.jpg" });
    expect(avatar.res.status).toBe(200);
    expect(await json(avatar.res)).toMatchObject({ id, avatar: "https://cdn.example.com/a.jpg" });
    expect(avatar.waits.beyondAuth).toBe(2);
    const version = await asCustomer(id, "/profile/platform-version/", "PATCH", { platform_version: "2.4.0" });
    expect(version.res.status).toBe(200);
    expect(await json(version.res)).toMatchObject({ id, platform_version: "2.4.0", lang: "ar" });
    expect(version.waits.beyondAuth).toBe(1);
    const updated = (await outboxOf(S, "customer.updated")).filter((e) => e.payload.data.id === id);
    expect(updated).toHaveLength(3);
  });

  it("Register FCM Token waits twice, a re-registration too", async () => {
    const { id } = await createCustomerFor(S);
    const token = `waits-${id}-${"x".repeat(24)}`;
    const first = await asCustomer(id, "/fcm-tokens/", "POST", { token, platform: "ios" });
    expect(first.res.status).toBe(201);
    expect(first.waits.beyondAuth).toBe(2);
    const again = await asCustomer(id, "/fcm-tokens/", "POST", { token, platform: "android" });
    expect(again.res.status).toBe(200);
    expect(await json(again.res)).toMatchObject({ token, platform: "android", is_active: true });
    expect(again.waits.beyondAuth).toBe(2);
  });
});

describe("D1 waits of the customer's own locations", () => {
  it("create, update, image and delete wait twice; each answers the location as written", async () => {
    const { id } = await createCustomerFor(S);
    const created = await asCustomer(id, "/locations/", "POST", home);
    expect(created.res.status).toBe(201);
    const location = await json(created.res);
    expect(location).toMatchObject({ customer_id: id, city: { id: RIYADH }, district_id: OLAYA });
    expect(created.waits.beyondAuth).toBe(2);
    const one = `/locations/${location.id}/`;
    const updated = await asCustomer(id, one, "PATCH", { name_en: "Flat", district_id: null });
    expect(updated.res.status).toBe(200);
    expect(await json(updated.res)).toMatchObject({
      id: location.id,
      name_en: "Flat",
      district_id: null,
      district: null,
    });
    expect(updated.waits.beyondAuth).toBe(2);
    const image = await asCustomer(id, `${one}image/`, "POST", { image: "https://cdn.example.com/l.jpg" });
    expect(image.res.status).toBe(200);
    expect(await json(image.res)).toMatchObject({ image: "https://cdn.example.com/l.jpg", name_en: "Flat" });
    expect(image.waits.beyondAuth).toBe(2);
    const deleted = await asCustomer(id, one, "DELETE");
    expect(deleted.res.status).toBe(204);
    expect(deleted.waits.beyondAuth).toBe(2);
    const events = (await outboxOf(S)).filter(
      (e) => e.payload.data.id === location.id && e.type.startsWith("customer.location."),
    );
    expect(events.map((e) => e.type)).toEqual([
      "customer.location.created",
      "customer.location.updated",
      "customer.location.updated",
      "customer.location.deleted",
    ]);
  });
});

describe("D1 waits of the merchant's customer writes", () => {
  it("Create Customer, Update Customer and Create Customer Location wait twice", async () => {
    const mobile = `5${String(Date.now()).slice(-8)}`;
    const created = await asMerchant("/customers/", "POST", {
      country_code: "966",
      mobile_number: mobile,
      name: "Waits",
      current_city_id: RIYADH,
    });
    expect(created.res.status).toBe(201);
    const customer = await json(created.res);
    expect(created.waits.beyondAuth).toBe(2);
    const updated = await asMerchant(`/customers/${customer.id}/`, "PATCH", {
      name: "Waits 2",
      mobile_number: `5${String(Date.now() + 1).slice(-8)}`,
    });
    expect(updated.res.status).toBe(200);
    expect(await json(updated.res)).toMatchObject({ id: customer.id, name: "Waits 2", is_mobile_verified: false });
    expect(updated.waits.beyondAuth).toBe(2);
    const location = await asMerchant(`/customers/${customer.id}/locations/`, "POST", home);
    expect(location.res.status).toBe(201);
    expect(await json(location.res)).toMatchObject({ customer_id: customer.id, city: { id: RIYADH } });
    expect(location.waits.beyondAuth).toBe(2);
  });

  it("blocking a customer waits twice, and their token is refused at once", async () => {
    const { id } = await createCustomerFor(S);
    const token = await customerTokenFor(S, id);
    await shardFor(S)
      .prepare(
        "INSERT INTO refresh_tokens (app_id, customer_id, family_id, token_hash, expires_at) VALUES (?, ?, 'w', ?, '2099-01-01T00:00:00.000Z')",
      )
      .bind(S, id, `waits-${id}`)
      .run();
    expect((await call(`${API}/profile/`, { appId: S, token })).status).toBe(200);
    const blocked = await asMerchant(`/customers/${id}/`, "PATCH", { is_blocked: true });
    expect(blocked.res.status).toBe(200);
    expect(blocked.waits.beyondAuth).toBe(2);
    const refused = await call(`${API}/profile/`, { appId: S, token });
    expect(refused.status).toBe(403);
    expect((await problem(refused)).code).toBe("customer_blocked");
    const sessions = await shardFor(S)
      .prepare(
        "SELECT count(*) AS open FROM refresh_tokens WHERE app_id = ? AND customer_id = ? AND revoked_at IS NULL",
      )
      .bind(S, id)
      .first<{ open: number }>();
    expect(sessions?.open).toBe(0);
  });

  it("Send Notification waits twice (its fan-out is deferred work)", async () => {
    const { id } = await createCustomerFor(S, { currentCityId: RIYADH });
    const texts = { title_en: "T", title_ar: "ت", body_en: "B", body_ar: "ب" };
    for (const audience of [{ customer_ids: [id] }, { segment: { city_id: RIYADH } }]) {
      const sent = await asMerchant("/notifications/send/", "POST", { ...audience, ...texts });
      expect(sent.res.status).toBe(202);
      expect(await json(sent.res)).toMatchObject({ status: "queued" });
      expect(sent.waits.beyondAuth).toBe(2);
    }
  });
});
