import { invalidatesPublicCache } from "../../core/cache";
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
export const catalogueMerchantRouter = createRouter();
// Every catalogue write (items, variants, stock, discounts, images, categories, modifiers, bundle
// categories, tags, config) makes the tenant's cached public reads a miss before it answers.
catalogueMerchantRouter.use("/merchant/items/*", invalidatesPublicCache());
catalogueMerchantRouter
  .route("/", modifierCategoriesRouter)
  .route("/", bundleCategoriesRouter)
  .route("/", itemCategoriesRouter)
  .route("/", itemTagsRouter)
  .route("/", itemConfigRouter)
  .route("/", catalogueItemsRouter)
  .route("/", itemDiscountsRouter)
  .route("/", itemImagesRouter);
