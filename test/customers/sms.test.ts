import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JobMessage } from "../../src/core/jobs";
import worker from "../../src/index";
import { smsJobHandler } from "../../src/modules/customers/sms/job";
import { UNIFONIC_URL } from "../../src/modules/customers/sms/senders";

const payload = { to: "966534501056", text: "Your code is 123456. It expires in 5 minutes." };
const later = () => new Date(Date.now() + 300_000).toISOString();

/** Runs the sms.send handler as the jobs queue would, with a changed env and a fetch stub. */
async function run(overrides: Partial<Env & { UNIFONIC_APP_SID: string }>, fetcher?: typeof fetch, job = payload) {
  const handler = smsJobHandler(fetcher ?? (() => Promise.reject(new Error("no network in this test"))));
  return handler(
    { ...job, expires_at: later() },
    {
      appId: 1,
      env: { ...env, ...overrides },
      ctx: createExecutionContext(),
      attempt: 1,
    },
  );
}

/** A fake of Unifonic's send endpoint: records each request and answers as told. */
function fakeUnifonic(status: number, answer: unknown) {
  const requests: Request[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    requests.push(new Request(input, init));
    return new Response(typeof answer === "string" ? answer : JSON.stringify(answer), {
      status,
      headers: { "content-type": "application/json" },
    });
  };
  return { fetcher, requests };
}

/** A form body as text (reading it with .text() makes workerd warn about its media type). */
const formOf = async (req: Request) => new TextDecoder().decode(await req.arrayBuffer());

const failures = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('"background task failed"'));

afterEach(() => vi.restoreAllMocks());

describe("sms.send with the console sender (development)", () => {
  it("prints one JSON line with the number and the text", async () => {
    const log = vi.spyOn(console, "log");
    await run({ SMS_PROVIDER: "console" });
    expect(log).toHaveBeenCalledWith(JSON.stringify({ msg: "sms", to: payload.to, text: payload.text }));
  });

  it("never prints a code in production: the failure is logged without it, and not retried", async () => {
    const log = vi.spyOn(console, "log");
    const error = vi.spyOn(console, "error");
    await run({ SMS_PROVIDER: "console", ENVIRONMENT: "production" });
    expect(log.mock.calls.flat().join("\n")).not.toContain("123456");
    expect(failures(error)).toHaveLength(1);
    expect(error.mock.calls.flat().join("\n")).not.toContain("123456");
  });

  it("drops a message whose code has expired", async () => {
    const log = vi.spyOn(console, "log");
    const error = vi.spyOn(console, "error");
    const handler = smsJobHandler();
    await handler(
      { ...payload, expires_at: new Date(Date.now() - 1000).toISOString() },
      { appId: 1, env, ctx: createExecutionContext(), attempt: 3 },
    );
    expect(log.mock.calls.flat().join("\n")).not.toContain('"msg":"sms"');
    expect(failures(error)[0]).toContain("expired");
  });

  it("refuses an unknown provider name with a logged failure", async () => {
    const error = vi.spyOn(console, "error");
    await run({ SMS_PROVIDER: "pigeon" });
    expect(failures(error)[0]).toContain("pigeon");
  });
});

describe("sms.send with the Unifonic adapter, against a fake of its API", () => {
  const unifonic = { SMS_PROVIDER: "unifonic", UNIFONIC_APP_SID: "app-sid-123", UNIFONIC_SENDER_ID: "DemoStore" };
  const sent = {
    success: true,
    message: "",
    errorCode: "ER-00",
    data: { MessageID: 42000348806924, Status: "Sent", NumberOfUnits: 1, Recipient: payload.to },
  };

  it("POSTs the documented form to the REST SMS endpoint", async () => {
    const fake = fakeUnifonic(200, sent);
    await run(unifonic, fake.fetcher);
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.url).toBe("https://el.cloud.unifonic.com/rest/SMS/messages");
    expect(req.url).toBe(UNIFONIC_URL);
    expect(req.method).toBe("POST");
    expect(req.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(req.headers.get("accept")).toBe("application/json");
    const form = Object.fromEntries(new URLSearchParams(await formOf(req)));
    expect(form).toEqual({
      AppSid: "app-sid-123",
      SenderID: "DemoStore",
      Recipient: "966534501056",
      Body: payload.text,
      responseType: "JSON",
      MessageType: "3",
    });
  });

  it("leaves SenderID out when none is set (the account's default sender)", async () => {
    const fake = fakeUnifonic(200, sent);
    await run({ ...unifonic, UNIFONIC_SENDER_ID: "" }, fake.fetcher);
    expect(new URLSearchParams(await formOf(fake.requests[0]!)).has("SenderID")).toBe(false);
  });

  it("gives up on what retrying cannot fix (an invalid number), logging its error code", async () => {
    const error = vi.spyOn(console, "error");
    const fake = fakeUnifonic(200, { success: false, message: "Dest num is too short", errorCode: "ER-04", data: {} });
    await expect(run(unifonic, fake.fetcher)).resolves.toBeUndefined();
    expect(failures(error)[0]).toContain("ER-04");
    expect(error.mock.calls.flat().join("\n")).not.toContain("123456");
  });

  it("throws what may pass (no balance, a 5xx, an answer that is not JSON), so that the queue retries", async () => {
    await expect(
      run(unifonic, fakeUnifonic(200, { success: false, message: "No rate", errorCode: "ER-01", data: {} }).fetcher),
    ).rejects.toThrow(/ER-01/);
    await expect(run(unifonic, fakeUnifonic(503, "unavailable").fetcher)).rejects.toThrow(/503/);
    await expect(run(unifonic, fakeUnifonic(200, "<html>").fetcher)).rejects.toThrow(/without JSON/);
  });

  it("refuses to send without its credential, with a logged failure and no request", async () => {
    const error = vi.spyOn(console, "error");
    const fake = fakeUnifonic(200, sent);
    await run({ SMS_PROVIDER: "unifonic", UNIFONIC_APP_SID: "" }, fake.fetcher);
    expect(fake.requests).toEqual([]);
    expect(failures(error)[0]).toContain("UNIFONIC_APP_SID");
  });
});

describe("the Worker's jobs queue", () => {
  it("hands sms.send to its handler and acknowledges it", async () => {
    const log = vi.spyOn(console, "log");
    const acked: string[] = [];
    const message: Message<JobMessage> = {
      id: "m1",
      timestamp: new Date(),
      attempts: 1,
      body: { kind: "job", job: "sms.send", app_id: 1, payload: { ...payload, expires_at: later() } },
      ack: () => void acked.push("m1"),
      retry: () => undefined,
    };
    const batch: MessageBatch<JobMessage> = {
      queue: "commerce-jobs",
      metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } },
      messages: [message],
      ackAll: () => undefined,
      retryAll: () => undefined,
    };
    await worker.queue(batch, env, createExecutionContext());
    expect(acked).toEqual(["m1"]);
    expect(log).toHaveBeenCalledWith(JSON.stringify({ msg: "sms", to: payload.to, text: payload.text }));
  });
});
