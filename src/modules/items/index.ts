/** What other modules (and the app) may use of the catalogue. */

export { type CatalogueFacts, itemsForPricing, type PricedItem, readCatalogueFacts } from "./catalogue-items/pricing";
export { type Item, ItemSchema, type Variant, VariantSchema } from "./catalogue-items/schemas";
export {
  availableUnits,
  returnStockStatements,
  type StockLine,
  takeStockStatements,
} from "./catalogue-items/stock";
export { assembleItems, itemFamily, itemsJson, itemsJsonOfFamily, loadItems } from "./catalogue-items/views";
export { itemErrorCodes } from "./errors";
export { itemEvents } from "./events";
