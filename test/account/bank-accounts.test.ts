import { describe, expect, it } from "vitest";
import { defaultBankAccount } from "../../src/modules/account";
import { ibanProblem, maskIban, normaliseIban } from "../../src/modules/account/bank-accounts/iban";
import { BankAccountListSchema, BankAccountSchema } from "../../src/modules/account/bank-accounts/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, db, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";

const ACCOUNTS = "/api/v1/dashboard/admin/bank-accounts/";
const PERMS = ["can_retrieve_app_config", "can_update_app_config"] as const;
// Valid IBANs (mod 97 = 1): Saudi (24 characters), Emirati (23), British (22).
const SA_1 = "SA4420000001234567891234";
const SA_2 = "SA0380000000608010167519";
const SA_3 = "SA0910000000000000000001";
const AE_1 = "AE070331234567890123456";

let nextStore = 400;
async function freshStore() {
  const appId = ++nextStore;
  await ensureTenant(appId);
  const token = await tokenFor(appId, [...PERMS]);
  const send = (path: string, method = "GET", body?: unknown) => call(path, { method, token, appId, body });
  const create = async (body: Record<string, unknown>) => {
    const res = await send(ACCOUNTS, "POST", {
      bank_name_en: "Al Rajhi Bank",
      bank_name_ar: "مصرف الراجحي",
      account_holder: "Demo Trading Co.",
      ...body,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return BankAccountSchema.strict().parse(await json(res));
  };
  return { appId, token, send, create };
}

async function eventsOf(appId: number) {
  const rows = await shardFor(appId)
    .prepare(
      "SELECT type, json_extract(payload, '$.data.id') AS id FROM outbox_events " +
        "WHERE app_id = ? AND type LIKE 'bank_account.%' ORDER BY rowid",
    )
    .bind(appId)
    .all<{ type: string; id: number }>();
  return rows.results;
}

const stored = (id: number) =>
  shardFor(APP_1)
    .prepare("SELECT iban, is_default, status, is_deleted FROM bank_accounts WHERE id = ?")
    .bind(id)
    .first();

describe("IBAN rules", () => {
  it("checks the country's length and the mod-97 check digits", () => {
    for (const ok of [SA_1, SA_2, SA_3, AE_1, "GB82WEST12345698765432"]) expect(ibanProblem(ok), ok).toBeNull();
    expect(ibanProblem("SA4420000001234567891235")).toMatch(/check digits/);
    expect(ibanProblem("SA442000000123456789123")).toMatch(/24 characters/);
    expect(ibanProblem("ZZ4420000001234567891234")).toMatch(/not a country/);
    expect(ibanProblem("4420000001234567891234")).toMatch(/country code/);
  });

  it("normalises and masks", () => {
    expect(normaliseIban(" sa44 2000 0001 2345 6789 1234 ")).toBe(SA_1);
    expect(maskIban(SA_1)).toBe("SA44 **** **** **** **** 1234");
    expect(maskIban(AE_1)).toBe("AE07 **** **** **** ***3 456");
  });
});

describe("Bank accounts (MA4 and the CRUD beyond it)", () => {
  it("creates an account: the IBAN stored normalised, answered masked; the first becomes the default", async () => {
    const s = await freshStore();
    const a = await s.create({ iban: "sa44 2000 0001 2345 6789 1234" });
    expect(a).toEqual({
      id: expect.any(Number),
      bank_name_en: "Al Rajhi Bank",
      bank_name_ar: "مصرف الراجحي",
      iban: "SA44 **** **** **** **** 1234",
      account_holder: "Demo Trading Co.",
      is_default: true,
      status: "active",
      created_at: expect.any(String),
      modified_at: expect.any(String),
    });
    expect(await stored(a.id)).toEqual({ iban: SA_1, is_default: 1, status: "active", is_deleted: 0 });
    const b = await s.create({ iban: SA_2 });
    expect(b.is_default).toBe(false);
    expect(await eventsOf(s.appId)).toEqual([
      { type: "bank_account.created", id: a.id },
      { type: "bank_account.created", id: b.id },
    ]);
    expect(await defaultBankAccount(db(), s.appId)).toEqual({
      id: a.id,
      bankNameEn: "Al Rajhi Bank",
      bankNameAr: "مصرف الراجحي",
      iban: SA_1,
      accountHolder: "Demo Trading Co.",
    });
  });

  it("one default a store: a new default takes it from the old one, with an event for each", async () => {
    const s = await freshStore();
    const a = await s.create({ iban: SA_1 });
    const b = await s.create({ iban: SA_2, is_default: true });
    expect(b.is_default).toBe(true);
    expect((await json(await s.send(`${ACCOUNTS}${a.id}/`))).is_default).toBe(false);
    const list = BankAccountListSchema.parse(await json(await s.send(ACCOUNTS)));
    expect(list.results.map((r) => [r.id, r.is_default])).toEqual([
      [b.id, true],
      [a.id, false],
    ]);
    expect(await eventsOf(s.appId)).toEqual([
      { type: "bank_account.created", id: a.id },
      { type: "bank_account.created", id: b.id },
      { type: "bank_account.updated", id: a.id },
    ]);
    // PATCH gives it back to the first.
    const res = await s.send(`${ACCOUNTS}${a.id}/`, "PATCH", { is_default: true });
    expect(res.status).toBe(200);
    expect((await json(res)).is_default).toBe(true);
    expect((await stored(b.id))?.is_default).toBe(0);
    expect((await eventsOf(s.appId)).slice(3)).toEqual([
      { type: "bank_account.updated", id: a.id },
      { type: "bank_account.updated", id: b.id },
    ]);
    const defaults = await shardFor(APP_1)
      .prepare("SELECT count(*) AS n FROM bank_accounts WHERE app_id = ? AND is_default = 1 AND is_deleted = 0")
      .bind(s.appId)
      .first<{ n: number }>();
    expect(defaults?.n).toBe(1);
  });

  it("concurrent requests for the default leave exactly one", async () => {
    const s = await freshStore();
    const created = await Promise.all([SA_1, SA_2, SA_3].map((iban) => s.create({ iban, is_default: true })));
    const rows = await shardFor(APP_1)
      .prepare("SELECT id FROM bank_accounts WHERE app_id = ? AND is_default = 1")
      .bind(s.appId)
      .all();
    expect(rows.results).toHaveLength(1);
    expect(created.map((c) => c.id)).toContain(rows.results[0]!.id);
  });

  it("an inactive account is never the default", async () => {
    const s = await freshStore();
    const inactive = await s.create({ iban: SA_1, status: "inactive" });
    expect(inactive.is_default).toBe(false);
    const a = await s.create({ iban: SA_2 });
    expect(a.is_default).toBe(true);
    const refused = await s.send(`${ACCOUNTS}${inactive.id}/`, "PATCH", { is_default: true });
    expect(refused.status).toBe(400);
    expect((await problem(refused)).errors).toHaveProperty("is_default");
    const off = await s.send(`${ACCOUNTS}${a.id}/`, "PATCH", { status: "inactive" });
    expect(await json(off)).toMatchObject({ status: "inactive", is_default: false });
    expect(await defaultBankAccount(db(), s.appId)).toBeNull();
    const both = await s.send(ACCOUNTS, "POST", {
      bank_name_en: "B",
      bank_name_ar: "ب",
      account_holder: "H",
      iban: SA_3,
      is_default: true,
      status: "inactive",
    });
    expect(both.status).toBe(400);
    expect((await problem(both)).errors).toHaveProperty("is_default");
  });

  it("refuses an IBAN the store already has (409 naming the account), and allows it again once deleted", async () => {
    const s = await freshStore();
    const a = await s.create({ iban: SA_1 });
    const b = await s.create({ iban: SA_2 });
    const body = {
      bank_name_en: "X",
      bank_name_ar: "س",
      account_holder: "Y",
      iban: `${SA_1.slice(0, 4)} ${SA_1.slice(4)}`,
    };
    const dup = await s.send(ACCOUNTS, "POST", body);
    expect(dup.status).toBe(409);
    expect(await problem(dup)).toMatchObject({ code: "iban_already_registered", bank_account_id: a.id });
    const patch = await s.send(`${ACCOUNTS}${b.id}/`, "PATCH", { iban: SA_1 });
    expect(patch.status).toBe(409);
    expect((await stored(b.id))?.iban).toBe(SA_2);
    // Its own IBAN again is no conflict.
    expect((await s.send(`${ACCOUNTS}${a.id}/`, "PATCH", { iban: SA_1 })).status).toBe(200);
    expect((await s.send(`${ACCOUNTS}${a.id}/`, "DELETE")).status).toBe(204);
    expect((await s.send(ACCOUNTS, "POST", body)).status).toBe(201);
    // The refused writes emitted nothing.
    expect((await eventsOf(s.appId)).map((e) => e.type)).toEqual([
      "bank_account.created",
      "bank_account.created",
      "bank_account.updated",
      "bank_account.deleted",
      "bank_account.created",
    ]);
  });

  it.each([
    ["a wrong check digit", { iban: "SA4420000001234567891235" }, "iban", /check digits/],
    ["a Saudi IBAN of 23 characters", { iban: "SA442000000123456789123" }, "iban", /24 characters/],
    ["an unknown country", { iban: "XX4420000001234567891234" }, "iban", /not a country/],
    ["punctuation", { iban: "SA44-2000-0001-2345-6789-1234" }, "iban", /IBAN/],
    ["no bank name", { iban: SA_1, bank_name_en: "" }, "bank_name_en", /empty/],
    ["an unknown status", { iban: SA_1, status: "closed" }, "status", /active, inactive/],
    ["an unknown field", { iban: SA_1, swift: "RJHISARI" }, "swift", /Unknown field/],
  ])("400 for %s, naming the field", async (_what, body, field, message) => {
    const s = await freshStore();
    const res = await s.send(ACCOUNTS, "POST", {
      bank_name_en: "Bank",
      bank_name_ar: "بنك",
      account_holder: "Holder",
      ...body,
    });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors?.[field]?.join(" ")).toMatch(message);
    expect(await eventsOf(s.appId)).toEqual([]);
  });

  it("updates the fields given, and deletes (a soft delete; 404 afterwards)", async () => {
    const s = await freshStore();
    const a = await s.create({ iban: SA_1 });
    const res = await s.send(`${ACCOUNTS}${a.id}/`, "PATCH", { account_holder: "New Holder", iban: AE_1 });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      id: a.id,
      account_holder: "New Holder",
      bank_name_en: "Al Rajhi Bank",
      iban: "AE07 **** **** **** ***3 456",
      is_default: true,
    });
    expect((await s.send(`${ACCOUNTS}${a.id}/`, "PATCH", {})).status).toBe(400);
    expect((await s.send(`${ACCOUNTS}${a.id}/`, "DELETE")).status).toBe(204);
    expect((await stored(a.id))?.is_deleted).toBe(1);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { account_holder: "Z" }],
      ["DELETE", undefined],
    ] as const) {
      const gone = await s.send(`${ACCOUNTS}${a.id}/`, method, body);
      expect(gone.status, method).toBe(404);
      expect((await problem(gone)).code).toBe("bank_account_not_found");
    }
    expect((await json(await s.send(ACCOUNTS))).count).toBe(0);
  });

  it("pages, filters and searches the list", async () => {
    const s = await freshStore();
    await s.create({ iban: SA_1 });
    await s.create({ iban: SA_2, bank_name_en: "Saudi National Bank", status: "inactive" });
    await s.create({ iban: SA_3 });
    const page = await json(await s.send(`${ACCOUNTS}?page_size=2`));
    expect(page.count).toBe(3);
    expect(page.results).toHaveLength(2);
    expect(page.next).toContain("page=2");
    expect((await json(await s.send(`${ACCOUNTS}?status=inactive`))).results.map((r: any) => r.bank_name_en)).toEqual([
      "Saudi National Bank",
    ]);
    expect((await json(await s.send(`${ACCOUNTS}?search=national`))).count).toBe(1);
    expect((await s.send(`${ACCOUNTS}?iban=${SA_1}`)).status).toBe(400);
  });

  it("a store never sees another's accounts", async () => {
    // Stores of this test's own: the suite's files share one database, and others bank with SA_1 too.
    const one = await freshStore();
    const { id } = await one.create({ bank_name_en: "Mine", bank_name_ar: "لي", account_holder: "One", iban: SA_1 });
    const as2 = (await freshStore()).send;
    expect((await json(await as2(`${ACCOUNTS}?id=${id}`))).count).toBe(0);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { is_default: true }],
      ["DELETE", undefined],
    ] as const) {
      const res = await as2(`${ACCOUNTS}${id}/`, method, body);
      expect(res.status, method).toBe(404);
    }
    // The same IBAN is free in another store.
    const theirs = await as2(ACCOUNTS, "POST", {
      bank_name_en: "B",
      bank_name_ar: "ب",
      account_holder: "Two",
      iban: SA_1,
    });
    expect(theirs.status).toBe(201);
    expect(await stored(id)).toMatchObject({ iban: SA_1, is_deleted: 0 });
  });

  sharedAuthCases({ method: "GET", path: ACCOUNTS, permission: "can_retrieve_app_config" });
  sharedAuthCases({
    method: "POST",
    path: ACCOUNTS,
    permission: "can_update_app_config",
    body: { bank_name_en: "B", bank_name_ar: "ب", account_holder: "H", iban: SA_2 },
  });
});
