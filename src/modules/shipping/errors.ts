import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the shipping module answers with, beyond the request path's own. */
export const shippingErrorCodes = defineErrorCodes({
  courier_not_found: "No courier of this store has that id.",
  courier_not_custom: "The courier is an integrated carrier's: it is read-only (only custom couriers change).",
  courier_in_use: "The courier carries shipments that are not finished; finish or cancel them first.",
  courier_unavailable: "The courier is inactive, not enabled, or does not cover the destination.",
  pickup_location_not_found: "No pickup location of this store has that id.",
  pickup_location_in_use: "The pickup location is the default origin or an open shipment's origin.",
  shipment_not_found: "No shipment of this store has that id.",
  shipping_label_not_found: "No shipping label of this store has that id.",
  fulfillment_not_shippable:
    "A fulfillment is of another order, already shipped, or not in a status that ships (a shipment holding a cancelled one gets no label).",
  shipment_not_returnable: "Only a delivered forward shipment's fulfillments can be returned, each once.",
  carrier_error: "The carrier refused the request or did not answer; nothing was changed.",
  webhook_signature_invalid: "The carrier webhook's signature is missing or wrong; nothing was changed.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof shippingErrorCodes> {}
}
