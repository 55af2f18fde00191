import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { customerListQuery } from "../records/service";
import { MembershipListSchema } from "./schemas";
import { listMemberships, MEMBERSHIP_LIST } from "./service";

export const listCustomerMembershipsRoute = merchantRoute({
  method: "get",
  path: "/merchant/customers/{customer_id}/memberships/",
  operationId: "listCustomerMemberships",
  summary: "List Customer Memberships",
  tags: ["Customers"],
  specId: "MC2",
  permission: "can_read_order",
  description:
    "The customer's memberships: the access its subscriptions grant, each for a period, newest first. " +
    "Memberships are made by subscriptions; this list only reads them.",
  errors: { 404: ["customer_not_found"] },
  request: { params: idParam("customer_id"), query: listQuerySchema(MEMBERSHIP_LIST) },
  responses: { 200: jsonContent(MembershipListSchema, "A page of the customer's memberships.") },
});

/** The merchant's view of a customer's memberships (MC2). */
export const customerMembershipsRouter = createRouter().openapi(listCustomerMembershipsRoute, async (c) => {
  const ctx = serviceContext(c);
  const id = c.req.valid("param").customer_id;
  const q = await customerListQuery(ctx, id, () => listQueryOf(c, MEMBERSHIP_LIST));
  // The customer is checked in the list's own statement.
  return c.json(envelopeOf(c, await listMemberships(ctx, id, q)), 200);
});
