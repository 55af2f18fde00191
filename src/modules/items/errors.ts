import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the catalogue answers with, beyond the request path's own. */
export const itemErrorCodes = defineErrorCodes({
  item_not_found: "No such item (or variant, where one is not accepted) in this store.",
  items_not_found: "Some ids of a bulk update name no item of this store; nothing was changed.",
  item_category_not_found: "No such item category in this store.",
  item_tag_not_found: "No such item tag in this store.",
  bundle_category_not_found: "No such bundle category in this store.",
  modifier_category_not_found: "No such modifier category in this store.",
  discount_not_found: "The item has no discount.",
  item_image_not_found: "No such image of the item.",
  item_category_in_use: "Items are in the category; take them out first.",
  bundle_category_in_use: "Items use the bundle category; remove it from them first.",
  modifier_category_in_use: "Items use the modifier category; remove it from them first.",
  modifier_value_in_use: "Variants use the modifier values; change them first.",
  sku_taken: "The SKU is already used in this store (SKUs are never reused).",
  discount_exists: "The item has a discount already; update it instead.",
  too_many_images: "The item has as many images as it may.",
  insufficient_stock: "Fewer units are available than asked for (`available` says how many).",
  reservation_used: "The reservation was already used by a purchase.",
  reservation_expired: "The reservation expired or the stock no longer covers it.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof itemErrorCodes> {}
}
