import { describe, expect, it } from "vitest";
import { parseListQuery } from "../../src/core/listing";
import { CUSTOMER_LIST } from "../../src/modules/customers/records/service";
import { ITEM_LIST } from "../../src/modules/items/catalogue-items/service";
import { ORDER_LIST } from "../../src/modules/orders/orders/service";
import { APP_1, APP_3, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, json, problem } from "../helpers/request";
import { storeFor, VOUCHERS, voucherOf } from "../orders/helpers";

/** The incremental-sync parameters of a list (docs/interface-decisions.md, "Lists: incremental sync"). */

const parse = (query: string, spec = ITEM_LIST) => parseListQuery(new URLSearchParams(query), spec);

/** The field errors of a refused query. */
function refused(query: string, spec = ITEM_LIST): Record<string, string[]> {
  try {
    parse(query, spec);
  } catch (e) {
    return (e as { extra: { errors: Record<string, string[]> } }).extra.errors;
  }
  throw new Error(`accepted: ${query}`);
}

describe("parseListQuery: modified_at and include_deleted on a list that syncs", () => {
  it("takes modified_at's range filters and orders on it either way, the id last", () => {
    for (const op of ["__gte", "__gt", "__lte", "__lt", ""]) {
      const q = parse(`modified_at${op}=2026-01-02T03:04:05.678Z`);
      expect(q.given).toEqual({ [`modified_at${op}`]: "2026-01-02T03:04:05.678Z" });
    }
    expect(parse("order_by=modified_at").order).toEqual([
      { field: "modified_at", desc: false },
      { field: "id", desc: true },
    ]);
    expect(parse("order_by=-modified_at,id").order).toEqual([
      { field: "modified_at", desc: true },
      { field: "id", desc: false },
    ]);
  });

  it("adds modified_at to a list whose spec did not name it (orders)", () => {
    expect(ORDER_LIST.fields.modified_at).toBeUndefined();
    expect(parse("modified_at__gte=2026-01-02&order_by=modified_at", ORDER_LIST).given).toEqual({
      modified_at__gte: "2026-01-02",
    });
  });

  it("reads include_deleted as true or false; hidden rows stay hidden without it", () => {
    expect(parse("include_deleted=true").includeDeleted).toBe(true);
    expect(parse("include_deleted=false").includeDeleted).toBe(false);
    expect(parse("").includeDeleted).toBe(false);
    expect(parse("include_deleted=true").given).toEqual({ include_deleted: true });
  });

  it("refuses bad values, naming the parameter", () => {
    expect(refused("include_deleted=yes")).toEqual({ include_deleted: ["Must be true or false."] });
    expect(refused("include_deleted=true&include_deleted=false")).toEqual({
      include_deleted: ["Give this parameter once."],
    });
    expect(Object.keys(refused("modified_at__gte=yesterday"))).toEqual(["modified_at__gte"]);
    expect(Object.keys(refused("modified_at__lt=2026-13-01"))).toEqual(["modified_at__lt"]);
    expect(refused("order_by=modified")).toEqual({
      order_by: [expect.stringContaining("Unknown field `modified`. Allowed: ")],
    });
  });

  it("refuses include_deleted where the rows are never deleted, as any unknown parameter", () => {
    const errors = refused("include_deleted=true", ORDER_LIST);
    expect(errors.include_deleted).toEqual([expect.stringMatching(/^Unknown query parameter\. Allowed: /)]);
    expect(errors.include_deleted![0]).toContain("modified_at__gte");
    expect(errors.include_deleted![0]).not.toContain("include_deleted");
  });

  it("leaves a list that does not sync as it was", () => {
    const plain = { ...CUSTOMER_LIST, sync: undefined };
    const { modified_at: _m, ...withoutModified } = plain.fields;
    const errors = refused("include_deleted=true&modified_at__gte=2026-01-01", { ...plain, fields: withoutModified });
    expect(Object.keys(errors).sort()).toEqual(["include_deleted", "modified_at__gte"]);
  });
});

describe("the sync parameters over HTTP", () => {
  it("answers a bad value with a 400 problem naming the parameter", async () => {
    const token = await tokenFor(APP_1);
    const cases: [string, string][] = [
      ["/order/v1/merchant/items/?include_deleted=1x", "include_deleted"],
      ["/order/v1/merchant/customers/?modified_at__gte=soon", "modified_at__gte"],
      ["/order/v1/merchant/orders/?include_deleted=true", "include_deleted"],
      ["/order/v1/merchant/orders/?order_by=modified", "order_by"],
    ];
    for (const [path, param] of cases) {
      const res = await call(path, { token, appId: APP_1 });
      expect(res.status, path).toBe(400);
      const body = await problem(res);
      expect(Object.keys(body.errors ?? {}), path).toEqual([param]);
    }
  });

  it("accepts them where the list takes them", async () => {
    const token = await tokenFor(APP_1);
    for (const path of [
      "/order/v1/merchant/items/?include_deleted=true&modified_at__gte=2026-01-01&order_by=modified_at",
      "/order/v1/merchant/customers/?include_deleted=false&order_by=-modified_at",
      "/order/v1/merchant/orders/?modified_at__gt=2026-01-01T00:00:00Z&order_by=modified_at",
    ]) {
      const res = await call(path, { token, appId: APP_1 });
      expect(res.status, path).toBe(200);
      expect(await json(res)).toMatchObject({ count: expect.any(Number), results: expect.any(Array) });
    }
  });

  it("include_deleted brings a deleted record back, marked, on a list of soft-deleted rows (vouchers)", async () => {
    const store = await storeFor(APP_1);
    const kept = await voucherOf(store);
    const gone = await voucherOf(store);
    expect((await store.as(`${VOUCHERS}${gone.id}/`, { method: "DELETE" })).status).toBe(204);
    const ids = async (query: string) => {
      const res = await store.as(`${VOUCHERS}?page_size=100&order_by=-modified_at${query}`);
      expect(res.status).toBe(200);
      return new Map((await json(res)).results.map((v: { id: number; is_deleted: boolean }) => [v.id, v.is_deleted]));
    };
    const live = await ids("");
    expect(live.get(kept.id)).toBe(false);
    expect(live.has(gone.id)).toBe(false);
    const all = await ids("&include_deleted=true");
    expect(all.get(kept.id)).toBe(false);
    expect(all.get(gone.id)).toBe(true);
    expect(await ids("&include_deleted=false")).toEqual(live);
  });

  it("include_deleted shows the store's own deleted rows, never another store's", async () => {
    // APP_3 shares APP_1's shard: only the scope's app_id keeps its rows out.
    const mine = await storeFor(APP_1);
    const other = await storeFor(APP_3);
    const theirs = await rowCallerLacks("vouchers", APP_1, () => voucherOf(other));
    expect((await other.as(`${VOUCHERS}${theirs.id}/`, { method: "DELETE" })).status).toBe(204);
    const listed = async (query: string) =>
      (await json(await mine.as(`${VOUCHERS}?include_deleted=true&page_size=100${query}`))).results as {
        id: number;
        code: string;
      }[];
    expect(await listed(`&id=${theirs.id}`)).toEqual([]);
    expect((await listed("")).map((v) => v.code)).not.toContain(theirs.code);
  });
});
