import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { MerchantSettingsSchema, UpdateMerchantSettingsSchema } from "./schemas";
import { getMerchantSettings, updateMerchantSettings } from "./service";

const SETTINGS = "/dashboard/admin/settings/";
const tags = ["Merchant account"];

export const getMerchantSettingsRoute = merchantRoute({
  method: "get",
  path: SETTINGS,
  operationId: "getMerchantSettings",
  summary: "Merchant Settings",
  tags,
  specId: "MA3",
  permission: "can_retrieve_app_config",
  description:
    "The store's settings: names, logo, currency, languages, time zone, and the VAT and seller details " +
    "printed on tax invoices. A store that never saved any reads the defaults (SAR, Arabic and English, " +
    "Asia/Riyadh, VAT 15%) with `modified_at` null.",
  responses: { 200: jsonContent(MerchantSettingsSchema, "The store's settings.") },
});

const UPDATE_DESCRIPTION =
  "Changes the fields given and leaves the others (a partial update; `null` clears an optional field). " +
  "`currency` is one of the 2-decimal currencies listed; `vat_percentage` is 0–100 with at most 2 decimals; " +
  "`vat_number` is a Saudi VAT number (15 digits, first and last a 3); `timezone` an IANA name; " +
  "`default_lang` must be among `languages`. Emits `merchant.settings.updated` naming the fields that " +
  "changed; a body that changes nothing writes nothing and emits nothing. Changing `currency` or " +
  "`vat_percentage` applies to orders placed afterwards, never to those already placed.";

const updateRoute = (method: "post" | "patch", operationId: string) =>
  merchantRoute({
    method,
    path: SETTINGS,
    operationId,
    summary: method === "post" ? "Update Merchant Settings" : "Update Merchant Settings (PATCH)",
    tags,
    specId: "MA5",
    permission: "can_update_app_config",
    description:
      method === "post"
        ? UPDATE_DESCRIPTION
        : `The same operation as \`POST\` on this path (${UPDATE_DESCRIPTION.charAt(0).toLowerCase()}${UPDATE_DESCRIPTION.slice(1)})`,
    request: { body: jsonBody(UpdateMerchantSettingsSchema) },
    responses: { 200: jsonContent(MerchantSettingsSchema, "The store's settings as they are now.") },
  });

export const updateMerchantSettingsRoute = updateRoute("post", "updateMerchantSettings");
export const patchMerchantSettingsRoute = updateRoute("patch", "patchMerchantSettings");

/** MA3 and MA5: the store's settings; the update answers POST (as the real system) and PATCH. */
export const merchantSettingsRouter = createRouter()
  .openapi(getMerchantSettingsRoute, async (c) => c.json(await getMerchantSettings(serviceContext(c)), 200))
  .openapi(updateMerchantSettingsRoute, async (c) =>
    c.json(await updateMerchantSettings(serviceContext(c), c.req.valid("json")), 200),
  )
  .openapi(patchMerchantSettingsRoute, async (c) =>
    c.json(await updateMerchantSettings(serviceContext(c), c.req.valid("json")), 200),
  );
