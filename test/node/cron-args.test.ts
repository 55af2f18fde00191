import { describe, expect, it } from "vitest";
import { parseCronArgs } from "../../scripts/cron";
import { SCHEDULED_TASKS } from "../../src/scheduled-tasks";

describe("npm run cron's arguments", () => {
  it("no argument: every task; a task's name: that one", () => {
    expect(parseCronArgs([])).toEqual({ task: null });
    expect(parseCronArgs(["expire-unpaid-orders"])).toEqual({ task: "expire-unpaid-orders" });
  });

  it("an unknown name is refused with the list of the tasks", () => {
    const got = parseCronArgs(["expire-orders"]);
    expect(got).toHaveProperty("error");
    const error = (got as { error: string }).error;
    expect(error).toContain('no task named "expire-orders"');
    for (const task of SCHEDULED_TASKS) expect(error).toContain(task);
  });

  it("two names are refused; --help lists the tasks", () => {
    expect(parseCronArgs(["resend-outbox", "expire-unpaid-orders"])).toHaveProperty("error");
    const help = (parseCronArgs(["--help"]) as { help: string }).help;
    for (const task of SCHEDULED_TASKS) expect(help).toContain(task);
  });
});
