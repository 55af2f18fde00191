import { addDays, todayIn, weekdayOf } from "../../src/modules/meals/dates";

/** Today in the demo restaurants' time zone. */
export const today = () => todayIn("Asia/Riyadh");

/** The first date on or after `from` that is not a Friday nor in `closed`. */
export function firstOpen(from: string, closed: string[] = []) {
  let d = from;
  while (weekdayOf(d) === "friday" || closed.includes(d)) d = addDays(d, 1);
  return d;
}
