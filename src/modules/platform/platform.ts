import { createRouter } from "../../core/openapi";
import { auditEventsPlatformRouter } from "./audit-events/platform";
import { organizationsPlatformRouter } from "./organizations/platform";
import { storesPlatformRouter } from "./stores/platform";

/** The platform operator's routes (under /platform/v1): organizations, stores, and their audit trail. */
export const platformRouter = createRouter()
  .route("/", organizationsPlatformRouter)
  .route("/", storesPlatformRouter)
  .route("/", auditEventsPlatformRouter);
