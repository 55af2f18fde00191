import { createRouter } from "../../core/openapi";
import { organizationsPlatformRouter } from "./organizations/platform";
import { storesPlatformRouter } from "./stores/platform";

/** The platform operator's routes (under /platform/v1): organizations and stores. */
export const platformRouter = createRouter().route("/", organizationsPlatformRouter).route("/", storesPlatformRouter);
