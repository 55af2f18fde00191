import { describe, expect, it } from "vitest";
import { APP_2, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { expectHeldFor, ITEMS, itemsMerchant, sku } from "./helpers";

const as1 = itemsMerchant();

describe("Item tags and Item Config", () => {
  it("creates, lists, renames and deletes tags", async () => {
    const res = await as1(`${ITEMS}tags/`, { method: "POST", body: { name_en: "Vegan", name_ar: "نباتي" } });
    expect(res.status).toBe(201);
    const tag = await json(res);
    expect(tag).toEqual({
      id: expect.any(Number),
      name_en: "Vegan",
      name_ar: "نباتي",
      ordering: 0,
      modified_at: expect.stringMatching(/Z$/),
      is_deleted: false,
    });
    expect((await json(await as1(`${ITEMS}tags/?search=Vegan&id=${tag.id}`))).results).toEqual([tag]);
    expect(
      await json(await as1(`${ITEMS}tags/${tag.id}/`, { method: "PATCH", body: { name_en: "Plant-based" } })),
    ).toMatchObject({ name_en: "Plant-based" });
    expect((await as1(`${ITEMS}tags/${tag.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await as1(`${ITEMS}tags/${tag.id}/`, { method: "DELETE" })).status).toBe(404);
    // A mirror sees the deletion: the tag comes back marked, its modified_at moved on.
    expect((await json(await as1(`${ITEMS}tags/?id=${tag.id}`))).results).toEqual([]);
    const [gone] = (await json(await as1(`${ITEMS}tags/?include_deleted=true&id=${tag.id}`))).results;
    expect(gone).toMatchObject({ id: tag.id, name_en: "Plant-based", is_deleted: true });
    expect(gone.modified_at >= tag.modified_at).toBe(true);
    expect((await json(await as1(`${ITEMS}tags/?id=${tag.id}`))).count).toBe(0);
  });

  it("serves the defaults, changes settings, and reservations follow them", async () => {
    const token2 = await tokenFor(APP_2, ["can_read_item", "can_write_item"]);
    const as2 = (path: string, opts: { method?: string; body?: unknown } = {}) =>
      call(path, { ...opts, token: token2, appId: APP_2 });
    expect(await json(await as2(`${ITEMS}config/`))).toEqual({ reservation_minutes: 15, max_reservation_qty: 1000 });
    const res = await as2(`${ITEMS}config/`, {
      method: "POST",
      body: { reservation_minutes: 30, max_reservation_qty: 2 },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ reservation_minutes: 30, max_reservation_qty: 2 });
    expect(await json(await as2(`${ITEMS}config/`, { method: "POST", body: { max_reservation_qty: 3 } }))).toEqual({
      reservation_minutes: 30,
      max_reservation_qty: 3,
    });
    expect(await json(await as1(`${ITEMS}config/`))).toEqual({ reservation_minutes: 15, max_reservation_qty: 1000 });
    const item = await json(
      await as2(ITEMS, {
        method: "POST",
        body: {
          type: "product",
          service_type: "pickup",
          sku: sku("CF"),
          price: 1,
          name_en: "Map",
          name_ar: "خريطة",
          stock_qty: 10,
        },
      }),
    );
    const before = Date.now();
    const r = await json(await as2(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 3 } }));
    expectHeldFor(r.expires_at, before, 30 * 60_000);
    const tooMany = await as2(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 4 } });
    expect(tooMany.status).toBe(400);
    expect((await problem(tooMany)).errors).toHaveProperty(["qty"]);
    expect((await as2(`${ITEMS}config/`, { method: "POST", body: { reservation_minutes: 61 } })).status).toBe(400);
  });
});
