import { describe, expect, it } from "vitest";
import { APP_1, tokenFor } from "../helpers/factories";
import { call, problem } from "../helpers/request";

/** Validation messages are plain words, and an enum error reads the same in the query and the body. */
describe("validation messages", () => {
  it("say a missing field is required, and a wrong type what it must be", async () => {
    const token = await tokenFor(APP_1, ["can_write_order"]);
    const res = await call("/order/v1/merchant/fulfillments/tickets/check-in/", {
      method: "POST",
      token,
      body: { validate_only: "yes" },
    });
    expect(res.status).toBe(400);
    const { errors } = await problem(res);
    expect(errors).toEqual({ token: ["Required."], validate_only: ["Must be true or false."] });
  });

  it("word an enum error in the body as the list query does", async () => {
    const token = await tokenFor(APP_1, ["can_read_order", "can_write_order"]);
    const inQuery = await call("/order/v1/merchant/fulfillments/tickets/?status=lost", { token });
    const inBody = await call("/order/v1/merchant/fulfillments/tickets/bulk-update/", {
      method: "POST",
      token,
      body: { ids: [1], status: "lost" },
    });
    expect(inQuery.status).toBe(400);
    expect(inBody.status).toBe(400);
    const q = (await problem(inQuery)).errors?.status;
    const b = (await problem(inBody)).errors?.status;
    expect(q?.[0]).toMatch(/^Must be one of: pending, confirmed, /);
    expect(b?.[0]).toMatch(/^Must be one of: pending, confirmed, cancelled\.$/);
  });

  it("give bounds in words", async () => {
    const token = await tokenFor(APP_1, ["can_write_order"]);
    const res = await call("/order/v1/merchant/fulfillments/tickets/bulk-update/", {
      method: "POST",
      token,
      body: { ids: [], status: "confirmed" },
    });
    expect((await problem(res)).errors?.ids).toEqual(["Give at least one item."]);
  });
});
