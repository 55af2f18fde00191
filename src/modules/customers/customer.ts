import { createRouter } from "../../core/openapi";
import { customerAuthRouter } from "./auth/public";
import { fcmTokensCustomerRouter } from "./fcm-tokens/customer";
import { supportedCitiesPublicRouter } from "./geography/public";
import { myLocationsCustomerRouter } from "./my-locations/customer";
import { notificationsCustomerRouter } from "./notifications/customer";
import { profileCustomerRouter } from "./profile/customer";

/** The customer app's account routes (under /api/v1/customer), one router per resource. */
export const customerAccountRouter = createRouter();
customerAccountRouter.route("/", supportedCitiesPublicRouter);
customerAccountRouter.route("/", customerAuthRouter);
customerAccountRouter.route("/", profileCustomerRouter);
customerAccountRouter.route("/", fcmTokensCustomerRouter);
customerAccountRouter.route("/", myLocationsCustomerRouter);
customerAccountRouter.route("/", notificationsCustomerRouter);
