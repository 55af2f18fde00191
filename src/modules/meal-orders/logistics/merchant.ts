import { invalidatesPublicCache } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { crudRoutes } from "../../../core/crud/routes";
import { ApiError } from "../../../core/errors";
import { envelopeOf, listQueryOf, listQuerySchema, parseListQuery } from "../../../core/listing";
import { createRouter, jsonBody, jsonContent, z } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { CITY_LIST } from "../../customers";
import { getBranch, listStoreBranches, STORE_BRANCH_LIST, SUPPORTED_WINDOW_LIST } from "../../meals";
import { listLogisticsCities, listSupportedWindows } from "./areas";
import { createLogisticsBranch, deleteLogisticsBranch, updateLogisticsBranch } from "./branches";
import { bulkUpdateSuborders } from "./bulk";
import { CAPTAIN_LIST, createCaptain, deleteCaptain, getCaptain, listCaptains, updateCaptain } from "./captains";
import { kitchenDay } from "./kitchen-day";
import {
  BranchSchema,
  BulkSuborderResultSchema,
  BulkUpdateSubordersSchema,
  CaptainListSchema,
  CaptainSchema,
  CreateCaptainSchema,
  CreateLogisticsBranchSchema,
  KitchenDayQuery,
  KitchenDaySchema,
  LogisticsBranchListSchema,
  LogisticsCityListSchema,
  SupportedWindowListSchema,
  SupportedWindowsQuery,
  UpdateCaptainSchema,
  UpdateLogisticsBranchSchema,
} from "./schemas";

/**
 * Meals logistics (ML1-ML6, design-reference 12) under /api/v1/logistics/, and the kitchen's day.
 * Suborders are orders: reads take `can_read_order`, writes `can_write_order`, captains and
 * branches included, so that one dispatcher's token runs the whole board.
 */

const BASE = "/logistics/";
const tag = "Meals admin: logistics";
const tags = [tag];
const read = "can_read_order" as const;
const write = "can_write_order" as const;

export const logisticsMerchantRouter = createRouter();
// A branch write changes what the public restaurant and provider reads show.
logisticsMerchantRouter.use(`${BASE}branches/*`, invalidatesPublicCache());

const citiesRoute = merchantRoute({
  method: "get",
  path: `${BASE}cities/`,
  operationId: "listLogisticsCities",
  summary: "Logistics City",
  specId: "ML1",
  tags,
  permission: read,
  description:
    "The cities the store delivers in: those of its restaurants' delivery zones and branches, each with " +
    "`is_supported` and the store's zones in it (id, name, polygon, restaurant). Filters and search of the " +
    "city list.",
  request: { query: listQuerySchema(CITY_LIST) },
  responses: { 200: jsonContent(LogisticsCityListSchema, "A page of cities with their zones.") },
});

const WINDOW_PARAMS = Object.keys(SupportedWindowsQuery);
const WindowPoint = z.object(SupportedWindowsQuery);

/** The window list's own parameters; an unknown one is told this operation's too. */
function windowListQuery(params: URLSearchParams) {
  try {
    return parseListQuery(params, SUPPORTED_WINDOW_LIST);
  } catch (e) {
    if (!(e instanceof ApiError) || !e.extra.errors) throw e;
    const errors = Object.fromEntries(
      Object.entries(e.extra.errors).map(([k, ms]) => [
        k,
        ms.map((m) => m.replace("Allowed: ", `Allowed: ${WINDOW_PARAMS.join(", ")}, `)),
      ]),
    );
    throw ApiError.validation(errors, e.detail);
  }
}

const windowsRoute = merchantRoute({
  method: "get",
  path: `${BASE}supported-windows/`,
  operationId: "listSupportedWindows",
  summary: "Supported Windows",
  specId: "ML4",
  tags,
  permission: read,
  description:
    "The delivery windows of the restaurants (active ones) with a delivery zone containing the point " +
    "`lat`,`lng` (in `city_id` when given), serving `type` orders when given. A point no zone serves gets " +
    "an empty page; a malformed or out-of-range point is a 400.",
  request: { query: listQuerySchema(SUPPORTED_WINDOW_LIST).extend(SupportedWindowsQuery) },
  responses: { 200: jsonContent(SupportedWindowListSchema, "A page of delivery windows.") },
});

