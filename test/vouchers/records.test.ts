import { beforeAll, describe, expect, it } from "vitest";
import { VoucherListSchema, VoucherSchema } from "../../src/modules/vouchers/records/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, APP_2, countRows, createFullItem, createPlainItem, shardFor, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, json, problem } from "../helpers/request";
import { createVoucher, newCode, VOUCHERS } from "./helpers";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

let token: string;
let reader: string;
const as1 = (path: string, opts: { method?: string; body?: unknown; as?: string } = {}) =>
  call(path, { method: opts.method, body: opts.body, token: opts.as ?? token, appId: APP_1 });
const eventsFor = (type: string, id: number) =>
  countRows("outbox_events", `type = '${type}' AND json_extract(payload, '$.data.id') = ${id}`);

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_order", "can_write_order"]);
  reader = await tokenFor(APP_1, ["can_read_order"]);
});

describe("Create Voucher", () => {
  it("201 with every field, stored in minor units and basis points; voucher.created", async () => {
    const full = await createFullItem(APP_1);
    const code = newCode("save-");
    const body = {
      code: code.toLowerCase(),
      title_en: "Summer",
      title_ar: "صيف",
      kind: "percentage",
      value: 12.5,
      discount_on: "items",
      min_order_amount: 100,
      max_discount_amount: 30.25,
      starts_at: "2026-01-01T03:00:00+03:00",
      ends_at: "2099-01-01T00:00:00Z",
      usage_limit: 100,
      per_customer_limit: 2,
      item_ids: [full.item.id],
      category_ids: [full.category.id],
      is_featured: true,
      custom_fields: { campaign: "summer" },
      ordering: 4,
    };
    const res = await as1(VOUCHERS, { method: "POST", body });
    expect(res.status).toBe(201);
    const v = VoucherSchema.parse(await json(res));
    expect(v).toMatchObject({
      code: code.toUpperCase(),
      title_en: "Summer",
      kind: "percentage",
      value: 12.5,
      discount_on: "items",
      min_order_amount: 100,
      max_discount_amount: 30.25,
      starts_at: "2026-01-01T00:00:00.000Z",
      ends_at: "2099-01-01T00:00:00.000Z",
      usage_limit: 100,
      per_customer_limit: 2,
      usage_count: 0,
      item_ids: [full.item.id],
      category_ids: [full.category.id],
      is_featured: true,
      status: "active",
      state: "active",
      custom_fields: { campaign: "summer" },
      app_id: APP_1,
      is_deleted: false,
      deleted_at: null,
      ordering: 4,
    });
    const stored = await shardFor(APP_1)
      .prepare("SELECT code, value, min_order_minor, max_discount_minor FROM vouchers WHERE id = ?")
      .bind(v.id)
      .first();
    expect(stored).toEqual({ code: code.toUpperCase(), value: 1250, min_order_minor: 10000, max_discount_minor: 3025 });
    expect(await eventsFor("voucher.created", v.id)).toBe(1);
    expect(await json(await as1(`${VOUCHERS}${v.id}/`, { as: reader }))).toEqual(v);
  });

  it("defaults: total, no minimum, no cap, no window, no limits, every item, active, not featured", async () => {
    const v = await createVoucher(token, { kind: "fixed", value: 15.5 });
    expect(v).toMatchObject({
      kind: "fixed",
      value: 15.5,
      discount_on: "total",
      min_order_amount: 0,
      max_discount_amount: null,
      starts_at: null,
      ends_at: null,
      usage_limit: null,
      per_customer_limit: null,
      item_ids: [],
      category_ids: [],
      is_featured: false,
      status: "active",
      state: "active",
      custom_fields: null,
    });
  });

  it.each([
    ["a code with a space", { code: "SAVE 10" }, "code"],
    ["a code with a non-ASCII letter", { code: "ÉTÉ10" }, "code"],
    ["a code of 2 characters", { code: "AB" }, "code"],
    ["a code of 33 characters", { code: "A".repeat(33) }, "code"],
    ["a fixed value with 3 decimals", { kind: "fixed", value: 10.125 }, "value"],
    ["a percentage over 100", { kind: "percentage", value: 100.5 }, "value"],
    ["a percentage with 3 decimals", { kind: "percentage", value: 12.345 }, "value"],
    ["a zero value", { value: 0 }, "value"],
    ["ends before it starts", { starts_at: "2026-05-01T00:00:00Z", ends_at: "2026-04-30T23:59:59Z" }, "ends_at"],
    ["ends when it starts", { starts_at: "2026-05-01T00:00:00Z", ends_at: "2026-05-01T03:00:00+03:00" }, "ends_at"],
    ["a date without time", { ends_at: "2026-05-01" }, "ends_at"],
    // Issue 27: February 30 was stored as March 2; hour 25 and year 0000 are no times either.
    ["February 30", { starts_at: "2026-02-30T00:00:00Z" }, "starts_at"],
    ["hour 25", { starts_at: "2026-03-01T25:00:00Z" }, "starts_at"],
    ["month 13", { ends_at: "2026-13-01T00:00:00+03:00" }, "ends_at"],
    ["year 0000", { starts_at: "0000-01-01T00:00:00Z" }, "starts_at"],
    ["a title of direction marks alone", { title_en: "\u200f\u200e" }, "title_en"],
    ["a title holding a NUL", { title_ar: "س\u0000" }, "title_ar"],
    ["a zero usage limit", { usage_limit: 0 }, "usage_limit"],
    ["a fractional per-customer limit", { per_customer_limit: 1.5 }, "per_customer_limit"],
    ["a minimum order with 3 decimals", { min_order_amount: 1.001 }, "min_order_amount"],
    ["an unknown kind", { kind: "bogo" }, "kind"],
    ["usage_count (read-only)", { usage_count: 3 }, "usage_count"],
    ["repeated item ids", { item_ids: [1, 1] }, "item_ids"],
  ])("400 for %s", async (_n, extra, field) => {
    const res = await as1(VOUCHERS, {
      method: "POST",
      body: { code: newCode(), title_en: "x", title_ar: "س", kind: "percentage", value: 10, ...extra },
    });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });

  it("400 naming item and category ids that are not the store's", async () => {
    const mine = await createPlainItem(APP_1);
    const theirs = await rowCallerLacks("items", APP_1, () => createPlainItem(APP_2));
    const res = await as1(VOUCHERS, {
      method: "POST",
      body: {
        code: newCode(),
        title_en: "x",
        title_ar: "س",
        kind: "fixed",
        value: 5,
        item_ids: [mine.id, theirs.id],
        category_ids: [987654321],
      },
    });
    expect(res.status).toBe(400);
    const p = await problem(res);
    expect(p.errors).toEqual({
      item_ids: [`Items not in the store: ${theirs.id}.`],
      category_ids: ["Item categories not in the store: 987654321."],
    });
  });

  it("409 voucher_code_taken for a live code of the store (any case); another store or a deleted one is fine", async () => {
    const code = newCode("dup");
    const first = await createVoucher(token, { code });
    const again = await as1(VOUCHERS, {
      method: "POST",
      body: { code: code.toLowerCase(), title_en: "x", title_ar: "س", kind: "fixed", value: 1 },
    });
    expect(again.status).toBe(409);
    const p = await problem(again);
    expect(p.code).toBe("voucher_code_taken");
    expect(p.voucher_id).toBe(first.id);

    await createVoucher(await tokenFor(APP_2, ["can_write_order"]), { code }, APP_2);
    expect((await as1(`${VOUCHERS}${first.id}/`, { method: "DELETE" })).status).toBe(204);
    const reused = await createVoucher(token, { code });
    expect(reused.code).toBe(code);
  });
});

