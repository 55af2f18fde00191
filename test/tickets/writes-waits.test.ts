import { beforeAll, describe, expect, it } from "vitest";
import {
  APP_1,
  countRows,
  createPlainItem,
  createTicketsFor,
  ensureTenant,
  shardFor,
  tokenFor,
} from "../helpers/factories";
import { callWaits, json } from "../helpers/request";

/**
 * How long the ticket writes keep a merchant waiting on D1, counted in round trips one after
 * another beyond the token check (test/helpers/d1-waits.ts), never timed: the tickets with their
 * items in one read, then one guarded batch that reads the tickets back.
 */

// A store of this file's own.
const A = 8611;
const BULK = "/order/v1/merchant/fulfillments/tickets/bulk-update/";
const CHECK_IN = "/order/v1/merchant/fulfillments/tickets/check-in/";
let token: string;
let itemId: number;

beforeAll(async () => {
  await ensureTenant(A);
  token = await tokenFor(A, ["can_write_order"]);
  itemId = (await createPlainItem(A)).id;
  // The token is checked once per isolate: a request before the counted ones holds it.
  await callWaits(CHECK_IN, { method: "POST", token, appId: A, body: { token: "tkt_none", validate_only: true } });
});

const post = (path: string, body: Record<string, unknown>) =>
  callWaits(path, { method: "POST", token, appId: A, body });
const statusOf = async (id: number) =>
  (await shardFor(APP_1).prepare("SELECT status FROM tickets WHERE id = ?").bind(id).first<{ status: string }>())!
    .status;
const eventsOf = (type: string, id: number) =>
  countRows("outbox_events", `type = '${type}' AND json_extract(payload, '$.data.id') = ${id}`);

describe("D1 round trips of the ticket writes", () => {
  it("Bulk Update Tickets waits for D1 at most twice, and answers the tickets with their items", async () => {
    const ids = (await createTicketsFor(A, itemId, 3)).map((t) => t.id);
    const { res, waits } = await post(BULK, { ids, status: "confirmed", date: "2026-12-24", time: "20:00" });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.count).toBe(3);
    expect(body.results.map((t: { id: number }) => t.id)).toEqual(ids);
    for (const t of body.results)
      expect(t).toMatchObject({ status: "confirmed", date: "2026-12-24", time: "20:00:00", item: { id: itemId } });
    for (const id of ids) {
      expect(await statusOf(id)).toBe("confirmed");
      expect(await eventsOf("ticket.updated", id)).toBe(1);
    }
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
  });

  it("Check in Ticket waits for D1 at most twice, validating only at most once", async () => {
    const [t] = await createTicketsFor(A, itemId, 1);
    const validated = await post(CHECK_IN, { token: t!.token, validate_only: true });
    expect(validated.res.status).toBe(200);
    expect(await json(validated.res)).toMatchObject({
      checked_in: false,
      checked_in_at: null,
      ticket: { id: t!.id, status: "pending", item: { id: itemId } },
    });
    expect(validated.waits.beyondAuth).toBeLessThanOrEqual(1);

    const checked = await post(CHECK_IN, { token: t!.token });
    const body = await json(checked.res);
    expect(checked.res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ checked_in: true, ticket: { id: t!.id, status: "checked_in", item: { id: itemId } } });
    expect(body.checked_in_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await statusOf(t!.id)).toBe("checked_in");
    expect(await eventsOf("ticket.checked_in", t!.id)).toBe(1);
    expect(checked.waits.beyondAuth).toBeLessThanOrEqual(2);
  });
});
