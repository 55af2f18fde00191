import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { ComplaintListSchema, ComplaintSchema, UpdateComplaintSchema } from "./schemas";
import { COMPLAINT_LIST, complaintDetails, listComplaints, updateComplaint } from "./service";

const tags = ["Meals: complaints"];
const beyondSpec =
  "The spec lists only the customer's side of complaints (MM2); the store reviews and resolves them here.";

export const listStoreComplaintsRoute = merchantRoute({
  tags,
  beyondSpec,
  method: "get",
  path: "/meals/complaints/",
  operationId: "listMealComplaints",
  summary: "List Complaints",
  permission: "can_read_order",
  description: "The store's complaints about suborders, newest first; filter by `status`, `reason`, `customer_id`…",
  request: { query: listQuerySchema(COMPLAINT_LIST) },
  responses: { 200: jsonContent(ComplaintListSchema, "A page of the store's complaints.") },
});

export const getStoreComplaintRoute = merchantRoute({
  tags,
  beyondSpec,
  method: "get",
  path: "/meals/complaints/{complaint_id}/",
  operationId: "getMealComplaint",
  summary: "Complaint Details (store)",
  permission: "can_read_order",
  description: "One of the store's complaints.",
  request: { params: idParam("complaint_id") },
  errors: { 404: ["complaint_not_found"] },
  responses: { 200: jsonContent(ComplaintSchema, "The complaint.") },
});

export const updateStoreComplaintRoute = merchantRoute({
  tags,
  beyondSpec,
  method: "patch",
  path: "/meals/complaints/{complaint_id}/",
  operationId: "updateMealComplaint",
  summary: "Update Complaint",
  permission: "can_write_order",
  idempotent: true,
  description:
    "Moves a complaint (open → in_review → resolved | rejected; another move is a 409 " +
    "`invalid_state_transition`) and writes the store's answer. Resolving may credit `wallet_credit` to the " +
    "customer's cashback in the same write (`customer.wallet.updated`). Emits `complaint.updated`, or " +
    "`complaint.resolved`.",
  request: { params: idParam("complaint_id"), body: jsonBody(UpdateComplaintSchema) },
  errors: {
    404: ["complaint_not_found", "customer_not_found"],
    409: ["invalid_state_transition", "concurrent_update"],
  },
  responses: { 200: jsonContent(ComplaintSchema, "The complaint after the change.") },
});

/** The store's side of complaints (beyond MM2). */
export const complaintsMerchantRouter = createRouter()
  .openapi(listStoreComplaintsRoute, async (c) =>
    c.json(envelopeOf(c, await listComplaints(serviceContext(c), listQueryOf(c, COMPLAINT_LIST))), 200),
  )
  .openapi(getStoreComplaintRoute, async (c) =>
    c.json(await complaintDetails(serviceContext(c), c.req.valid("param").complaint_id), 200),
  )
  .openapi(updateStoreComplaintRoute, async (c) =>
    c.json(await updateComplaint(serviceContext(c), c.req.valid("param").complaint_id, c.req.valid("json")), 200),
  );