describe("List, update and delete vouchers", () => {
  it("lists with filters and search; each with its computed state", async () => {
    const tag = newCode("LST");
    const a = await createVoucher(token, { code: `${tag}A`, is_featured: true, title_en: "Alpha deal" });
    const b = await createVoucher(token, { code: `${tag}B`, status: "disabled" });
    const c = await createVoucher(token, { code: `${tag}C`, ends_at: "2020-01-01T00:00:00Z" });
    const d = await createVoucher(token, { code: `${tag}D`, starts_at: "2099-01-01T00:00:00Z" });
    const res = await as1(`${VOUCHERS}?search=${tag}&order_by=code`, { as: reader });
    expect(res.status).toBe(200);
    const page = VoucherListSchema.parse(await json(res));
    expect(page.count).toBe(4);
    expect(page.results.map((v) => [v.id, v.state])).toEqual([
      [a.id, "active"],
      [b.id, "disabled"],
      [c.id, "expired"],
      [d.id, "scheduled"],
    ]);
    const featured = await json(await as1(`${VOUCHERS}?search=${tag}&is_featured=true`));
    expect(featured.results.map((v: { id: number }) => v.id)).toEqual([a.id]);
    const disabled = await json(await as1(`${VOUCHERS}?search=${tag}&status=disabled`));
    expect(disabled.results.map((v: { id: number }) => v.id)).toEqual([b.id]);
    const byCode = await json(await as1(`${VOUCHERS}?code=${tag}C`));
    expect(byCode.results.map((v: { id: number }) => v.id)).toEqual([c.id]);
    const byTitle = await json(await as1(`${VOUCHERS}?search=alpha%20deal`));
    expect(byTitle.results.map((v: { id: number }) => v.id)).toContain(a.id);
    const paged = await json(await as1(`${VOUCHERS}?search=${tag}&page_size=3&order_by=code`));
    expect(paged.results).toHaveLength(3);
    expect(paged.next).toContain("page=2");
    expect((await as1(`${VOUCHERS}?status=paused`)).status).toBe(400);
  });

  it("the state is exhausted when the uses reached the limit", async () => {
    const v = await createVoucher(token, { usage_limit: 2 });
    await shardFor(APP_1).prepare("UPDATE vouchers SET usage_count = 2 WHERE id = ?").bind(v.id).run();
    expect((await json(await as1(`${VOUCHERS}${v.id}/`))).state).toBe("exhausted");
  });

  it("PATCH changes only the given fields; voucher.updated", async () => {
    const v = await createVoucher(token, { kind: "fixed", value: 20, min_order_amount: 50 });
    const res = await as1(`${VOUCHERS}${v.id}/`, {
      method: "PATCH",
      body: { title_en: "Twenty off", value: 25.75, status: "disabled", max_discount_amount: null },
    });
    expect(res.status).toBe(200);
    const after = await json(res);
    expect(after).toMatchObject({
      title_en: "Twenty off",
      title_ar: v.title_ar,
      kind: "fixed",
      value: 25.75,
      min_order_amount: 50,
      status: "disabled",
      state: "disabled",
      code: v.code,
    });
    expect(after.modified_at >= v.modified_at).toBe(true);
    expect(await eventsFor("voucher.updated", v.id)).toBe(1);
  });

  it("PATCH: value is checked against the stored kind; kind needs value; the window against the stored bound", async () => {
    const v = await createVoucher(token, { kind: "percentage", value: 10, starts_at: "2026-06-01T00:00:00Z" });
    const tooMuch = await as1(`${VOUCHERS}${v.id}/`, { method: "PATCH", body: { value: 150 } });
    expect(tooMuch.status).toBe(400);
    expect((await problem(tooMuch)).errors).toHaveProperty(["value"]);
    const kindAlone = await as1(`${VOUCHERS}${v.id}/`, { method: "PATCH", body: { kind: "fixed" } });
    expect(kindAlone.status).toBe(400);
    expect((await problem(kindAlone)).errors).toHaveProperty(["value"]);
    const early = await as1(`${VOUCHERS}${v.id}/`, { method: "PATCH", body: { ends_at: "2026-05-01T00:00:00Z" } });
    expect(early.status).toBe(400);
    expect((await problem(early)).errors).toHaveProperty(["ends_at"]);
    const toFixed = await as1(`${VOUCHERS}${v.id}/`, { method: "PATCH", body: { kind: "fixed", value: 150 } });
    expect(toFixed.status).toBe(200);
    expect(await json(toFixed)).toMatchObject({ kind: "fixed", value: 150 });
    for (const body of [{}, { usage_count: 1 }, { code: "NO SPACES" }]) {
      expect((await as1(`${VOUCHERS}${v.id}/`, { method: "PATCH", body })).status).toBe(400);
    }
  });

  it("PATCH to another live voucher's code is 409; to its own code is fine", async () => {
    const a = await createVoucher(token);
    const b = await createVoucher(token);
    const res = await as1(`${VOUCHERS}${b.id}/`, { method: "PATCH", body: { code: a.code } });
    expect(res.status).toBe(409);
    expect((await problem(res)).code).toBe("voucher_code_taken");
    expect((await as1(`${VOUCHERS}${b.id}/`, { method: "PATCH", body: { code: b.code } })).status).toBe(200);
  });

  it("DELETE is a soft delete: 204, then 404; voucher.deleted; the row stays", async () => {
    const v = await createVoucher(token);
    expect((await as1(`${VOUCHERS}${v.id}/`, { method: "DELETE" })).status).toBe(204);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { title_en: "x" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await as1(`${VOUCHERS}${v.id}/`, { method, body });
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("voucher_not_found");
    }
    expect(await countRows("vouchers", `id = ${v.id} AND is_deleted = 1`)).toBe(1);
    expect(await eventsFor("voucher.deleted", v.id)).toBe(1);
  });

  it("another store's voucher is a 404; a reader cannot write (403)", async () => {
    const theirToken = await tokenFor(APP_2, ["can_read_order", "can_write_order"]);
    const theirs = await rowCallerLacks(
      "vouchers",
      APP_1,
      async () => (await createVoucher(theirToken, {}, APP_2)) as { id: number },
    );
    const res = await as1(`${VOUCHERS}${theirs.id}/`);
    expect(res.status).toBe(404);
    // Theirs, for them.
    expect((await call(`${VOUCHERS}${theirs.id}/`, { token: theirToken, appId: APP_2 })).status).toBe(200);
    const denied = await as1(VOUCHERS, {
      method: "POST",
      as: reader,
      body: { code: newCode(), title_en: "x", title_ar: "س", kind: "fixed", value: 1 },
    });
    expect(denied.status).toBe(403);
    expect((await problem(denied)).code).toBe("missing_permission");
  });
});

sharedAuthCases({ method: "GET", path: VOUCHERS, permission: "can_read_order" });
sharedAuthCases({
  method: "POST",
  path: VOUCHERS,
  permission: "can_write_order",
  body: { code: "AUTHCASE", title_en: "x", title_ar: "س", kind: "fixed", value: 1 },
});
