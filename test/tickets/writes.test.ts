import { beforeAll, describe, expect, it } from "vitest";
import { APP_1, APP_2, countRows, createPlainItem, createTicketsFor, shardFor, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, json, problem } from "../helpers/request";

const BULK = "/order/v1/merchant/fulfillments/tickets/bulk-update/";
const CHECK_IN = "/order/v1/merchant/fulfillments/tickets/check-in/";

/** A ticket as stored, on its store's shard (ids are unique per shard only). */
async function ticketRow(id: number, appId = APP_1) {
  return shardFor(appId)
    .prepare("SELECT status, date, time, checked_in_at FROM tickets WHERE id = ? AND app_id = ?")
    .bind(id, appId)
    .first<{ status: string; date: string; time: string | null; checked_in_at: string | null }>();
}

const eventsOf = (type: string, ticketId: number) =>
  countRows("outbox_events", `type = '${type}' AND json_extract(payload, '$.data.id') = ${ticketId}`);

describe("Bulk Update Tickets", () => {
  let token: string;
  let itemId: number;
  beforeAll(async () => {
    token = await tokenFor(APP_1, ["can_write_order"]);
    itemId = (await createPlainItem(APP_1)).id;
  });
  const bulk = (body: unknown) => call(BULK, { method: "POST", token, body });

  it("changes status, date and time of every ticket, returns them, and emits ticket.updated for each", async () => {
    const ids = (await createTicketsFor(APP_1, itemId, 3)).map((t) => t.id);
    const res = await bulk({ ids, status: "confirmed", date: "2026-12-24", time: "20:00" });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.count).toBe(3);
    expect(body.results.map((t: { id: number }) => t.id)).toEqual(ids);
    for (const t of body.results)
      expect(t).toMatchObject({ status: "confirmed", date: "2026-12-24", time: "20:00:00", item: { id: itemId } });
    for (const id of ids) {
      expect(await ticketRow(id)).toMatchObject({ status: "confirmed", date: "2026-12-24", time: "20:00:00" });
      expect(await eventsOf("ticket.updated", id)).toBe(1);
    }
  });

  it("writes nothing when one id is unknown, and names it", async () => {
    const ids = (await createTicketsFor(APP_1, itemId, 2)).map((t) => t.id);
    const before = await countRows("outbox_events");
    const res = await bulk({ ids: [...ids, 999_999_999], status: "cancelled" });
    expect(res.status).toBe(404);
    const body = await problem(res);
    expect(body.code).toBe("tickets_not_found");
    expect(Object.keys(body.errors!)).toEqual(["999999999"]);
    for (const id of ids) expect((await ticketRow(id))!.status).toBe("pending");
    expect(await countRows("outbox_events")).toBe(before);
  });

  it("treats another tenant's ticket as unknown", async () => {
    const item = (await createPlainItem(APP_2)).id;
    const theirs = (await rowCallerLacks("tickets", APP_1, async () => (await createTicketsFor(APP_2, item, 1))[0]!))
      .id;
    const res = await bulk({ ids: [theirs], status: "cancelled" });
    expect(res.status).toBe(404);
    expect((await ticketRow(theirs, APP_2))!.status).toBe("pending");
  });

  it("refuses a change a final status cannot take (409, per id), writing nothing", async () => {
    const [a, b] = (await createTicketsFor(APP_1, itemId, 2)).map((t) => t.id);
    expect((await bulk({ ids: [a], status: "cancelled" })).status).toBe(200);
    const res = await bulk({ ids: [a, b], date: "2027-01-01" });
    expect(res.status).toBe(409);
    const body = await problem(res);
    expect(body.code).toBe("invalid_transition");
    expect(body.errors).toEqual({ [String(a)]: ["The ticket is cancelled, which is final."] });
    expect((await ticketRow(b!))!.date).toBe("2026-12-01");
  });

  it.each([
    ["no ids", { status: "confirmed" }, "ids"],
    ["empty ids", { ids: [], status: "confirmed" }, "ids"],
    ["repeated ids", { ids: [1, 1], status: "confirmed" }, "ids"],
    ["101 ids", { ids: Array.from({ length: 101 }, (_, i) => i + 1), status: "confirmed" }, "ids"],
    ["non-integer id", { ids: ["a"], status: "confirmed" }, "ids.0"],
    ["checked_in through bulk", { ids: [1], status: "checked_in" }, "status"],
    ["unknown status", { ids: [1], status: "lost" }, "status"],
    ["bad date", { ids: [1], date: "2026-13-01" }, "date"],
    ["bad time", { ids: [1], time: "25:00" }, "time"],
    ["nothing to change", { ids: [1] }, "body"],
    ["unknown field", { ids: [1], status: "confirmed", colour: "red" }, "colour"],
  ])("400 for %s, naming the field", async (_n, body, field) => {
    const res = await bulk(body);
    expect(res.status).toBe(400);
    const p = await problem(res);
    expect(p.code).toBe("validation_error");
    expect(p.errors).toHaveProperty([field]);
  });

  it("400 for malformed JSON and 415 for a body that is not JSON", async () => {
    const bad = await call(BULK, {
      method: "POST",
      token,
      rawBody: "{ids:",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).code).toBe("malformed_request");
    const form = await call(BULK, {
      method: "POST",
      token,
      rawBody: "ids=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    expect((await problem(form)).code).toBe("unsupported_media_type");
  });
});

describe("Validate Token and Check in Ticket", () => {
  let token: string;
  let itemId: number;
  beforeAll(async () => {
    token = await tokenFor(APP_1, ["can_write_order"]);
    itemId = (await createPlainItem(APP_1)).id;
  });
  const checkIn = (body: unknown) => call(CHECK_IN, { method: "POST", token, body });

  it("validate_only admits without changing anything", async () => {
    const [t] = await createTicketsFor(APP_1, itemId, 1);
    const res = await checkIn({ token: t!.token, validate_only: true });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      checked_in: false,
      checked_in_at: null,
      ticket: { id: t!.id, status: "pending" },
    });
    expect((await ticketRow(t!.id))!.status).toBe("pending");
    expect(await eventsOf("ticket.checked_in", t!.id)).toBe(0);
  });

  it("checks a ticket in once; a retry gets 409 with the time it was checked in", async () => {
    const [t] = await createTicketsFor(APP_1, itemId, 1);
    const first = await checkIn({ token: t!.token });
    expect(first.status).toBe(200);
    const body = await json(first);
    expect(body).toMatchObject({ checked_in: true, ticket: { id: t!.id, status: "checked_in" } });
    expect(body.checked_in_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await ticketRow(t!.id))!.checked_in_at).toBe(body.checked_in_at);

    const retry = await checkIn({ token: t!.token });
    expect(retry.status).toBe(409);
    const p = await problem(retry);
    expect(p).toMatchObject({ code: "ticket_already_checked_in", checked_in_at: body.checked_in_at, ticket_id: t!.id });
    expect(await eventsOf("ticket.checked_in", t!.id)).toBe(1);
  });

  it("two scanners racing on one ticket: exactly one wins", async () => {
    const [t] = await createTicketsFor(APP_1, itemId, 1);
    const results = await Promise.all(Array.from({ length: 5 }, () => checkIn({ token: t!.token })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    expect(await eventsOf("ticket.checked_in", t!.id)).toBe(1);
  });

  it("refuses a cancelled ticket with 409 ticket_cancelled", async () => {
    const [t] = await createTicketsFor(APP_1, itemId, 1);
    await call(BULK, { method: "POST", token, body: { ids: [t!.id], status: "cancelled" } });
    const res = await checkIn({ token: t!.token });
    expect(res.status).toBe(409);
    expect((await problem(res)).code).toBe("ticket_cancelled");
    expect((await ticketRow(t!.id))!.status).toBe("cancelled");
  });

  it("404 for an unknown token and for another store's ticket, which stays unused", async () => {
    expect((await checkIn({ token: "tkt_nope" })).status).toBe(404);
    const [theirs] = await createTicketsFor(APP_2, (await createPlainItem(APP_2)).id, 1);
    const res = await checkIn({ token: theirs!.token });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("ticket_not_found");
    expect((await ticketRow(theirs!.id, APP_2))!.status).toBe("pending");
  });

  it.each([
    ["no token", {}, "token"],
    ["empty token", { token: "" }, "token"],
    ["token not a string", { token: 12 }, "token"],
    ["validate_only not a boolean", { token: "x", validate_only: "yes" }, "validate_only"],
  ])("400 for %s", async (_n, body, field) => {
    const res = await checkIn(body);
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });
});