const bulkRoute = merchantRoute({
  method: "post",
  path: `${BASE}suborders/bulk-update/`,
  operationId: "bulkUpdateSuborders",
  summary: "Bulk Update Suborders",
  specId: "ML6",
  tags,
  permission: write,
  description:
    "Up to 100 suborders: a new `status` (through the suborder state machine: new → confirmed → " +
    "on_delivery → delivered or not_received_by_customer; cancelled_by_customer from new or confirmed, " +
    "cancelled_by_operation until delivered), a captain (an active captain of the store; null takes it off) " +
    "while the delivery has not ended, a delivery window of the suborder's restaurant while it has not left, " +
    "an operations `note`. One result per id, in the order given: an unknown id (or another store's) is " +
    "`suborder_not_found`, an illegal move `invalid_state_transition` with `current_status` and " +
    "`allowed_actions`, a suborder of a pending, cancelled or expired subscription `meal_subscription_not_active`, " +
    "one held by a pause `suborder_frozen`. Each move emits `suborder.status_changed` (and `suborder.delivered`), " +
    "each other change `suborder.updated`, in the batch of the change.",
  request: { body: jsonBody(BulkUpdateSubordersSchema) },
  errors: { 409: ["captain_inactive"] },
  responses: { 200: jsonContent(BulkSuborderResultSchema, "One result per id, in the order given.") },
});

const kitchenDayRoute = merchantRoute({
  method: "get",
  path: `${BASE}kitchen-day/`,
  operationId: "kitchenDay",
  summary: "Kitchen Day",
  beyondSpec:
    "The issue asks for a kitchen's day (the suborders of a date for a branch, by window, with their meals); " +
    "the interface names no operation for it.",
  tags,
  permission: read,
  description:
    "What a branch prepares on `date`: the pickups at it, and the deliveries of its restaurant in its city " +
    "when it is the restaurant's kitchen there (its main branch in the city, else the first by ordering). " +
    "Only suborders of active subscriptions (or paused ones, on days before the pause; completed ones keep " +
    "their last day), not held by a pause, " +
    "not cancelled. Grouped by delivery window (by start time; deliveries without a window, then pickup, " +
    "last), each suborder with its customer, address, captain, meals and add-ons by name; `totals` counts " +
    "each product over the day.",
  request: { query: z.object(KitchenDayQuery).strict() },
  errors: { 404: ["branch_not_found"] },
  responses: { 200: jsonContent(KitchenDaySchema, "The branch's day.") },
});

logisticsMerchantRouter
  .openapi(citiesRoute, async (c) =>
    c.json(envelopeOf(c, await listLogisticsCities(serviceContext(c), listQueryOf(c, CITY_LIST))), 200),
  )
  .openapi(windowsRoute, async (c) => {
    // The point and `type` are this operation's own; the rest is the window list's.
    const params = new URL(c.req.url).searchParams;
    for (const p of WINDOW_PARAMS) params.delete(p);
    const q = windowListQuery(params);
    // The route's validator parsed these; the list part's open shape hides their types.
    const at = c.req.valid("query") as z.output<typeof WindowPoint>;
    return c.json(envelopeOf(c, await listSupportedWindows(serviceContext(c), q, at)), 200);
  })
  .openapi(bulkRoute, async (c) => c.json(await bulkUpdateSuborders(serviceContext(c), c.req.valid("json")), 200))
  .openapi(kitchenDayRoute, async (c) => {
    const { date, branch_id } = c.req.valid("query");
    return c.json(await kitchenDay(serviceContext(c), date, branch_id), 200);
  });

