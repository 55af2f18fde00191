import { beforeAll, describe, expect, it } from "vitest";
import { json, problem } from "../helpers/request";
import {
  ACTIONS,
  type Action,
  act,
  acted,
  CONNECTIONS,
  channelsFrom,
  connectionEvents,
  connectionRow,
  EVENT_OF,
  type Shop,
  sent,
  storeOf,
} from "./helpers";

// Stores of this file's own: a provider and a fresh channel from 17,550 on for each pair a test needs
// (connections.test.ts has 17,501 to 17,549).
const PROVIDER = 17_503;
let provider: Shop;

beforeAll(async () => {
  provider = await storeOf(PROVIDER);
});

const { newChannel, inState } = channelsFrom(17_550, () => provider);

const NEXT: Record<string, Partial<Record<Action, string>>> = {
  pending: { accept: "active", reject: "rejected" },
  active: { deactivate: "inactive", delete: "inactive" },
  inactive: { activate: "active", delete: "inactive" },
  rejected: { delete: "rejected" },
};

describe("The state machine: every action from every state", () => {
  for (const [state, allowed] of Object.entries(NEXT)) {
    for (const action of ACTIONS) {
      const to = allowed[action];
      it(`${state} --${action}--> ${to ?? "409 invalid_state_transition"}`, async () => {
        const { id, channel } = await inState(state as "pending");
        // The side allowed to act: the receiver answers; the store that deactivated re-activates.
        const actor = action === "accept" || action === "reject" ? provider : channel;
        const before = (await connectionEvents(PROVIDER, id)).length;
        const res = await act(actor, id, action);
        if (to === undefined) {
          expect(res.status).toBe(409);
          expect(await problem(res)).toMatchObject({
            code: "invalid_state_transition",
            current_status: state,
            allowed_actions: Object.keys(allowed),
          });
          expect((await connectionRow(id)).status).toBe(state);
          expect(await connectionEvents(PROVIDER, id)).toHaveLength(before);
          return;
        }
        const row = await connectionRow(id);
        expect(row.status).toBe(to);
        for (const appId of [channel.appId, PROVIDER]) {
          const events = await connectionEvents(appId, id);
          expect(events.at(-1)).toMatchObject({
            type: EVENT_OF[action],
            app_id: appId,
            data: { id, status: to, by_app_id: actor.appId },
          });
        }
        if (action === "delete") {
          expect(res.status).toBe(204);
          expect(row.is_deleted).toBe(1);
          expect(row.deleted_at).not.toBeNull();
          for (const side of [channel, provider]) {
            const gone = await side.as(`${CONNECTIONS}${id}/`);
            expect(gone.status).toBe(404);
            expect((await problem(gone)).code).toBe("connection_request_not_found");
          }
        } else {
          expect(res.status).toBe(200);
          expect(await json(res)).toMatchObject({ id, status: to });
        }
      });
    }
  }
});

describe("Who may act", () => {
  it("only the receiving side accepts or rejects: the sender gets 403, in any status, and nothing changes", async () => {
    for (const state of ["pending", "active"] as const) {
      const { id, channel } = await inState(state);
      for (const action of ["accept", "reject"] as const) {
        const res = await act(channel, id, action);
        expect(res.status).toBe(403);
        expect((await problem(res)).code).toBe("not_connection_receiver");
      }
      expect((await connectionRow(id)).status).toBe(state);
    }
    // Sent by the provider: the channel is the receiver.
    const channel = await newChannel();
    const req = await sent(provider, { channel_app_id: channel.appId });
    expect((await act(provider, req.id, "accept")).status).toBe(403);
    await acted(channel, req.id, "accept");
  });

  it("accept records when and which token of the receiver decided", async () => {
    const channel = await newChannel();
    const req = await sent(channel, { provider_app_id: PROVIDER });
    const res = await act(provider, req.id, "accept");
    const out = await json(res);
    expect(out).toMatchObject({ status: "active", decided_by: provider.tokenId, direction: "incoming" });
    expect(out.decided_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("either side deactivates; only the store that deactivated activates again", async () => {
    const { id, channel } = await inState("active");
    await acted(provider, id, "deactivate");
    expect(await json(await channel.as(`${CONNECTIONS}${id}/`))).toMatchObject({
      status: "inactive",
      deactivated_by_app_id: PROVIDER,
    });
    const res = await act(channel, id, "activate");
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("connection_deactivated_by_other_store");
    expect((await connectionRow(id)).status).toBe("inactive");
    await acted(provider, id, "activate");
    expect(await json(await channel.as(`${CONNECTIONS}${id}/`))).toMatchObject({
      status: "active",
      deactivated_by_app_id: null,
    });
    await acted(channel, id, "deactivate");
    await acted(channel, id, "activate");
  });

  it("either side deletes", async () => {
    const { id } = await inState("rejected");
    await acted(provider, id, "delete");
    const other = await inState("inactive");
    await acted(other.channel, other.id, "delete");
  });
});
