/**
 * The SDK's client: openapi-fetch over the document's types, with the store (`app-id`) and the
 * credentials given once, the customer's access token refreshed when it expires, an
 * `Idempotency-Key` on every write that takes one, safe retries, and paging.
 */
import createOpenApiClient, { type Client, type Middleware } from "openapi-fetch";
import { type Credential, IDEMPOTENT_OPERATIONS, OPERATION_CREDENTIALS } from "./operations.js";
import { type Paginated, paginator } from "./paginate.js";
import type { paths } from "./schema.js";
import { CustomerSession, type CustomerTokens } from "./session.js";

/**
 * `paths` with the named header parameters optional on each call: the client sends them, but
 * openapi-fetch's types would still ask every call for a header the document marks required.
 */
export type WithClientHeaders<P, Names extends string> = {
  [Path in keyof P]: {
    [Method in keyof P[Path]]: P[Path][Method] extends { parameters: { header: infer H } }
      ? Omit<P[Path][Method], "parameters"> & {
          parameters: Omit<P[Path][Method]["parameters"], "header"> & {
            header?: Omit<H, Names> & Partial<Pick<H, Names & keyof H>>;
          };
        }
      : P[Path][Method];
  };
};

/** The API's operations, for a client that sends `app-id` (and `org-id`) itself. */
export type SdkPaths = WithClientHeaders<paths, "app-id" | "org-id">;

export type RetryOptions = {
  /** Retries after the first try (2 unless told; 0 for none). */
  attempts?: number;
  /** How long to wait before retry `attempt` (from 1); `retryAfter` is the response's Retry-After in seconds. */
  delayMs?: (attempt: number, retryAfter: number | undefined) => number;
};

export type ClientConfig = {
  /** The API's origin, e.g. `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** The store: sent as `app-id` on every call. */
  appId: number;
  /** The organization, sent as `org-id` (the store configuration operations take it). */
  orgId?: number;
  /** A merchant API key (`cmk_…`), sent to the merchant operations. */
  merchantToken?: string;
  /** A customer's tokens (from the OTP login), sent to the customer operations and refreshed when expired. */
  customer?: CustomerTokens & { onTokens?: (tokens: CustomerTokens) => void | Promise<void> };
  /** The platform operator's key, sent to the platform operations. */
  platformKey?: string;
  /** Another fetch: a test's, a Worker's service binding, a proxy's. */
  fetch?: (request: Request) => Promise<Response>;
  retry?: RetryOptions;
};

export type SdkClient = Client<SdkPaths> & {
  /** Every item of a list, page after page (`for await (const order of client.paginate(path, init))`). */
  paginate: ReturnType<typeof paginator<SdkPaths>>;
  /** Sets (or replaces) the customer's tokens, e.g. after the OTP login; later calls use them. */
  setCustomerTokens(tokens: CustomerTokens): void;
  /** The customer's current tokens (after any refresh), or undefined before a login. */
  customerTokens(): CustomerTokens | undefined;
};

export type { CustomerTokens, Paginated };

/** Statuses worth another try when the request is safe to repeat. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

const defaultDelay = (attempt: number, retryAfter: number | undefined) =>
  retryAfter !== undefined ? Math.min(retryAfter, 30) * 1000 : Math.min(250 * 2 ** (attempt - 1), 4000);

async function problemCode(response: Response): Promise<string | undefined> {
  if (!response.headers.get("content-type")?.includes("json")) return undefined;
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === "string" ? body.code : undefined;
  } catch {
    return undefined;
  }
}

export function createClient(config: ClientConfig): SdkClient {
  const baseFetch = config.fetch ?? ((request: Request) => globalThis.fetch(request));
  const session = new CustomerSession(config.baseUrl, config.appId, baseFetch, config.customer);
  const attempts = config.retry?.attempts ?? 2;
  const delayMs = config.retry?.delayMs ?? defaultDelay;
  /** The credential each request was sent with, for the transport's refresh. */
  const credentialOf = new WeakMap<Request, Credential>();

  const headers: Middleware = {
    onRequest({ request, schemaPath }) {
      const operation = `${request.method} ${schemaPath}`;
      const h = request.headers;
      if (!h.has("app-id")) h.set("app-id", String(config.appId));
      if (config.orgId !== undefined && !h.has("org-id")) h.set("org-id", String(config.orgId));
      const credential = OPERATION_CREDENTIALS[operation];
      const token =
        credential === "merchant"
          ? config.merchantToken
          : credential === "customer"
            ? session.accessToken()
            : credential === "platform"
              ? config.platformKey
              : undefined;
      if (token && !h.has("authorization")) h.set("authorization", `Bearer ${token}`);
      if (credential) credentialOf.set(request, credential);
      // A key of the caller's own is kept; the SDK's is made once per call, so its retries repeat it.
      if (IDEMPOTENT_OPERATIONS.has(operation) && !h.has("idempotency-key")) {
        h.set("idempotency-key", crypto.randomUUID());
      }
      return request;
    },
  };

  /**
   * Sends a request, replaying it once with a new access token when the customer's has expired, and
   * retrying what is safe to repeat (a GET, or a write under its Idempotency-Key) on a network
   * failure, a 429, a 502-504 or 409 `idempotency_key_in_flight`.
   */
  async function transport(request: Request): Promise<Response> {
    const repeatable = request.method === "GET" || request.headers.has("idempotency-key");
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await baseFetch(request.clone());
      } catch (error) {
        if (!repeatable || attempt >= attempts) throw error;
        await sleep(delayMs(attempt + 1, undefined));
        continue;
      }
      if (response.status === 401 && !refreshed && credentialOf.get(request) === "customer") {
        if ((await problemCode(response)) === "token_expired") {
          refreshed = true;
          const sent = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
          const fresh = await session.freshAccessToken(sent);
          if (typeof fresh !== "string") return fresh;
          request.headers.set("authorization", `Bearer ${fresh}`);
          attempt--; // the replay is not one of the retries
          continue;
        }
      }
      const retry =
        repeatable &&
        attempt < attempts &&
        (RETRY_STATUSES.has(response.status) ||
          (response.status === 409 && (await problemCode(response)) === "idempotency_key_in_flight"));
      if (!retry) return response;
      const after = Number(response.headers.get("retry-after"));
      await response.body?.cancel();
      await sleep(delayMs(attempt + 1, Number.isFinite(after) && after >= 0 ? after : undefined));
    }
  }

  const client = createOpenApiClient<SdkPaths>({ baseUrl: config.baseUrl, fetch: transport });
  client.use(headers);
  return Object.assign(client, {
    paginate: paginator(client),
    setCustomerTokens: (tokens: CustomerTokens) => session.set(tokens),
    customerTokens: () => session.tokens(),
  });
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
