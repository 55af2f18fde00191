/**
 * The SDK's webhook verification for receivers, on Node 20's WebCrypto: deliveries signed by the
 * reference Standard Webhooks library (the same scheme the API's deliveries use) verify; a changed
 * body, another secret, a stale timestamp or missing headers do not. The API's own signing is checked
 * against it in test/sdk/purchase.test.ts.
 */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "../../sdk/src/index.js";

const secret = `whsec_${btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i * 7)))}`;
const other = `whsec_${btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => 255 - i)))}`;
const body = JSON.stringify({ event: "order.paid", app_id: 1, data: { id: 12, total_amount: 20.66 } });
const now = 1_800_000_000;

function signed(withSecret: string, at = now, payload = body) {
  const id = "evt_1.1";
  return {
    "webhook-id": id,
    "webhook-timestamp": String(at),
    "webhook-signature": new Webhook(withSecret).sign(id, new Date(at * 1000), payload),
  };
}

describe("verifyWebhook", () => {
  it("answers the parsed payload of a delivery signed with the secret (headers as a Headers or a plain object, body as text or bytes)", async () => {
    const headers = signed(secret);
    expect(await verifyWebhook(secret, headers, body, { now })).toEqual(JSON.parse(body));
    expect(await verifyWebhook(secret, new Headers(headers), new TextEncoder().encode(body), { now })).toEqual(
      JSON.parse(body),
    );
    // Node's IncomingHttpHeaders: lower-case names, as Express and node:http give them.
    expect(await verifyWebhook(secret, { ...headers }, body, { now: now + 299 })).toMatchObject({
      event: "order.paid",
    });
  });

  it("accepts any matching signature of several (a secret being rotated signs beside the new one)", async () => {
    const both = `${signed(other)["webhook-signature"]} ${signed(secret)["webhook-signature"]}`;
    const headers = { ...signed(secret), "webhook-signature": both };
    expect(await verifyWebhook(secret, headers, body, { now })).toMatchObject({ app_id: 1 });
    expect(await verifyWebhook(other, headers, body, { now })).toMatchObject({ app_id: 1 });
  });

  it.each([
    ["another secret", () => verifyWebhook(other, signed(secret), body, { now }), /No signature matches/],
    [
      "a changed body",
      () => verifyWebhook(secret, signed(secret), body.replace("20.66", "0.01"), { now }),
      /No signature matches/,
    ],
    [
      "a timestamp 5 min 1 s old",
      () => verifyWebhook(secret, signed(secret), body, { now: now + 301 }),
      /more than 300 s/,
    ],
    [
      "a timestamp from the future",
      () => verifyWebhook(secret, signed(secret, now + 400), body, { now }),
      /more than 300 s/,
    ],
    [
      "a signature of another version",
      () =>
        verifyWebhook(
          secret,
          { ...signed(secret), "webhook-signature": signed(secret)["webhook-signature"].replace("v1,", "v2,") },
          body,
          { now },
        ),
      /No signature matches/,
    ],
    [
      "a signature that is not base64",
      () => verifyWebhook(secret, { ...signed(secret), "webhook-signature": "v1,***" }, body, { now }),
      /No signature matches/,
    ],
    [
      "no webhook-id",
      () => verifyWebhook(secret, { ...signed(secret), "webhook-id": undefined }, body, { now }),
      /are required/,
    ],
    [
      "a timestamp in milliseconds' form",
      () => verifyWebhook(secret, { ...signed(secret), "webhook-timestamp": "1.8e9" }, body, { now }),
      /not a number/,
    ],
    [
      "a secret that is not base64",
      () => verifyWebhook("whsec_!!", signed(secret), body, { now }),
      /not a whsec_ secret/,
    ],
  ])("refuses %s", async (_, verify, message) => {
    const error = await verify().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as Error).message).toMatch(message);
  });

  it("checks the clock when no `now` is given", async () => {
    const at = Math.floor(Date.now() / 1000);
    expect(await verifyWebhook(secret, signed(secret, at), body)).toMatchObject({ event: "order.paid" });
    await expect(verifyWebhook(secret, signed(secret, at - 3600), body)).rejects.toThrow(/more than 300 s/);
  });
});
