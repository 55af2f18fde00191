import { beforeAll, describe, expect, it, vi } from "vitest";
import { APP_1, ensureTenant, shardFor } from "../helpers/factories";
import { openApiDocument } from "../helpers/openapi";
import { json, problem } from "../helpers/request";
import { insertCustomer, newIp, newPhone, P, worldWith } from "./login-helpers";

// A store of this file alone: its registration codes are the only ones counted against its budget.
const S = 4241;
const BUDGET = 3;

beforeAll(async () => {
  await ensureTenant(S);
  await shardFor(S)
    .prepare(
      "INSERT OR REPLACE INTO customer_settings (app_id, otp_length, register_codes_per_10_min) VALUES (?, 6, ?)",
    )
    .bind(S, BUDGET)
    .run();
});

const register = (w: ReturnType<typeof worldWith>, p: { national: string }) =>
  w.post(P.register, { country_code: "966", mobile_number: p.national, name: "X" }, { appId: S, ip: newIp() });

/** Moves the store's codes back in time: the budget's window passes without waiting. */
const ageStore = (seconds: number) =>
  shardFor(APP_1)
    .prepare("UPDATE otp_codes SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, ?) WHERE app_id = ?")
    .bind(`-${seconds} seconds`, S)
    .run();

describe("Register Customer: the store's SMS budget (registration codes per 10 minutes)", () => {
  it("refuses the registration past the budget with 429 and Retry-After, the same for registered numbers, and logs the metric", async () => {
    const w = worldWith();
    const registered = newPhone();
    await insertCustomer(S, registered);
    const alsoRegistered = newPhone();
    await insertCustomer(S, alsoRegistered);

    // A registered number is sent nothing but spends the budget the same: the answer cannot tell them apart.
    for (const p of [newPhone(), registered, newPhone()]) expect((await register(w, p)).status).toBe(202);
    expect(w.sent).toHaveLength(2);

    const logged = vi.spyOn(console, "log");
    const refused = [];
    for (const p of [newPhone(), alsoRegistered]) {
      const res = await register(w, p);
      expect(res.status).toBe(429);
      const seconds = Number(res.headers.get("retry-after"));
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(600);
      const { code, detail, status, title } = await problem(res);
      refused.push({ code, detail, status, title });
    }
    expect(refused[0]).toMatchObject({ code: "register_budget_reached", status: 429 });
    expect(refused[1]).toEqual(refused[0]);
    expect(w.sent).toHaveLength(2);
    const lines = logged.mock.calls
      .map(([line]) => (typeof line === "string" && line.startsWith("{") ? JSON.parse(line) : null))
      .filter((l) => l?.msg === "limit reached");
    logged.mockRestore();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: "warn", limit: "register_sms_budget", app_id: S });
    expect(lines[0].retry_after).toBeGreaterThanOrEqual(1);

    // A login code is not a registration: the budget leaves it alone.
    const customer = newPhone();
    await insertCustomer(S, customer);
    const login = await w.post(
      P.otp,
      { country_code: "966", mobile_number: customer.national },
      { appId: S, ip: newIp() },
    );
    expect(login.status).toBe(202);

    // Once the window has passed, registrations are sent again.
    await ageStore(601);
    const fresh = newPhone();
    const again = await register(w, fresh);
    expect(again.status).toBe(202);
    expect(await json(again)).toEqual({ expires_in: 300, resend_after: 60 });
    expect(w.sent.at(-1)?.payload.to).toBe(fresh.e164);
  });

  it("the document declares 429 register_budget_reached on Register Customer", async () => {
    const refused = JSON.stringify(
      (await openApiDocument()).paths["/api/v1/customer/register/"]!.post!.responses["429"],
    );
    expect(refused).toContain("register_budget_reached");
    expect(refused).toContain("Retry-After");
  });
});
