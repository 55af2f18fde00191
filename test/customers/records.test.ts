import { beforeAll, describe, expect, it } from "vitest";
import { parseMobile, phoneRules, tryParseMobile } from "../../src/modules/customers/phone";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, json, problem, testAssets } from "../helpers/request";
import { ensureGeography, outboxOf } from "./records-fixtures";

// Stores of this file only, so that the outbox and the lists see no other file's writes.
const S1 = 4101;
const S2 = 4102;
const CUSTOMERS = "/order/v1/merchant/customers/";
let token: string;
let token2: string;
const as = (store: number, path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token: store === S1 ? token : token2, appId: store });
const create = async (store: number, body: Record<string, unknown>) => {
  const res = await as(store, CUSTOMERS, { method: "POST", body: { country_code: "966", ...body } });
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
};

beforeAll(async () => {
  await ensureTenant(S1);
  await ensureTenant(S2);
  await ensureGeography();
  token = await tokenFor(S1, ["can_read_order", "can_write_order"]);
  token2 = await tokenFor(S2, ["can_read_order", "can_write_order"]);
});

describe("Create Customer (MC6)", () => {
  it("creates a customer: 201 with the FOUND fields, the number normalised, and customer.created", async () => {
    const res = await as(S1, CUSTOMERS, { method: "POST", body: { country_code: "966", mobile_number: "0534501056" } });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      id: expect.any(Number),
      country_code: "966",
      username: "0534501056",
      mobile_number: "966534501056",
      email: null,
      name: null,
      lang: "ar",
      current_city_id: null,
      is_email_verified: false,
      is_mobile_verified: false,
      is_blocked: false,
      is_deleted: false,
      is_verified: false,
      national_id: null,
      secondary_mobile_number: null,
      date_of_birth: null,
      avatar: null,
      joined_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      custom_fields: null,
      created_at: expect.any(String),
      modified_at: expect.any(String),
    });
    expect(await json(await as(S1, `${CUSTOMERS}${body.id}/`))).toEqual(body);
    const events = await outboxOf(S1, "customer.created");
    expect(events.map((e) => e.payload.data)).toContainEqual({ id: body.id });
  });

  it("takes every optional field, and a number in any form", async () => {
    const body = await create(S1, {
      country_code: "+966",
      mobile_number: "+966 55 123 4567",
      name: "Sara Al-Qahtani",
      email: "sara@example.com",
      lang: "en",
      date_of_birth: "1994-03-21",
      national_id: "1098765432",
      secondary_mobile_number: "00966 56 123 4567",
      current_city_id: 1,
      avatar: "https://cdn.example.com/avatars/7.jpg",
      custom_fields: { tier: "gold" },
    });
    expect(body).toMatchObject({
      country_code: "966",
      username: "0551234567",
      mobile_number: "966551234567",
      name: "Sara Al-Qahtani",
      email: "sara@example.com",
      lang: "en",
      date_of_birth: "1994-03-21",
      national_id: "1098765432",
      secondary_mobile_number: "966561234567",
      current_city_id: 1,
      avatar: "https://cdn.example.com/avatars/7.jpg",
      custom_fields: { tier: "gold" },
    });
  });

  it.each([
    ["a landline number", { mobile_number: "0114567890" }, "mobile_number", /not a valid mobile number/],
    ["another country's number", { mobile_number: "+971501234567" }, "mobile_number", /\+966/],
    ["a number too short", { mobile_number: "053450105" }, "mobile_number", /not a valid mobile/],
    ["letters", { mobile_number: "call me" }, "mobile_number", /phone number/],
    ["a malformed country code", { country_code: "SA", mobile_number: "0534501057" }, "country_code", /calling code/],
    ["an unknown calling code", { country_code: "999", mobile_number: "0512345678" }, "country_code", /any country/],
    ["no mobile number", { mobile_number: undefined }, "mobile_number", /Required/],
    [
      "a bad secondary number",
      { mobile_number: "0501234567", secondary_mobile_number: "0114567890" },
      "secondary_mobile_number",
      /mobile/,
    ],
    ["a malformed email", { mobile_number: "0501234567", email: "not-an-email" }, "email", /email/],
    ["another language", { mobile_number: "0501234567", lang: "fr" }, "lang", /ar, en/],
    ["a future birth date", { mobile_number: "0501234567", date_of_birth: "2999-01-01" }, "date_of_birth", /future/],
    // Issue 27: impossible dates were stored.
    ["year 0000", { mobile_number: "0501234567", date_of_birth: "0000-01-01" }, "date_of_birth", /real calendar/],
    ["February 30", { mobile_number: "0501234567", date_of_birth: "1990-02-30" }, "date_of_birth", /real calendar/],
    ["month 13", { mobile_number: "0501234567", date_of_birth: "1990-13-01" }, "date_of_birth", /real calendar/],
    ["before 1900", { mobile_number: "0501234567", date_of_birth: "1899-12-31" }, "date_of_birth", /1900/],
    ["a name of direction marks", { mobile_number: "0501234567", name: "\u200f\u200e\u2067" }, "name", /visible/],
    ["a name holding a NUL", { mobile_number: "0501234567", name: "Sara\u0000" }, "name", /control/],
    ["a plain-http avatar", { mobile_number: "0501234567", avatar: "http://x.example.com/a.jpg" }, "avatar", /https/],
    ["an unknown city", { mobile_number: "0501234567", current_city_id: 987654 }, "current_city_id", /No city/],
    ["a verification flag", { mobile_number: "0501234567", is_mobile_verified: true }, "is_mobile_verified", /Unknown/],
  ])("400 for %s, naming the field", async (_name, fields, field, message) => {
    const res = await as(S1, CUSTOMERS, { method: "POST", body: { country_code: "966", ...fields } });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe("validation_error");
    expect(body.errors?.[field]?.join(" ")).toMatch(message);
  });

  it(
    "409 customer_mobile_taken for a live customer's number in any form; free in another " + "store and once deleted",
    async () => {
      const first = await create(S1, { mobile_number: "0591234567" });
      for (const form of ["0591234567", "+966591234567", "966 59 123 4567"]) {
        const res = await as(S1, CUSTOMERS, { method: "POST", body: { country_code: "966", mobile_number: form } });
        expect(res.status, form).toBe(409);
        const body = await problem(res);
        expect(body.code).toBe("customer_mobile_taken");
        expect(body.customer_id).toBe(first.id);
      }
      await create(S2, { mobile_number: "0591234567" });
      // At once: the check before the insert cannot see the others; the unique index decides.
      const racing = await Promise.all(
        [1, 2, 3, 4].map(() =>
          as(S2, CUSTOMERS, { method: "POST", body: { country_code: "966", mobile_number: "0501239999" } }),
        ),
      );
      expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
      for (const r of racing.filter((r) => r.status === 409)) {
        expect((await problem(r)).code).toBe("customer_mobile_taken");
      }
      await shardFor(APP_1)
        .prepare("UPDATE customers SET is_deleted = 1, deleted_at = 'x' WHERE id = ?")
        .bind(first.id)
        .run();
      const again = await create(S1, { mobile_number: "0591234567" });
      expect(again.id).not.toBe(first.id);
    },
  );
});

