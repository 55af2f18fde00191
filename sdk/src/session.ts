/**
 * A customer's tokens: a 15-minute access token and a refresh token that is replaced on every
 * refresh (sending a replaced one again revokes the login). Calls that find the access token expired
 * at once share ONE refresh: a second would send the replaced refresh token.
 */
import type { paths } from "./schema.js";

export type CustomerTokens = { accessToken: string; refreshToken: string };

const REFRESH_PATH = "/api/v1/customer/auth/token/refresh/" satisfies keyof paths;
type TokenPair = paths[typeof REFRESH_PATH]["post"]["responses"][200]["content"]["application/json"];

export class CustomerSession {
  #tokens: CustomerTokens | undefined;
  #refreshing: Promise<string | Response> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly appId: number,
    private readonly fetch: (request: Request) => Promise<Response>,
    private readonly options?: CustomerTokens & { onTokens?: (tokens: CustomerTokens) => void | Promise<void> },
  ) {
    if (options) this.#tokens = { accessToken: options.accessToken, refreshToken: options.refreshToken };
  }

  accessToken(): string | undefined {
    return this.#tokens?.accessToken;
  }

  tokens(): CustomerTokens | undefined {
    return this.#tokens && { ...this.#tokens };
  }

  set(tokens: CustomerTokens): void {
    this.#tokens = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
  }

  /**
   * An access token newer than `stale`: the current one when another call already refreshed it,
   * else the one a refresh answers. A refused refresh answers its own response (401
   * `token_revoked`, …), which the call that needed it answers in turn.
   */
  async freshAccessToken(stale: string): Promise<string | Response> {
    const current = this.#tokens?.accessToken;
    if (current && current !== stale && !this.#refreshing) return current;
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = undefined;
    });
    const fresh = await this.#refreshing;
    // Each waiter its own copy of a refusal: a body is read once.
    return typeof fresh === "string" ? fresh : fresh.clone();
  }

  async #refresh(): Promise<string | Response> {
    const refreshToken = this.#tokens?.refreshToken;
    if (!refreshToken) throw new Error("The customer's access token expired and there is no refresh token.");
    const response = await this.fetch(
      new Request(new URL(REFRESH_PATH, this.baseUrl), {
        method: "POST",
        headers: { "app-id": String(this.appId), "content-type": "application/json" },
        body: JSON.stringify({ refresh_token: refreshToken }),
      }),
    );
    if (!response.ok) return response;
    const pair = (await response.json()) as TokenPair;
    this.#tokens = { accessToken: pair.access_token, refreshToken: pair.refresh_token };
    await this.options?.onTokens?.({ ...this.#tokens });
    return pair.access_token;
  }
}
