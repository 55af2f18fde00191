import { vi } from "vitest";

/**
 * A local fake of Google's OAuth 2 token endpoint and of FCM's HTTP v1 send, behind a `fetch`
 * stub: the token endpoint verifies the service account's JWT assertion with the public half of a
 * key pair made here, and FCM answers each device token as the test scripts it.
 */

const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const fromB64url = (s: string) =>
  Uint8Array.from(atob(s.replaceAll("-", "+").replaceAll("_", "/")), (ch) => ch.charCodeAt(0));
const decodeJson = (s: string) => JSON.parse(new TextDecoder().decode(fromB64url(s)));

let accounts = 0;

/** A service account JSON key (as Google issues them), with the public key to check its signatures. */
export async function makeServiceAccount() {
  const pair = (await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const pkcs8 = (await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer;
  const pem = `-----BEGIN PRIVATE KEY-----\n${b64(pkcs8).replace(/(.{64})/g, "$1\n")}\n-----END PRIVATE KEY-----\n`;
  accounts++;
  const clientEmail = `push-${accounts}-${Date.now()}@demo-project.iam.gserviceaccount.com`;
  const json = JSON.stringify({
    type: "service_account",
    project_id: "demo-project",
    private_key_id: `key-${accounts}`,
    private_key: pem,
    client_email: clientEmail,
    token_uri: "https://oauth2.googleapis.com/token",
  });
  return { json, clientEmail, publicKey: pair.publicKey };
}

/** How FCM answers a device token: a status and an error body, or success. */
export type FcmAnswer = { status: number; body?: unknown; headers?: Record<string, string> };

export const fcmError = (status: number, code: string, extra: object[] = []): FcmAnswer => ({
  status,
  body: {
    error: {
      code: status,
      message: code,
      status: status === 404 ? "NOT_FOUND" : status === 400 ? "INVALID_ARGUMENT" : "UNAVAILABLE",
      details: [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: code }, ...extra],
    },
  },
});

export type Sent = { token: string; title: string; body: string; data: Record<string, string> };

/**
 * Installs the fake. `answer(token, attempt)` scripts FCM (default: accepted); `expiresIn` is what
 * the token endpoint grants; `refuseGrant` makes it refuse every assertion.
 */
export function installFakeGoogle(
  account: { clientEmail: string; publicKey: CryptoKey },
  opts: {
    answer?: (token: string, attempt: number) => FcmAnswer | undefined;
    expiresIn?: number;
    refuseGrant?: boolean;
  } = {},
) {
  const sent: Sent[] = [];
  const exchanges: { header: any; claims: any }[] = [];
  const issued = new Set<string>();
  const attempts = new Map<string, number>();
  const problems: string[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url === "https://oauth2.googleapis.com/token") {
      const form = new URLSearchParams(String(init?.body));
      const [h, c, s] = (form.get("assertion") ?? "").split(".");
      const valid = await crypto.subtle.verify(
        "RSASSA-PKCS1-v1_5",
        account.publicKey,
        fromB64url(s ?? ""),
        new TextEncoder().encode(`${h}.${c}`),
      );
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") problems.push("grant_type");
      if (!valid) problems.push("signature");
      if (!valid || opts.refuseGrant) return Response.json({ error: "invalid_grant" }, { status: 400 });
      exchanges.push({ header: decodeJson(h!), claims: decodeJson(c!) });
      const token = `ya29.fake-${exchanges.length}-${Math.random().toString(36).slice(2)}`;
      issued.add(token);
      return Response.json({ access_token: token, expires_in: opts.expiresIn ?? 3599, token_type: "Bearer" });
    }
    if (url === "https://fcm.googleapis.com/v1/projects/demo-project/messages:send") {
      const auth = new Headers(init?.headers).get("authorization") ?? "";
      if (!issued.has(auth.replace(/^Bearer /, ""))) {
        return Response.json({ error: { code: 401, status: "UNAUTHENTICATED" } }, { status: 401 });
      }
      const { message } = JSON.parse(String(init?.body));
      const attempt = (attempts.get(message.token) ?? 0) + 1;
      attempts.set(message.token, attempt);
      const scripted = opts.answer?.(message.token, attempt);
      if (scripted && scripted.status !== 200) {
        return Response.json(scripted.body ?? {}, { status: scripted.status, headers: scripted.headers });
      }
      sent.push({ token: message.token, ...message.notification, data: message.data });
      return Response.json({ name: `projects/demo-project/messages/${sent.length}` });
    }
    problems.push(`unexpected fetch ${url}`);
    return new Response("not faked", { status: 599 });
  });
  return { sent, exchanges, attempts, problems, restore: () => spy.mockRestore() };
}
