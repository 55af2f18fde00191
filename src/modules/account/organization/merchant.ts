import { serviceContext } from "../../../core/context";
import { createRouter, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { OrganizationConfigSchema } from "./schemas";
import { organizationConfig } from "./service";

export const getOrganizationConfigRoute = merchantRoute({
  method: "get",
  path: "/dashboard/admin/organization/config/",
  operationId: "getOrganizationConfig",
  summary: "Organization Config",
  tags: ["Merchant account"],
  specId: "MA6",
  permission: "can_retrieve_app_config",
  org: true,
  description:
    "The organization in `org-id` (which must own the store in `app-id`), its apps, and the store's currency, " +
    "languages and time zone.",
  responses: { 200: jsonContent(OrganizationConfigSchema, "The organization and the store's configuration.") },
});

/** MA6 */
export const organizationRouter = createRouter().openapi(getOrganizationConfigRoute, async (c) =>
  // `requirePermission` has checked that `org-id` is the token's organization.
  c.json(await organizationConfig(serviceContext(c), c.get("orgId")!), 200),
);
