import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSecret, sign, signatureHeader } from "../../src/modules/webhooks/signing";
import { refuseTarget } from "../../src/modules/webhooks/target";

describe("Standard Webhooks signing", () => {
  // The test vector of the Standard Webhooks specification and its reference libraries.
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it("matches the specification's test vector", async () => {
    expect(await sign(secret, id, timestamp, body)).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it(
    "is verified by the standardwebhooks library, one signature per secret while a rotated " + "one still signs",
    async () => {
      const fresh = newSecret();
      expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(atob(fresh.slice(6))).toHaveLength(32);
      const now = Math.floor(Date.now() / 1000);
      const header = await signatureHeader([fresh, secret], id, now, body);
      expect(header.split(" ")).toHaveLength(2);
      const headers = { "webhook-id": id, "webhook-timestamp": String(now), "webhook-signature": header };
      expect(new Webhook(fresh).verify(body, headers)).toEqual(JSON.parse(body));
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
      expect(() => new Webhook(fresh).verify(`${body} `, headers)).toThrow();
    },
  );
});

describe("webhook targets", () => {
  const strict = { allowLocalhost: false };
  it.each([
    "https://hooks.example.org/in",
    "https://api.shop.sa:8443/webhooks?x=1",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
  ])("accepts %s", (url) => expect(refuseTarget(url, strict)).toBeNull());

  it.each([
    ["http://hooks.example.org/in", /https/],
    ["ftp://hooks.example.org/in", /https/],
    ["not a url", /absolute/],
    ["https://user:pw@hooks.example.org/", /credentials/],
    ["https://localhost/hook", /public host/],
    ["https://api.localhost/hook", /public host/],
    ["https://printer.local/hook", /public host/],
    ["https://intranet/hook", /public host/],
    ["https://127.0.0.1/hook", /public address/],
    ["https://10.1.2.3/hook", /public address/],
    ["https://172.20.0.1/hook", /public address/],
    ["https://192.168.1.10/hook", /public address/],
    ["https://169.254.169.254/latest/meta-data", /public address/],
    ["https://100.64.0.1/hook", /public address/],
    ["https://0.0.0.0/hook", /public address/],
    ["https://224.0.0.1/hook", /public address/],
    ["https://[::1]/hook", /IPv6/],
    ["https://[fd00::1]/hook", /IPv6/],
    ["https://[fe80::1]/hook", /IPv6/],
    ["https://[::ffff:127.0.0.1]/hook", /IPv6/],
    ["https://2130706433/hook", /public address|dotted/],
    ["https://0x7f000001/hook", /public address|dotted/],
  ])("refuses %s", (url, why) => expect(refuseTarget(url, strict)).toMatch(why));

  it("allows http to localhost only with the local-development setting", () => {
    const dev = { allowLocalhost: true };
    expect(refuseTarget("http://localhost:9999/in", dev)).toBeNull();
    expect(refuseTarget("http://127.0.0.1:9999/in", dev)).toBeNull();
    expect(refuseTarget("http://10.0.0.1/in", dev)).toMatch(/https/);
    expect(refuseTarget("http://localhost:9999/in", strict)).toMatch(/https/);
  });
});