describe("parseMobile (the module's one phone parser)", () => {
  // The numbering plans come from the static assets, as in the deployed Worker.
  const ctx = { assets: testAssets() };

  it("normalises every form of a mobile number, and names the field it refuses", async () => {
    for (const form of ["0534501056", "534501056", "966534501056", "+966 53 450 1056", "00966-53-450-1056"]) {
      expect(await parseMobile(ctx, "966", form), form).toEqual({
        countryCode: "966",
        e164: "966534501056",
        national: "0534501056",
      });
    }
    expect(await parseMobile(ctx, "+971", "050 123 4567")).toEqual({
      countryCode: "971",
      e164: "971501234567",
      national: "0501234567",
    });
    const rules = await phoneRules(ctx);
    expect(tryParseMobile(rules, "966", "0114567890")).toEqual({
      field: "mobile_number",
      message: "Is not a valid mobile number for calling code +966.",
    });
    expect(tryParseMobile(rules, "999", "0534501056")).toEqual({
      field: "country_code",
      message: 'Is not the calling code of any country (Saudi Arabia\'s is "966").',
    });
    await expect(parseMobile(ctx, "966", "12", { mobile_number: "phone" })).rejects.toThrow(
      expect.objectContaining({ status: 400, extra: { errors: { phone: [expect.any(String)] } } }),
    );
  });

  it("refuses to parse without the static assets, rather than guessing", async () => {
    await expect(parseMobile({}, "966", "0534501056")).rejects.toThrow(/ASSETS binding/);
  });
});

