import { createRouter } from "../../core/openapi";
import { bankAccountsRouter } from "./bank-accounts/merchant";
import { organizationRouter } from "./organization/merchant";
import { merchantSettingsRouter } from "./settings/merchant";

/** The merchant account's routes (under /api/v1): settings, bank accounts, organization config. */
export const accountMerchantRouter = createRouter()
  .route("/", merchantSettingsRouter)
  .route("/", bankAccountsRouter)
  .route("/", organizationRouter);
