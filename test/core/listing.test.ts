import { and, asc, eq, or, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/core/errors";
import { rowsJson } from "../../src/core/json-rows";
import { type ListQuery, listPage, listPageWith } from "../../src/core/listing";
import { itemImages, items } from "../../src/modules/items/tables";
import { createFullItem, db, ensureTenant } from "../helpers/factories";

// A store of its own, so that the counts are exact.
const APP = 9181;
const scope = () => and(eq(items.appId, APP), eq(items.isDeleted, false))!;
const query = (page: number, pageSize: number): ListQuery => ({
  page,
  pageSize,
  where: undefined,
  orderBy: [asc(items.ordering), asc(items.id)],
  searchDriven: false,
});

describe("listPage: the count and the page in one statement", () => {
  beforeAll(async () => {
    await ensureTenant(APP);
    for (let i = 0; i < 5; i++) await createFullItem(APP, { ordering: 5 - i });
  });

  it("gives the rows drizzle's select gives (booleans, JSON columns, nulls), in the list's order", async () => {
    const expected = await db().select().from(items).where(scope()).orderBy(asc(items.ordering), asc(items.id));
    expect(expected.length).toBeGreaterThanOrEqual(5);
    const page = await listPage(db(), query(1, 100), { table: items, scope });
    expect(page.count).toBe(expected.length);
    expect(page.results).toEqual(expected);
    expect(typeof page.results[0]!.isPlanOnly).toBe("boolean");
    expect(page.results.some((r) => r.offDays.includes("friday") && r.customFields?.level === "beginner")).toBe(true);
  });

  it("counts all the rows when the page is full, and from the page when it is not", async () => {
    const total = (await listPage(db(), query(1, 100), { table: items, scope })).count;
    const full = await listPage(db(), query(1, 2), { table: items, scope });
    expect(full).toMatchObject({ count: total, page: 1, pageSize: 2 });
    expect(full.results).toHaveLength(2);
    const lastPage = Math.ceil(total / 2);
    const last = await listPage(db(), query(lastPage, 2), { table: items, scope });
    expect(last.count).toBe(total);
    expect(last.results).toHaveLength(total - (lastPage - 1) * 2);
    const empty = await listPage(db(), query(1, 20), { table: items, scope: () => eq(items.appId, -1) });
    expect(empty).toMatchObject({ count: 0, results: [] });
  });

  it("refuses a page past the last, naming how many there are", async () => {
    const total = (await listPage(db(), query(1, 100), { table: items, scope })).count;
    await expect(listPage(db(), query(total + 1, 1), { table: items, scope })).rejects.toMatchObject({
      status: 400,
      extra: { errors: { page: [`Out of range: this list has ${total} page(s) of 1.`] } },
    });
  });

  it("listPageWith: nested levels read the page's rows in the same statement", async () => {
    const { page, nested } = await listPageWith(db(), query(1, 2), { table: items, scope }, (rows) => ({
      images: rowsJson(itemImages, sql`${itemImages.itemId} IN (SELECT id FROM ${rows})`),
      ids: sql`(SELECT json_group_array(id) FROM ${rows})`,
    }));
    expect(page.results).toHaveLength(2);
    expect((nested.ids as number[]).sort()).toEqual(page.results.map((r) => r.id).sort());
    expect(Array.isArray(nested.images)).toBe(true);
  });

  it("a query binding more than D1 takes in one statement still answers, in two round trips", async () => {
    // 60 conditions, bound twice (page and count): past D1's 100 parameters a statement.
    const many = or(...Array.from({ length: 60 }, (_, i) => eq(items.id, -1 - i)), sql`1 = 1`)!;
    const q = { ...query(1, 2), where: many };
    const plain = await listPageWith(db(), query(1, 2), { table: items, scope }, (rows) => ({
      ids: sql`(SELECT json_group_array(id) FROM ${rows})`,
    }));
    const wide = await listPageWith(db(), q, { table: items, scope }, (rows) => ({
      ids: sql`(SELECT json_group_array(id) FROM ${rows})`,
    }));
    expect(wide.page).toEqual(plain.page);
    expect((wide.nested.ids as number[]).sort()).toEqual((plain.nested.ids as number[]).sort());
  });

  it("nested levels may read a set the statement names once (`with`), in one statement or two", async () => {
    const many = or(...Array.from({ length: 60 }, (_, i) => eq(items.id, -1 - i)), sql`1 = 1`)!;
    for (const where of [undefined, many]) {
      const { page, nested } = await listPageWith(
        db(),
        { ...query(1, 2), where },
        { table: items, scope, with: (rows) => ({ page_ids: sql`SELECT id FROM ${rows}` }) },
        () => ({
          ids: sql`(SELECT json_group_array(id) FROM page_ids)`,
          counted: sql`(SELECT count(*) FROM page_ids)`,
        }),
      );
      expect(page.results).toHaveLength(2);
      expect((nested.ids as number[]).sort()).toEqual(page.results.map((r) => r.id).sort());
      expect(nested.counted).toBe(2);
    }
  });

  it("checks the list's parent in the same statement: a missing one is its 404, before a page out of range", async () => {
    const missing = {
      exists: sql`EXISTS (SELECT 1 FROM ${items} WHERE ${items.id} = -1)`,
      notFound: () => ApiError.notFound("item_not_found", "Item -1"),
    };
    const present = { ...missing, exists: sql`EXISTS (SELECT 1 FROM ${items} WHERE ${scope()})` };
    const many = or(...Array.from({ length: 60 }, (_, i) => eq(items.id, -1 - i)), sql`1 = 1`)!;
    for (const where of [undefined, many]) {
      // One statement, and the two-statement path of a query binding more than D1 takes.
      const q = { ...query(1, 2), where };
      expect((await listPage(db(), q, { table: items, scope, parent: present })).results).toHaveLength(2);
      await expect(listPage(db(), q, { table: items, scope, parent: missing })).rejects.toMatchObject({
        status: 404,
        code: "item_not_found",
      });
      await expect(listPage(db(), { ...q, page: 99 }, { table: items, scope, parent: missing })).rejects.toMatchObject({
        status: 404,
      });
    }
  });
});
