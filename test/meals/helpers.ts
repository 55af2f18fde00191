import { beforeAll } from "vitest";
import { addDays, todayIn, weekdayOf } from "../../src/modules/meals/dates";
import { APP_1, shardFor, tokenFor } from "../helpers/factories";
import { seedMealsFor } from "../helpers/meals";
import { type Call, call } from "../helpers/request";

/** Today in the demo restaurants' time zone. */
export const today = () => todayIn("Asia/Riyadh");

/** The first date on or after `from` that is not a Friday nor in `closed`. */
export function firstOpen(from: string, closed: string[] = []) {
  let d = from;
  while (weekdayOf(d) === "friday" || closed.includes(d)) d = addDays(d, 1);
  return d;
}

export const MERCHANT_MEALS = "/order/v1/merchant/meals/";

type MealsFixture = Awaited<ReturnType<typeof seedMealsFor>>;

/**
 * The merchant files' setup: stores `A` and `B` with the demo meals (ids from `A` and `B` × 10,000,
 * apart from every other file's), seeded before the file's tests, and calls as A's merchant who
 * writes items.
 */
export function mealsMerchantOf(A: number, B: number) {
  const fx = {} as { a: MealsFixture; b: MealsFixture };
  let token = "";
  beforeAll(async () => {
    fx.a = await seedMealsFor(A, A * 10_000);
    fx.b = await seedMealsFor(B, B * 10_000);
    token = await tokenFor(A, ["can_write_item"]);
  });
  const as = (path: string, opts: Call = {}) => call(path, { token, appId: A, ...opts });
  return {
    fx,
    as,
    post: (path: string, body: unknown) => as(path, { method: "POST", body }),
    patch: (path: string, body: unknown) => as(path, { method: "PATCH", body }),
    del: (path: string) => as(path, { method: "DELETE" }),
  };
}

/** A row as stored, by table and id. */
export const rowOf = (table: string, id: number) =>
  shardFor(APP_1).prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first<Record<string, unknown>>();
