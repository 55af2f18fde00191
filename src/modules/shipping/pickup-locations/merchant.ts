import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import {
  CreatePickupLocationSchema,
  PickupLocationListSchema,
  PickupLocationSchema,
  UpdatePickupLocationSchema,
} from "./schemas";
import {
  createPickupLocation,
  deletePickupLocation,
  listPickupLocations,
  PICKUP_LOCATION_LIST,
  pickupLocationDetails,
  updatePickupLocation,
} from "./service";

const PATH = "/merchant/shipments/pickup-locations/";

export const pickupLocationsRouter = createRouter();

/** Pickup locations (MH7): where shipments leave from and where customers collect orders. */
crudRoutes(pickupLocationsRouter, {
  names: { one: "pickup location", many: "pickup locations" },
  tag: "Pickup locations",
  collection: PATH,
  member: `${PATH}{pickup_location_id}/`,
  param: "pickup_location_id",
  notFound: "pickup_location_not_found",
  view: PickupLocationSchema,
  list: {
    operationId: "listPickupLocations",
    summary: "List Pickup Locations",
    specId: "MH7",
    permission: "can_read_shipment",
    spec: PICKUP_LOCATION_LIST,
    schema: PickupLocationListSchema,
    run: listPickupLocations,
  },
  get: {
    operationId: "pickupLocationDetails",
    summary: "Pickup Location Details",
    specId: "MH7",
    permission: "can_read_shipment",
    run: pickupLocationDetails,
  },
  create: {
    operationId: "createPickupLocation",
    summary: "Create Pickup Location",
    specId: "MH7",
    permission: "can_write_shipment",
    description: "`is_default: true` takes the default from the current one (one default per store).",
    body: CreatePickupLocationSchema,
    run: createPickupLocation,
  },
  update: {
    operationId: "updatePickupLocation",
    summary: "Update Pickup Location",
    specId: "MH7",
    permission: "can_write_shipment",
    body: UpdatePickupLocationSchema,
    run: updatePickupLocation,
  },
  remove: {
    operationId: "deletePickupLocation",
    summary: "Delete Pickup Location",
    specId: "MH7",
    permission: "can_write_shipment",
    description: "Refused (409) while it is the config's default origin or an unfinished shipment's origin.",
    errors: { 409: ["pickup_location_in_use"] },
    run: deletePickupLocation,
  },
});
