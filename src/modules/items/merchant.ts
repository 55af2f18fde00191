import { createRouter } from "../../core/openapi";
import { bundleCategoriesRouter } from "./bundle-categories/merchant";
import { catalogueItemsRouter } from "./catalogue-items/merchant";
import { itemCategoriesRouter } from "./categories/merchant";
import { itemConfigRouter } from "./config/merchant";
import { itemDiscountsRouter } from "./discounts/merchant";
import { itemImagesRouter } from "./images/merchant";
import { modifierCategoriesRouter } from "./modifiers/merchant";
import { itemTagsRouter } from "./tags/merchant";

/**
 * The catalogue's merchant routes. Routes are tried in registration order, so every resource with
 * a fixed path under `/merchant/items/` (modifiers, bundle categories, categories, tags, config)
 * is mounted before the items, whose `{item_id}/` would otherwise take that path for an id.
 */
export const catalogueMerchantRouter = createRouter()
  .route("/", modifierCategoriesRouter)
  .route("/", bundleCategoriesRouter)
  .route("/", itemCategoriesRouter)
  .route("/", itemTagsRouter)
  .route("/", itemConfigRouter)
  .route("/", catalogueItemsRouter)
  .route("/", itemDiscountsRouter)
  .route("/", itemImagesRouter);
