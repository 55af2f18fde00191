import { createRouter } from "../../core/openapi";
import { apiKeysRouter } from "./api-keys/merchant";
import { auditEventsRouter } from "./audit-events/merchant";
import { bankAccountsRouter } from "./bank-accounts/merchant";
import { organizationRouter } from "./organization/merchant";
import { merchantSettingsRouter } from "./settings/merchant";

/** The merchant account's routes (under /api/v1): settings, bank accounts, organization config, audit trail, API keys. */
export const accountMerchantRouter = createRouter()
  .route("/", merchantSettingsRouter)
  .route("/", bankAccountsRouter)
  .route("/", organizationRouter)
  .route("/", auditEventsRouter)
  .route("/", apiKeysRouter);
