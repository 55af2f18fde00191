import { base64url } from "../../../core/crypto";
import type { Pusher, PushMessage, PushOutcome } from "./types";

/**
 * The Firebase Cloud Messaging HTTP v1 adapter: `POST {FCM}/v1/projects/{project_id}/messages:send`
 * with an OAuth 2 access token that the Worker obtains itself, as a service account: a JWT
 * assertion signed RS256 with the account's private key (WebCrypto), exchanged at Google's token
 * endpoint (RFC 7523 `jwt-bearer` grant). The access token is kept in the isolate until a minute
 * before it expires, so a batch of pushes costs one exchange at most.
 */

export const OAUTH_TOKEN_URL = "https://oauth2.googleapis.com/token";
export const FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
export const fcmSendUrl = (projectId: string) =>
  `https://fcm.googleapis.com/v1/projects/${encodeURIComponent(projectId)}/messages:send`;

/** Google issues one-hour tokens; the assertion asks for as much. */
const ASSERTION_TTL_S = 3600;
/** A cached access token is replaced this long before it expires, so none is used as it lapses. */
const REFRESH_MARGIN_MS = 60_000;

export type ServiceAccount = { projectId: string; clientEmail: string; privateKey: string; privateKeyId?: string };

/** The fields of a service account's JSON key that the adapter needs; throws when one is missing. */
export function parseServiceAccount(json: string): ServiceAccount {
  let key: Record<string, unknown>;
  try {
    key = JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw new Error("FCM_SERVICE_ACCOUNT is not JSON: give the service account's JSON key");
  }
  const { project_id, client_email, private_key, private_key_id } = key;
  if (typeof project_id !== "string" || typeof client_email !== "string" || typeof private_key !== "string") {
    throw new Error("FCM_SERVICE_ACCOUNT lacks project_id, client_email or private_key");
  }
  return {
    projectId: project_id,
    clientEmail: client_email,
    privateKey: private_key,
    ...(typeof private_key_id === "string" && { privateKeyId: private_key_id }),
  };
}

const encoder = new TextEncoder();
const b64json = (value: unknown) => base64url(encoder.encode(JSON.stringify(value)));

function pemToDer(pem: string): Uint8Array {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  return Uint8Array.from(atob(body), (ch) => ch.charCodeAt(0));
}

/** The service account's JWT assertion: RS256 over `header.claims`, the claims Google's token endpoint asks for. */
export async function signAssertion(sa: ServiceAccount, nowS = Math.floor(Date.now() / 1000)): Promise<string> {
  const header = { alg: "RS256", typ: "JWT", ...(sa.privateKeyId && { kid: sa.privateKeyId }) };
  const claims = {
    iss: sa.clientEmail,
    scope: FCM_SCOPE,
    aud: OAUTH_TOKEN_URL,
    iat: nowS,
    exp: nowS + ASSERTION_TTL_S,
  };
  const input = `${b64json(header)}.${b64json(claims)}`;
  const key = await crypto.subtle.importKey(
    "pkcs8",
    pemToDer(sa.privateKey),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, encoder.encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}

type AccessToken = { token: string; expiresAtMs: number };

/** Access tokens by service account, as promises: concurrent pushes share one exchange. */
const accessTokens = new Map<string, Promise<AccessToken>>();
const cacheKey = (sa: ServiceAccount) => `${sa.clientEmail}/${sa.privateKeyId ?? ""}`;

async function exchangeAssertion(sa: ServiceAccount): Promise<AccessToken> {
  const res = await fetch(OAUTH_TOKEN_URL, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: await signAssertion(sa),
    }),
  });
  const body = (await res.json().catch(() => ({}))) as {
    access_token?: unknown;
    expires_in?: unknown;
    error?: unknown;
  };
  if (!res.ok || typeof body.access_token !== "string") {
    // Google's `error` is a code such as `invalid_grant`: safe to log, unlike the body's other text.
    throw new Error(`FCM credentials refused by the token endpoint (${res.status} ${String(body.error ?? "")})`);
  }
  const ttlS = typeof body.expires_in === "number" ? body.expires_in : ASSERTION_TTL_S;
  return { token: body.access_token, expiresAtMs: Date.now() + ttlS * 1000 };
}

