import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { ComplaintReasonListSchema, ComplaintSchema, CreateComplaintSchema, ReasonsQuerySchema } from "./schemas";
import { complaintDetails, createComplaint, listReasons } from "./service";

const tags = ["Meals: complaints"];

export const listComplaintReasonsRoute = customerRoute({
  tags,
  specId: "MM2",
  method: "get",
  path: "/complaints/reasons/",
  operationId: "listComplaintReasons",
  summary: "List Complaint Reasons",
  description: "The reasons a suborder can be complained about: a fixed list of codes with their names.",
  request: { query: ReasonsQuerySchema },
  responses: { 200: jsonContent(ComplaintReasonListSchema, "A page of the reasons.") },
});

export const complainSuborderRoute = customerRoute({
  tags,
  specId: "MM2",
  method: "post",
  path: "/suborders/{suborder_id}/complaints/",
  operationId: "complainSuborder",
  summary: "Complain SubOrder",
  description:
    "Complains about one of the customer's delivered (or not received) suborders, until 3 days after its date in " +
    "the restaurant's calendar (`complaint_window_closed` names the last day); one complaint a suborder. The " +
    "complaint starts `open`. Emits `complaint.created`.",
  request: { params: idParam("suborder_id"), body: jsonBody(CreateComplaintSchema) },
  errors: {
    404: ["suborder_not_found"],
    409: ["complaint_not_allowed", "complaint_window_closed", "complaint_exists"],
  },
  responses: { 201: jsonContent(ComplaintSchema, "The complaint.") },
});

export const getComplaintRoute = customerRoute({
  tags,
  specId: "MM2",
  method: "get",
  path: "/complaints/{complaint_id}/",
  operationId: "getComplaint",
  summary: "Complaint Details",
  description: "One of the customer's complaints, with its status and the store's answer (another's is a 404).",
  request: { params: idParam("complaint_id") },
  errors: { 404: ["complaint_not_found"] },
  responses: { 200: jsonContent(ComplaintSchema, "The complaint.") },
});

/** MM2: the customer's complaints (the reasons first: `/complaints/reasons/` is no complaint id). */
export const complaintsCustomerRouter = createRouter()
  .openapi(listComplaintReasonsRoute, (c) => c.json(envelopeOf(c, listReasons(c.req.valid("query"))), 200))
  .openapi(complainSuborderRoute, async (c) =>
    c.json(
      await createComplaint(
        serviceContext(c),
        customerOf(c).customerId,
        c.req.valid("param").suborder_id,
        c.req.valid("json"),
      ),
      201,
    ),
  )
  .openapi(getComplaintRoute, async (c) =>
    c.json(await complaintDetails(serviceContext(c), c.req.valid("param").complaint_id, customerOf(c).customerId), 200),
  );
