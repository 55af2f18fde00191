import { expect } from "vitest";
import { problem } from "../helpers/request";
import { eventsOf, type MealCustomer, type MealStore, rowsOfSub, SUBS, subscriptionOf } from "./seed";

/** What the customer actions' tests (actions.test.ts, cancel-location.test.ts) share. */

/** A 409 with `code`: its problem body. */
export async function conflict(res: Response, code: string) {
  expect(res.status).toBe(409);
  const p = await problem(res);
  expect(p.code).toBe(code);
  return p;
}

export const datesOf = async (id: number) =>
  (await rowsOfSub(id)).map((r) => [r.date, r.status, r.is_frozen, r.is_postponed] as const);

/** Subscriptions of `at().c` in `at().m` (made by the test file's beforeAll), and their actions. */
export function actionsIn(at: () => { m: MealStore; c: MealCustomer }) {
  const fresh = (count = 6) => subscriptionOf(at().m, at().c, { start: "2026-03-03", count });
  const act = (id: number, body: unknown, as: MealCustomer = at().c) =>
    as.as(`${SUBS}${id}/suborders/actions/`, { method: "POST", body });
  /** The events of a subscription: its own (`meal_subscription.*`) and its suborders'. */
  const since = async (types: string[], [id]: number[]) =>
    (await eventsOf(at().m.appId, types)).filter((e) =>
      e.type.startsWith("meal_subscription.") ? e.data.id === id : e.data.subscription_id === id,
    );
  return { fresh, act, since };
}