crudRoutes(logisticsMerchantRouter, {
  tag,
  names: { one: "captain", many: "captains" },
  collection: `${BASE}captains/`,
  member: `${BASE}captains/{captain_id}/`,
  param: "captain_id",
  notFound: "captain_not_found",
  view: CaptainSchema,
  list: {
    operationId: "listCaptains",
    summary: "List Captains",
    specId: "ML5",
    permission: read,
    description:
      "The store's captains. Filter on `city_id`, `branch_id`, `is_active` (and the other fields); search by " +
      "name or mobile number (any form: 0534…, +966 53…).",
    spec: CAPTAIN_LIST,
    schema: CaptainListSchema,
    run: (ctx, q) => listCaptains(ctx, q),
  },
  get: { operationId: "captainDetails", summary: "Captain Details", specId: "ML2", permission: read, run: getCaptain },
  create: {
    operationId: "createCaptain",
    summary: "Create Captain",
    specId: "ML2",
    permission: write,
    description:
      "A captain: `mobile_number` in any form of `country_code`'s country (default 966), stored as E.164 digits and " +
      "unique among the store's live captains (409 `captain_mobile_taken`); `city_id` a city of the geography " +
      "lists; `branch_id` a branch of the store's restaurants.",
    errors: { 409: ["captain_mobile_taken"] },
    body: CreateCaptainSchema,
    run: (ctx, body) => createCaptain(ctx, body),
  },
  update: {
    operationId: "updateCaptain",
    summary: "Update Captain",
    specId: "ML2",
    permission: write,
    description: "Changes the fields given; a new `country_code` comes with `mobile_number`.",
    errors: { 409: ["captain_mobile_taken"] },
    body: UpdateCaptainSchema,
    run: updateCaptain,
  },
  remove: {
    operationId: "deleteCaptain",
    summary: "Delete Captain",
    specId: "ML2",
    permission: write,
    description:
      "Soft delete. 409 `captain_in_use` while suborders still to be delivered today or later (each restaurant's " +
      "today) are assigned to the captain, naming them.",
    errors: { 409: ["captain_in_use"] },
    run: deleteCaptain,
  },
});

crudRoutes(logisticsMerchantRouter, {
  tag,
  names: { one: "branch", many: "branches" },
  collection: `${BASE}branches/`,
  member: `${BASE}branches/{branch_id}/`,
  param: "branch_id",
  notFound: "branch_not_found",
  view: BranchSchema,
  list: {
    operationId: "listLogisticsBranches",
    summary: "List Branches",
    specId: "ML3",
    permission: read,
    description:
      "The kitchen and pickup branches of all the store's restaurants. Filter on `restaurant_id`, `city_id` …",
    spec: STORE_BRANCH_LIST,
    schema: LogisticsBranchListSchema,
    run: (ctx, q) => listStoreBranches(ctx, q),
  },
  get: {
    operationId: "logisticsBranchDetails",
    summary: "Branch Details",
    specId: "ML3",
    permission: read,
    run: getBranch,
  },
  create: {
    operationId: "createLogisticsBranch",
    summary: "Create Branch",
    specId: "ML3",
    permission: write,
    description:
      "A branch of `restaurant_id` (one of the store's), the same record as the meals writes' restaurant branch. " +
      "`city_id` must be a city of the geography lists. Makes the store's cached public reads fresh at once.",
    body: CreateLogisticsBranchSchema,
    run: (ctx, body) => createLogisticsBranch(ctx, body),
  },
  update: {
    operationId: "updateLogisticsBranch",
    summary: "Update Branch",
    specId: "ML3",
    permission: write,
    description:
      "Changes the fields given (`location` as a whole). Makes the store's cached public reads fresh at once.",
    body: UpdateLogisticsBranchSchema,
    run: updateLogisticsBranch,
  },
  remove: {
    operationId: "deleteLogisticsBranch",
    summary: "Delete Branch",
    specId: "ML3",
    permission: write,
    description: "Soft delete. 409 `branch_in_use` while live captains work from it, naming them.",
    errors: { 409: ["branch_in_use"] },
    run: deleteLogisticsBranch,
  },
});
