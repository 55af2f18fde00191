import { beforeAll, describe, expect, it } from "vitest";
import { APP_1, ensureTenant, shardFor } from "../helpers/factories";
import { json, problem } from "../helpers/request";
import { insertCustomer, newIp, newPhone, P, worldWith } from "./login-helpers";

// Tenants of this file alone.
const S = 63;
const OTHER = 64;

beforeAll(async () => {
  await ensureTenant(S);
  await ensureTenant(OTHER);
});

/** Logs a new customer of `appId` in through CA3 and CA4; returns the answer and the customer id. */
async function login(appId = S) {
  const w = worldWith();
  const p = newPhone();
  const id = await insertCustomer(appId, p);
  const body = { country_code: "966", mobile_number: p.national };
  await w.post(P.otp, body, { appId, ip: newIp() });
  const res = await w.post(P.token, { ...body, otp: w.codeFor(p.e164) }, { appId, ip: newIp() });
  expect(res.status).toBe(200);
  return { ...(await json(res)), id, w };
}

const family = (customerId: number) =>
  shardFor(APP_1)
    .prepare("SELECT * FROM refresh_tokens WHERE customer_id = ? ORDER BY id")
    .bind(customerId)
    .all<{ rotated_at: string | null; revoked_at: string | null; family_id: string; expires_at: string }>()
    .then((r) => r.results);

describe("Refresh Access Token (CA5)", () => {
  it("rotates: a new pair, the old token marked replaced, the new one good", async () => {
    const { refresh_token, id, w } = await login();
    const res = await w.post(P.refresh, { refresh_token }, { appId: S });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const pair = await json(res);
    expect(Object.keys(pair).sort()).toEqual(
      ["access_token", "expires_in", "refresh_expires_in", "refresh_token", "token_type"].sort(),
    );
    expect(pair.refresh_token).not.toBe(refresh_token);
    const rows = await family(id);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.rotated_at).not.toBeNull();
    expect(rows[1]).toMatchObject({ rotated_at: null, revoked_at: null, family_id: rows[0]!.family_id });
    expect((await w.post(P.refresh, { refresh_token: pair.refresh_token }, { appId: S })).status).toBe(200);
  });

  it("a replaced token used again revokes the whole family (401 refresh_token_reused)", async () => {
    const { refresh_token, id, w } = await login();
    const next = await json(await w.post(P.refresh, { refresh_token }, { appId: S }));
    const reused = await w.post(P.refresh, { refresh_token }, { appId: S });
    expect(reused.status).toBe(401);
    expect((await problem(reused)).code).toBe("refresh_token_reused");
    expect((await family(id)).every((r) => r.revoked_at !== null)).toBe(true);
    const after = await w.post(P.refresh, { refresh_token: next.refresh_token }, { appId: S });
    expect(after.status).toBe(401);
    expect((await problem(after)).code).toBe("invalid_refresh_token");
  });

  it("two refreshes at once: exactly one new pair", async () => {
    const { refresh_token, id, w } = await login();
    const [a, b] = await Promise.all([
      w.post(P.refresh, { refresh_token }, { appId: S }),
      w.post(P.refresh, { refresh_token }, { appId: S }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
    const loser = a.status === 401 ? a : b;
    expect((await problem(loser)).code).toBe("refresh_token_reused");
    // One token issued beside the original; the loser's reuse revoked the family.
    expect(await family(id)).toHaveLength(2);
  });

  it("refuses unknown, expired and other stores' tokens with 401 invalid_refresh_token", async () => {
    const { refresh_token, id, w } = await login();
    const unknown = await w.post(P.refresh, { refresh_token: `crt_${"A".repeat(43)}` }, { appId: S });
    expect((await problem(unknown)).code).toBe("invalid_refresh_token");
    const elsewhere = await w.post(P.refresh, { refresh_token }, { appId: OTHER });
    expect(elsewhere.status).toBe(401);
    expect((await problem(elsewhere)).code).toBe("invalid_refresh_token");
    expect((await family(id))[0]).toMatchObject({ rotated_at: null, revoked_at: null });
    await shardFor(APP_1)
      .prepare("UPDATE refresh_tokens SET expires_at = '2020-01-01T00:00:00.000Z' WHERE customer_id = ?")
      .bind(id)
      .run();
    const expired = await w.post(P.refresh, { refresh_token }, { appId: S });
    expect((await problem(expired)).code).toBe("invalid_refresh_token");
    const malformed = await w.post(P.refresh, { refresh_token: "not-a-token" }, { appId: S });
    expect(malformed.status).toBe(400);
    expect((await problem(malformed)).errors).toHaveProperty("refresh_token");
  });

  it("refuses a customer blocked or deleted since the login, and revokes the family", async () => {
    const blocked = await login();
    await shardFor(APP_1).prepare("UPDATE customers SET is_blocked = 1 WHERE id = ?").bind(blocked.id).run();
    const res = await blocked.w.post(P.refresh, { refresh_token: blocked.refresh_token }, { appId: S });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("customer_blocked");
    expect((await family(blocked.id)).every((r) => r.revoked_at !== null)).toBe(true);
    const deleted = await login();
    await shardFor(APP_1).prepare("UPDATE customers SET is_deleted = 1 WHERE id = ?").bind(deleted.id).run();
    const gone = await deleted.w.post(P.refresh, { refresh_token: deleted.refresh_token }, { appId: S });
    expect((await problem(gone)).code).toBe("invalid_refresh_token");
  });
});

describe("Logout", () => {
  it("revokes the family; an unknown token is not an error", async () => {
    const { refresh_token, id, w } = await login();
    const next = await json(await w.post(P.refresh, { refresh_token }, { appId: S }));
    const out = await w.post(P.logout, { refresh_token: next.refresh_token }, { appId: S });
    expect(out.status).toBe(204);
    expect((await family(id)).every((r) => r.revoked_at !== null)).toBe(true);
    const after = await w.post(P.refresh, { refresh_token: next.refresh_token }, { appId: S });
    expect((await problem(after)).code).toBe("invalid_refresh_token");
    expect((await w.post(P.logout, { refresh_token: `crt_${"B".repeat(43)}` }, { appId: S })).status).toBe(204);
  });

  it("cannot revoke another store's login", async () => {
    const { refresh_token, id, w } = await login();
    expect((await w.post(P.logout, { refresh_token }, { appId: OTHER })).status).toBe(204);
    expect((await family(id))[0]!.revoked_at).toBeNull();
  });
});
