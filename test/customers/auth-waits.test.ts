import { beforeAll, describe, expect, it } from "vitest";
import { waitsMeter } from "../helpers/d1-waits";
import { APP_1, ensureTenant, shardFor } from "../helpers/factories";
import { json, problem } from "../helpers/request";
import { insertCustomer, newIp, newPhone, outbox, P, worldWith } from "./login-helpers";

// A tenant of this file alone.
const S = 69;

beforeAll(() => ensureTenant(S));

const phoneBody = (p: { national: string }) => ({ country_code: "966", mobile_number: p.national });

/**
 * The round trips to D1 a login request waits for, one after another (test/helpers/d1-waits.ts):
 * the code and the customer read together, then one batch. Counted, never timed.
 */
async function metered(path: string, body: unknown, ip: string) {
  const meter = waitsMeter(shardFor(APP_1));
  const res = await worldWith().post(path, body, { appId: S, ip, meter });
  return { res, waits: meter.stop() };
}

describe("D1 round trips of the login", () => {
  it("Get Access Token waits for D1 twice, a wrong code too; the login is the same", async () => {
    const w = worldWith();
    const p = newPhone();
    const id = await insertCustomer(S, p);
    const ip = newIp();
    expect((await w.post(P.otp, phoneBody(p), { appId: S, ip })).status).toBe(202);
    const code = w.codeFor(p.e164);
    const wrong = await metered(P.token, { ...phoneBody(p), otp: code === "000000" ? "111111" : "000000" }, ip);
    expect(wrong.res.status).toBe(400);
    expect(await problem(wrong.res)).toMatchObject({ code: "invalid_otp", attempts_left: 4 });
    expect(wrong.waits.total).toBe(2);
    const ok = await metered(P.token, { ...phoneBody(p), otp: code }, ip);
    expect(ok.res.status).toBe(200);
    expect((await json(ok.res)).customer).toMatchObject({ id, is_mobile_verified: true });
    expect(ok.waits.total).toBe(2);
    const events = await outbox(S);
    expect(events.filter((e) => e.type === "customer.updated" && e.data.id === id)).toHaveLength(1);
  });

  it("Confirm Customer Registration waits for D1 twice", async () => {
    const w = worldWith();
    const p = newPhone();
    const ip = newIp();
    expect((await w.post(P.register, { ...phoneBody(p), name: "Huda" }, { appId: S, ip })).status).toBe(202);
    const ok = await metered(P.confirm, { ...phoneBody(p), otp: w.codeFor(p.e164) }, ip);
    expect(ok.res.status).toBe(201);
    const body = await json(ok.res);
    expect(body.customer).toMatchObject({ mobile_number: p.e164, name: "Huda", is_mobile_verified: true });
    expect(ok.waits.total).toBe(2);
    expect(await outbox(S)).toContainEqual({ type: "customer.created", data: { id: body.customer.id } });
  });
});
