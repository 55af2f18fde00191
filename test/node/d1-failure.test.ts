import { describe, expect, it } from "vitest";
import { d1FailureCause } from "../../scripts/d1";

const wranglerSaid = (error: string) => `🌀 Executing on local database DB\n\n✘ [ERROR] ${error}\n\n`;

describe("the seed's error when wrangler d1 execute fails", () => {
  it("says what wrangler said, and blames the migrations only for a missing table", () => {
    const missing = d1FailureCause(wranglerSaid("no such table: organizations: SQLITE_ERROR"));
    expect(missing).toContain("wrangler d1 execute failed: no such table: organizations");
    expect(missing).toContain("npm run db:migrate:local");

    const assertion = d1FailureCause(wranglerSaid("false == true"));
    expect(assertion).toContain("wrangler d1 execute failed: false == true");
    expect(assertion).not.toContain("db:migrate:local");
    expect(assertion).toContain("The migrations are not");
  });

  it("names the processes that hold the local D1 files", () => {
    const text = d1FailureCause(wranglerSaid("database is locked"), [{ pid: 4242, command: "workerd serve" }]);
    expect(text).toContain("kill 4242    # workerd serve");
    expect(text).toContain("locked by another writer");
  });

  it("without an [ERROR] line, the last line of the output", () => {
    expect(d1FailureCause("something\nwent wrong\n")).toBe("wrangler d1 execute failed: went wrong");
  });
});
