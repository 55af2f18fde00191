import { customerOf } from "../../../core/auth";
import { cachedJson, invalidateTenantCache } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute, merchantRoute, publicRoute } from "../../../core/routes";
import { FEATURED_VOUCHER_LIST, FeaturedVoucherListSchema, listFeaturedVouchers } from "../../vouchers";
import { AppConfigSchema, UpdateAppConfigSchema } from "./schemas";
import { getAppConfig, updateAppConfig } from "./service";

/** The meals app's own reads (mounted under /api/v1): App Configs (MM8) and Featured Vouchers (MM7). */

const tags = ["Meals: app"];

const appConfigRoute = publicRoute({
  method: "get",
  path: "/app-configs/",
  operationId: "getMealAppConfig",
  summary: "App Configs",
  tags,
  specId: "MM8",
  cached: true,
  description:
    "The meals app's settings for this store: colours, logo and splash image, languages, the oldest app " +
    "versions still served (`force_update` blocks older builds), contacts, terms and privacy links, and the " +
    "feature switches. A store that never changed them reads the defaults, with `modified_at` null.",
  responses: { 200: jsonContent(AppConfigSchema, "The app config.") },
});

const updateAppConfigRoute = merchantRoute({
  method: "patch",
  path: "/app-configs/",
  operationId: "updateMealAppConfig",
  summary: "Update App Configs",
  tags,
  specId: "MM8",
  permission: "can_update_app_config",
  description:
    "Changes the fields given and leaves the others (`null` clears an optional field); `features` changes " +
    "only the switches it names. `default_lang` must be among `supported_languages`. Emits " +
    "`meal_app_config.updated` naming the fields that changed; a body that changes nothing writes nothing " +
    "and emits nothing. The public App Configs read shows the change at once.",
  request: { body: jsonBody(UpdateAppConfigSchema) },
  responses: { 200: jsonContent(AppConfigSchema, "The app config as it is now.") },
});

const featuredVouchersRoute = customerRoute({
  method: "get",
  path: "/vouchers/featured/",
  operationId: "listMealFeaturedVouchers",
  summary: "Featured Vouchers",
  tags,
  specId: "MM7",
  description:
    "The vouchers the store features that this customer can use now (enabled, in their window, not used " +
    "up, under the customer's own limit): the same list as the commerce checkout's Featured Vouchers. " +
    "Apply one by its `code` to a meals cart.",
  request: { query: listQuerySchema(FEATURED_VOUCHER_LIST) },
  responses: { 200: jsonContent(FeaturedVoucherListSchema, "A page of featured vouchers.") },
});

export const mealAppRouter = createRouter()
  .openapi(appConfigRoute, (c) => cachedJson(c, async () => ({ body: await getAppConfig(serviceContext(c)) })))
  .openapi(updateAppConfigRoute, async (c) => {
    const config = await updateAppConfig(serviceContext(c), c.req.valid("json"));
    // Before the answer: the writer's next read of the app config is fresh.
    await invalidateTenantCache(c.env.CACHE, c.get("appId"), (work) => c.executionCtx.waitUntil(work));
    return c.json(config, 200);
  })
  .openapi(featuredVouchersRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listFeaturedVouchers(serviceContext(c), customerOf(c).customerId, listQueryOf(c, FEATURED_VOUCHER_LIST)),
      ),
      200,
    ),
  );
