import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSecret, sign, signatureHeader } from "../../src/modules/webhooks/signing";

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
