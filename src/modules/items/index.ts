/** What other modules (and the app) may use of the catalogue. */
export { type Item, ItemSchema, type Variant, VariantSchema } from "./catalogue-items/schemas";
export { loadItems } from "./catalogue-items/views";
export { itemErrorCodes } from "./errors";
export { itemEvents } from "./events";
export { catalogueMerchantRouter } from "./merchant";