/** The cached access token, or a new one when it is missing or about to expire. */
async function accessToken(sa: ServiceAccount): Promise<string> {
  const key = cacheKey(sa);
  const cached = accessTokens.get(key);
  if (cached) {
    const current = await cached.catch(() => null);
    if (current && current.expiresAtMs - REFRESH_MARGIN_MS > Date.now()) return current.token;
    if (accessTokens.get(key) !== cached) return accessToken(sa); // another push already renewed it
  }
  const fresh = exchangeAssertion(sa);
  accessTokens.set(key, fresh);
  fresh.catch(() => accessTokens.get(key) === fresh && accessTokens.delete(key));
  return (await fresh).token;
}

type FcmErrorBody = {
  error?: {
    status?: string;
    message?: string;
    details?: { "@type"?: string; errorCode?: string; fieldViolations?: { field?: string }[] }[];
  };
};

/** Seconds of a `Retry-After` header (seconds or an HTTP date), when there is one. */
function retryAfterOf(res: Response): number | undefined {
  const raw = res.headers.get("retry-after");
  if (!raw) return undefined;
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Math.ceil((Date.parse(raw) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * What FCM's answer means for the token (FCM's error codes): `UNREGISTERED` (404) and
 * `SENDER_ID_MISMATCH` (403) say the token is dead for this project, and so does an
 * `INVALID_ARGUMENT` (400) that names no field but the token (a malformed payload names its
 * field in a `google.rpc.BadRequest` detail); 429 and 5xx are worth a retry.
 */
export function classifyFcmError(status: number, body: FcmErrorBody, retryAfterS?: number): PushOutcome {
  const details = body.error?.details ?? [];
  const code = details.find((d) => d.errorCode)?.errorCode ?? body.error?.status ?? String(status);
  const fields = details.flatMap((d) => d.fieldViolations ?? []).map((v) => v.field ?? "");
  if (code === "UNREGISTERED" || code === "SENDER_ID_MISMATCH" || status === 404) {
    return { status: "invalid_token", reason: code };
  }
  if (code === "INVALID_ARGUMENT") {
    const payloadFields = fields.filter((f) => f !== "message.token");
    return payloadFields.length
      ? { status: "failed", reason: `INVALID_ARGUMENT ${payloadFields.join(", ")}` }
      : { status: "invalid_token", reason: code };
  }
  if (status === 429 || status >= 500) {
    return { status: "retry", reason: code, ...(retryAfterS !== undefined && { retryAfterS }) };
  }
  return { status: "failed", reason: code };
}

/** The FCM pusher of one service account. */
export function fcmPusher(sa: ServiceAccount): Pusher {
  return {
    async send(message: PushMessage): Promise<PushOutcome> {
      const token = await accessToken(sa);
      let res: Response;
      try {
        res = await fetch(fcmSendUrl(sa.projectId), {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({
            message: {
              token: message.token,
              notification: { title: message.title, body: message.body },
              data: message.data,
            },
          }),
        });
      } catch (error) {
        return { status: "retry", reason: `network: ${(error as Error).message ?? "error"}` };
      }
      if (res.ok) return { status: "sent" };
      const body = (await res.json().catch(() => ({}))) as FcmErrorBody;
      if (res.status === 401 && body.error?.status === "UNAUTHENTICATED") {
        // Our access token was refused: forget it, so that the retry exchanges a new one.
        accessTokens.delete(cacheKey(sa));
        return { status: "retry", reason: "UNAUTHENTICATED" };
      }
      return classifyFcmError(res.status, body, retryAfterOf(res));
    },
  };
}
