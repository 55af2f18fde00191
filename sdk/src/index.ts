/** The Commerce and Meals API's SDK: see README.md's "SDK" section. */
export {
  type ClientConfig,
  createClient,
  type RetryOptions,
  type SdkClient,
  type SdkPaths,
  type WithClientHeaders,
} from "./client.js";
export type { Credential, ErrorCode } from "./operations.js";
export type { ItemOf, ListPath, PageOf, Paginated } from "./paginate.js";
export { ApiProblem, type ClientErrorCode, isProblem, unwrap } from "./problem.js";
export type { components, operations, paths } from "./schema.js";
export type { CustomerTokens } from "./session.js";
export { type VerifyOptions, verifyWebhook, type WebhookHeaders, WebhookVerificationError } from "./webhooks.js";
