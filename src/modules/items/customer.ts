import { createRouter } from "../../core/openapi";
import { catalogueBrowseRouter } from "./browse/public";

/** The customer app's catalogue routes (under /order/v1): public reads of the store's items and categories. */
export const catalogueCustomerRouter = createRouter().route("/", catalogueBrowseRouter);
