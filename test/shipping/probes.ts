import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the shipping module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    // Shipping (C1–C7, MH1, MH4–MH7): B's courier, pickup location and shipment, by id or in a body.
    listCouriers: (f) => ({ query: `?id=${f.commerce.bShipping.courier}` }),
    courierDetails: (f) => ({ path: { courier_id: String(f.commerce.bShipping.courier) } }),
    updateCustomCourier: (f) => ({
      path: { courier_id: String(f.commerce.bShipping.courier) },
      body: { name_en: "x" },
    }),
    deleteCustomCourier: (f) => ({ path: { courier_id: String(f.commerce.bShipping.courier) } }),
    getActiveCouriers: () => ({ body: { city_id: 1 } }),
    getCouriersPrices: (f) => ({
      body: {
        origin: { pickup_location_id: f.commerce.bShipping.pickupLocation },
        destination: { city_id: 1 },
        packages: [{ weight: 1, length: 10, width: 10, height: 10 }],
        courier_ids: [f.commerce.bShipping.courier],
      },
    }),
    createCustomCourier: () => ({ body: { name_en: "V", name_ar: "ف", coverage: { cities: [1] } } }),
    shippingConfig: () => ({}),
    updateShippingConfig: (f) => ({ body: { default_pickup_location_id: f.commerce.bShipping.pickupLocation } }),
    listPickupLocations: (f) => ({ query: `?id=${f.commerce.bShipping.pickupLocation}` }),
    pickupLocationDetails: (f) => ({ path: { pickup_location_id: String(f.commerce.bShipping.pickupLocation) } }),
    createPickupLocation: () => ({
      body: { name_en: "W", name_ar: "م", location: { address1: "x", lat: 24.7, lng: 46.7 }, city_id: 1 },
    }),
    updatePickupLocation: (f) => ({
      path: { pickup_location_id: String(f.commerce.bShipping.pickupLocation) },
      body: { name_en: "x" },
    }),
    deletePickupLocation: (f) => ({ path: { pickup_location_id: String(f.commerce.bShipping.pickupLocation) } }),
    listShipments: (f) => ({ query: `?id=${f.commerce.bShipping.shipment}` }),
    shipmentDetails: (f) => ({ path: { shipment_id: String(f.commerce.bShipping.shipment) } }),
    createShipment: (f) => ({
      body: { fulfillment_ids: [f.commerce.bFulfillment], courier_id: f.commerce.bShipping.courier },
    }),
    cancelShipment: (f) => ({ path: { shipment_id: String(f.commerce.bShipping.shipment) } }),
    createReturnShipment: (f) => ({ path: { shipment_id: String(f.commerce.bShipping.shipment) }, body: {} }),
    updateShipmentStatus: (f) => ({
      path: { shipment_id: String(f.commerce.bShipping.shipment) },
      body: { status: "picked_up" },
    }),
    listMyPickupLocations: (f) => ({ query: `?id=${f.commerce.bShipping.pickupLocation}` }),
    listShippingLabels: (f) => ({ query: `?id=${f.commerce.bShipping.label}` }),
    purchaseShippingLabels: (f) => ({ body: { shipment_ids: [f.commerce.bShipping.shipment] } }),
    getShippingLabelPdf: (f) => ({ path: { label_id: String(f.commerce.bShipping.label) } }),
  },
  otherCustomer: {
    listMyPickupLocations: () => ({}),
  },
};
