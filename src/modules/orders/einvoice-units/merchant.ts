import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { EInvoicingUnitListSchema, EInvoicingUnitSchema, RegisterUnitSchema, RenewUnitSchema } from "./schemas";
import { getUnit, listUnits, registerUnit, renewUnit, UNIT_LIST } from "./service";

/**
 * The store's ZATCA e-invoicing units (docs/zatca.md, "Keys, onboarding and renewal"). Registering
 * and renewing answer 202: the keys, the CSR and ZATCA's calls run in the webhooks' Worker, and the
 * unit's `status` says when they are done (or `messages` why not).
 */
const UNITS = "/merchant/einvoicing/units/";
const UNIT = `${UNITS}{unit_id}/`;
const tags = ["E-invoicing"];
const beyondSpec = "ZATCA Phase 2: a store registers its e-invoicing unit with ZATCA before its invoices are signed.";

const registerUnitRoute = merchantRoute({
  method: "post",
  path: UNITS,
  operationId: "registerEInvoicingUnit",
  summary: "Register E-invoicing Unit",
  tags,
  beyondSpec,
  permission: "can_update_app_config",
  description:
    "Registers the store's e-invoicing unit with ZATCA using an OTP from the Fatoora portal: answers at once with the " +
    "unit `onboarding`; within seconds its key is made, its CSR sent, ZATCA's compliance checks passed and its " +
    "production CSID stored, and it becomes `active` (or `failed`, with ZATCA's `messages`: register again with a new " +
    "OTP). The CSR takes the store's `vat_number` and `seller_name`, and `seller_address` unless `registered_address` " +
    "is given. A store holds one unit onboarding or issuing at a time.",
  request: { body: jsonBody(RegisterUnitSchema) },
  errors: { 409: ["einvoice_unit_exists", "einvoice_seller_incomplete"] },
  responses: { 202: jsonContent(EInvoicingUnitSchema, "The unit, onboarding.") },
});

const listUnitsRoute = merchantRoute({
  method: "get",
  path: UNITS,
  operationId: "listEInvoicingUnits",
  summary: "List E-invoicing Units",
  tags,
  beyondSpec,
  permission: "can_retrieve_app_config",
  description: "The store's e-invoicing units, newest first, `failed` ones included; filter by `status`.",
  request: { query: listQuerySchema(UNIT_LIST) },
  responses: { 200: jsonContent(EInvoicingUnitListSchema, "A page of units.") },
});

const unitDetailsRoute = merchantRoute({
  method: "get",
  path: UNIT,
  operationId: "getEInvoicingUnit",
  summary: "E-invoicing Unit Details",
  tags,
  beyondSpec,
  permission: "can_retrieve_app_config",
  description:
    "One unit: its status, ZATCA's messages if its onboarding or renewal did not succeed, its chain's counters.",
  request: { params: idParam("unit_id") },
  errors: { 404: ["einvoice_unit_not_found"] },
  responses: { 200: jsonContent(EInvoicingUnitSchema, "The unit.") },
});

const renewUnitRoute = merchantRoute({
  method: "post",
  path: `${UNIT}renew/`,
  operationId: "renewEInvoicingUnit",
  summary: "Renew E-invoicing Unit",
  tags,
  beyondSpec,
  permission: "can_update_app_config",
  description:
    "Renews an `active` unit's production CSID with a new OTP (before `production_not_after`; an " +
    "`einvoice_unit.expiring` event warns 30 days ahead): answers at once with the unit `renewing`, which goes on " +
    "issuing; a new key and certificate replace the old within seconds and the unit is `active` again, its chain " +
    "(counter and previous hash) going on. Refused by ZATCA, it is `active` on its old CSID with ZATCA's `messages`.",
  request: { params: idParam("unit_id"), body: jsonBody(RenewUnitSchema) },
  errors: { 404: ["einvoice_unit_not_found"], 409: ["invalid_state_transition"] },
  responses: { 202: jsonContent(EInvoicingUnitSchema, "The unit, renewing.") },
});

export const einvoiceUnitsMerchantRouter = createRouter()
  .openapi(registerUnitRoute, async (c) =>
    c.json(await registerUnit(serviceContext(c), c.req.valid("json"), c.env.EINVOICE_KEY_SECRET), 202),
  )
  .openapi(listUnitsRoute, async (c) =>
    c.json(envelopeOf(c, await listUnits(serviceContext(c), listQueryOf(c, UNIT_LIST))), 200),
  )
  .openapi(unitDetailsRoute, async (c) => c.json(await getUnit(serviceContext(c), c.req.valid("param").unit_id), 200))
  .openapi(renewUnitRoute, async (c) =>
    c.json(
      await renewUnit(serviceContext(c), c.req.valid("param").unit_id, c.req.valid("json"), c.env.EINVOICE_KEY_SECRET),
      202,
    ),
  );
