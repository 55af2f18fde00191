import { envelopeOf, envelopeSchema, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { platformRoute } from "../../../core/routes";
import { registerOrganization } from "../../../db/directory";
import { homeShard } from "../../../db/shards";
import { copyAuditAfter, eventSinkOf, PLATFORM_BEYOND_SPEC, PLATFORM_TAGS, platformAuditOf } from "../shared";
import { CreateOrganizationSchema, OrganizationSchema } from "./schemas";
import { createOrganization, getOrganization, listOrganizations, ORGANIZATION_LIST } from "./service";

const ORGS = "/organizations/";
const tags = PLATFORM_TAGS;
const beyondSpec = PLATFORM_BEYOND_SPEC;

const createRoute = platformRoute({
  method: "post",
  path: ORGS,
  operationId: "createOrganization",
  summary: "Create Organization",
  tags,
  beyondSpec,
  description: "A new organization, to own stores.",
  request: { body: jsonBody(CreateOrganizationSchema) },
  responses: { 201: jsonContent(OrganizationSchema, "The organization.") },
});

const listRoute = platformRoute({
  method: "get",
  path: ORGS,
  operationId: "listOrganizations",
  summary: "List Organizations",
  tags,
  beyondSpec,
  description: "Every organization, oldest first.",
  request: { query: listQuerySchema(ORGANIZATION_LIST) },
  responses: { 200: jsonContent(envelopeSchema(OrganizationSchema, "OrganizationList"), "A page of organizations.") },
});

const getRoute = platformRoute({
  method: "get",
  path: `${ORGS}{organization_id}/`,
  operationId: "getOrganization",
  summary: "Organization Details",
  tags,
  beyondSpec,
  description: "One organization.",
  errors: { 404: ["organization_not_found"] },
  request: { params: idParam("organization_id") },
  responses: { 200: jsonContent(OrganizationSchema, "The organization.") },
});

export const organizationsPlatformRouter = createRouter()
  .openapi(createRoute, async (c) => {
    const org = await createOrganization(c.get("db"), eventSinkOf(c), c.req.valid("json"), platformAuditOf(c));
    // Step 1 of docs/shards.md: the directory's copy, under the same id, for its stores' rows.
    await registerOrganization(c.env, {
      id: org.id,
      name: org.name,
      createdAt: org.created_at,
      modifiedAt: org.modified_at,
    });
    copyAuditAfter(c, homeShard(c.env));
    return c.json(org, 201);
  })
  .openapi(listRoute, async (c) =>
    c.json(envelopeOf(c, await listOrganizations(c.get("db"), listQueryOf(c, ORGANIZATION_LIST))), 200),
  )
  .openapi(getRoute, async (c) =>
    c.json(await getOrganization(c.get("db"), c.req.valid("param").organization_id), 200),
  );
