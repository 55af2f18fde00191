import { createRouter } from "../../core/openapi";

/** The customer app's account routes (under /api/v1/customer), one router per resource. */
export const customerAccountRouter = createRouter();