describe("Update Customer (MC7)", () => {
  it("changes the fields given, blocks, and emits customer.updated", async () => {
    const c = await create(S1, { mobile_number: "0541234567", name: "Omar", email: "omar@example.com" });
    const res = await as(S1, `${CUSTOMERS}${c.id}/`, {
      method: "PATCH",
      body: { name: "Omar Haddad", is_blocked: true, custom_fields: { vip: true }, national_id: null },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      ...c,
      name: "Omar Haddad",
      is_blocked: true,
      custom_fields: { vip: true },
      modified_at: expect.any(String),
    });
    expect(await json(await as(S1, `${CUSTOMERS}${c.id}/`))).toEqual(body);
    expect((await outboxOf(S1, "customer.updated")).map((e) => e.payload.data)).toContainEqual({ id: c.id });
  });

  it("a new mobile number or email is no longer verified; the same number is no change", async () => {
    const c = await create(S1, { mobile_number: "0581234567", email: "v@example.com" });
    await shardFor(APP_1)
      .prepare("UPDATE customers SET is_mobile_verified = 1, is_email_verified = 1 WHERE id = ?")
      .bind(c.id)
      .run();
    const same = await json(
      await as(S1, `${CUSTOMERS}${c.id}/`, { method: "PATCH", body: { mobile_number: "+966581234567" } }),
    );
    expect(same).toMatchObject({ mobile_number: "966581234567", is_mobile_verified: true, is_verified: true });
    const changed = await json(
      await as(S1, `${CUSTOMERS}${c.id}/`, {
        method: "PATCH",
        body: { mobile_number: "0571234567", email: "new@example.com" },
      }),
    );
    expect(changed).toMatchObject({
      mobile_number: "966571234567",
      username: "0571234567",
      is_mobile_verified: false,
      is_verified: false,
      email: "new@example.com",
      is_email_verified: false,
    });
  });

  it("409 when the new number is another live customer's; 400s name the field", async () => {
    const a = await create(S1, { mobile_number: "0531234567" });
    const b = await create(S1, { mobile_number: "0555000001" });
    const taken = await as(S1, `${CUSTOMERS}${b.id}/`, { method: "PATCH", body: { mobile_number: "0531234567" } });
    expect(taken.status).toBe(409);
    expect(await problem(taken)).toMatchObject({ code: "customer_mobile_taken", customer_id: a.id });
    for (const [patch, field] of [
      [{}, "body"],
      [{ country_code: "971" }, "mobile_number"],
      [{ is_email_verified: true }, "is_email_verified"],
      [{ mobile_number: "0114567890" }, "mobile_number"],
      [{ current_city_id: 0 }, "current_city_id"],
      [{ is_blocked: "yes" }, "is_blocked"],
    ] as const) {
      const res = await as(S1, `${CUSTOMERS}${b.id}/`, { method: "PATCH", body: patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect((await problem(res)).errors, JSON.stringify(patch)).toHaveProperty([field]);
    }
  });
});

describe("List Customers (MC4) and Customer Details (MC5)", () => {
  let sara: { id: number };
  let layla: { id: number };
  beforeAll(async () => {
    sara = await create(S2, { mobile_number: "0534501056", name: "Sara Search", email: "sara.search@example.com" });
    layla = await create(S2, { mobile_number: "0501110003", name: "ليلى العتيبي", lang: "en", current_city_id: 2 });
    await json(await as(S2, `${CUSTOMERS}${layla.id}/`, { method: "PATCH", body: { is_blocked: true } }));
    const gone = await create(S2, { mobile_number: "0501110009", name: "Sara Deleted" });
    await shardFor(APP_1).prepare("UPDATE customers SET is_deleted = 1 WHERE id = ?").bind(gone.id).run();
  });
  const ids = async (query: string) => {
    const res = await as(S2, `${CUSTOMERS}${query}`);
    expect(res.status, `${query}: ${await res.clone().text()}`).toBe(200);
    return (await json(res)).results.map((r: { id: number }) => r.id);
  };

  it("searches name, email and the mobile number in any form", async () => {
    for (const term of ["Sara", "sara.search@", "0534501", "966534501", "+966 53 450", "00966534", "4501056"]) {
      expect(await ids(`?search=${encodeURIComponent(term)}`), term).toEqual([sara.id]);
    }
    expect(await ids(`?search=${encodeURIComponent("ليلى")}`)).toEqual([layla.id]);
  });

  it("filters on the customer's fields and orders by them; deleted customers are left out", async () => {
    expect(await ids("?is_blocked=true")).toEqual([layla.id]);
    expect(await ids("?lang=en&current_city_id=2")).toEqual([layla.id]);
    expect(await ids("?mobile_number=966534501056")).toEqual([sara.id]);
    expect(await ids("?is_verified=false&name__isnull=false&order_by=name")).toEqual(
      expect.arrayContaining([sara.id, layla.id]),
    );
    const all = await json(await as(S2, `${CUSTOMERS}?page_size=100`));
    expect(all.results.every((r: { is_deleted: boolean }) => !r.is_deleted)).toBe(true);
    expect(all.results.map((r: { name: string }) => r.name)).not.toContain("Sara Deleted");
    expect(all).toMatchObject({ count: all.results.length, next: null, previous: null });
  });

  it("400 naming unknown filters and order fields", async () => {
    for (const [query, field] of [
      ["?is_deleted=true", "is_deleted"],
      ["?order_by=password", "order_by"],
      ["?lang=fr", "lang"],
    ]) {
      const res = await as(S2, `${CUSTOMERS}${query}`);
      expect(res.status, query).toBe(400);
      expect((await problem(res)).errors).toHaveProperty([field!]);
    }
  });

  it("404 customer_not_found for another store's customer, a deleted one and an unknown id", async () => {
    const mine = await create(S1, { mobile_number: "0561234567" });
    expect(await ids(`?id=${mine.id}`)).toEqual([]);
    for (const path of [`${CUSTOMERS}${mine.id}/`, `${CUSTOMERS}987654321/`]) {
      for (const [method, body] of [["GET"], ["PATCH", { name: "Taken" }]] as const) {
        const res = await as(S2, path, { method, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect((await problem(res)).code).toBe("customer_not_found");
      }
    }
    const deleted = await as(S1, `${CUSTOMERS}${mine.id}/`);
    expect(deleted.status).toBe(200);
    await shardFor(APP_1).prepare("UPDATE customers SET is_deleted = 1 WHERE id = ?").bind(mine.id).run();
    expect((await as(S1, `${CUSTOMERS}${mine.id}/`)).status).toBe(404);
    expect((await json(await as(S1, `${CUSTOMERS}${mine.id}/`, { method: "PATCH", body: { name: "x" } }))).code).toBe(
      "customer_not_found",
    );
  });
});

sharedAuthCases({ method: "GET", path: CUSTOMERS, permission: "can_read_order" });
sharedAuthCases({ method: "GET", path: `${CUSTOMERS}1/`, permission: "can_read_order" });
sharedAuthCases({
  method: "POST",
  path: CUSTOMERS,
  permission: "can_write_order",
  body: { country_code: "966", mobile_number: "0534501056" },
});
sharedAuthCases({ method: "PATCH", path: `${CUSTOMERS}1/`, permission: "can_write_order", body: { name: "x" } });

describe("Blocking a customer", () => {
  it("revokes every refresh token the customer holds, and only theirs", async () => {
    const blocked = await create(S1, { mobile_number: "0534500771" });
    const other = await create(S1, { mobile_number: "0534500772" });
    const insert = (customerId: number, hash: string) =>
      shardFor(S1)
        .prepare(
          "INSERT INTO refresh_tokens (app_id, customer_id, family_id, token_hash, expires_at) VALUES (?, ?, 'fam', ?, '2099-01-01T00:00:00.000Z')",
        )
        .bind(S1, customerId, hash)
        .run();
    await insert(blocked.id, `block-${blocked.id}`);
    await insert(other.id, `keep-${other.id}`);
    const res = await as(S1, `${CUSTOMERS}${blocked.id}/`, { method: "PATCH", body: { is_blocked: true } });
    expect(res.status).toBe(200);
    const rows = await shardFor(S1)
      .prepare("SELECT customer_id, revoked_at FROM refresh_tokens WHERE app_id = ? AND customer_id IN (?, ?)")
      .bind(S1, blocked.id, other.id)
      .all<{ customer_id: number; revoked_at: string | null }>();
    expect(rows.results.find((r) => r.customer_id === blocked.id)?.revoked_at).toEqual(expect.any(String));
    expect(rows.results.find((r) => r.customer_id === other.id)?.revoked_at).toBeNull();
  });
});
