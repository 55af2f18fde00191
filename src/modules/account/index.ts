/** What the app and other modules may use of the merchant account. */

export {
  ApiKeyWithSecretSchema,
  type IssueApiKey,
  IssueApiKeySchema,
} from "./api-keys/schemas";
export { issueApiKey, type KeyIssuer } from "./api-keys/service";
export { type AuditEvent, AuditEventListSchema, AuditEventSchema } from "./audit-events/schemas";
export {
  auditEventView,
  getPlatformAuditEvent,
  listPlatformAuditEvents,
  PLATFORM_AUDIT_EVENT_LIST,
} from "./audit-events/service";
export { defaultBankAccount } from "./bank-accounts/service";
export { accountErrorCodes } from "./errors";
export { accountEvents } from "./events";
export {
  type StoreIdentity,
  storeIdentitiesFromJson,
  storeIdentitiesJson,
  storeIdentitiesOf,
  storeIdentitiesQuery,
} from "./settings/identities";
export { MerchantSettingsSchema, nationalAddressFields, SettingsFieldsSchema, vatNumber } from "./settings/schemas";
export {
  type InitialSettings,
  initialStoreSettings,
  readStoreSettings,
  type StoreSettings,
  settingsView,
  storeCurrencySql,
  storeSettingsOf,
  storeSettingsQuery,
} from "./settings/service";
