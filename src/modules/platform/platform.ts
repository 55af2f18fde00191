import { createRouter } from "../../core/openapi";
import { auditEventsPlatformRouter } from "./audit-events/platform";
import { organizationsPlatformRouter } from "./organizations/platform";
import { shardsPlatformRouter } from "./shards/platform";
import { storesPlatformRouter } from "./stores/platform";

/** The platform operator's routes (under /platform/v1): organizations, stores, their audit trail, and the shards. */
export const platformRouter = createRouter()
  .route("/", organizationsPlatformRouter)
  .route("/", storesPlatformRouter)
  .route("/", auditEventsPlatformRouter)
  .route("/", shardsPlatformRouter);