describe("a mirror of the tickets (incremental sync)", () => {
  it("bulk update and check-in move modified_at; modified_at__gte with order_by=modified_at brings back only those", async () => {
    const token = await tokenFor(APP_1, ["can_write_order", "can_read_order"]);
    const itemId = (await createPlainItem(APP_1)).id;
    const [updated, checkedIn, untouched] = await createTicketsFor(APP_1, itemId, 3);
    const ids = [updated!.id, checkedIn!.id, untouched!.id];
    // Made long ago: whatever moves past `before` below was moved by the writes.
    await shardFor(APP_1)
      .prepare(`UPDATE tickets SET modified_at = '2025-01-01T00:00:00.000Z' WHERE id IN (${ids.join(",")})`)
      .run();
    const before = new Date().toISOString();
    expect((await call(BULK, { method: "POST", token, body: { ids: [updated!.id], date: "2026-12-25" } })).status).toBe(
      200,
    );
    expect((await call(CHECK_IN, { method: "POST", token, body: { token: checkedIn!.token } })).status).toBe(200);

    const list = (q: string) =>
      call(`/order/v1/merchant/fulfillments/tickets/?id__in=${ids.join(",")}&${q}`, { token }).then((r) => json(r));
    const changed = await list(`modified_at__gte=${before}&order_by=modified_at`);
    expect(changed.results.map((t: { id: number }) => t.id).sort()).toEqual([updated!.id, checkedIn!.id].sort());
    for (const t of changed.results) expect(t.modified_at >= before).toBe(true);
    // The untouched ticket last, newest first (the two changed ones may share a millisecond).
    const all = await list("order_by=-modified_at");
    expect(all.results.map((t: { id: number }) => t.id).at(-1)).toBe(untouched!.id);
    expect(all.results.at(-1).modified_at).toBe("2025-01-01T00:00:00.000Z");
    // Tickets are never deleted: the list takes no include_deleted.
    const bad = await call("/order/v1/merchant/fulfillments/tickets/?include_deleted=true", { token });
    expect(bad.status).toBe(400);
  });
});
