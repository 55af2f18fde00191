import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { ChannelProfileSchema, UpdateChannelProfileSchema } from "./schemas";
import { getChannelProfile, updateChannelProfile } from "./service";

const tags = ["Sales channel connections"];
const PATH = "/sales-channels/profile/";

export const getChannelProfileRoute = merchantRoute({
  tags,
  specId: "MX5",
  method: "get",
  path: PATH,
  operationId: "getChannelProfile",
  summary: "Channel Profile",
  permission: "can_read_sales_channels",
  description:
    "How this store shows itself to other stores as a channel or a provider: names and logo (the store's own " +
    "until the profile sets them; connection requests show them), description, whether it is listed, contact, " +
    "and the cities it serves.",
  responses: { 200: jsonContent(ChannelProfileSchema, "The profile.") },
});

export const updateChannelProfileRoute = merchantRoute({
  tags,
  specId: "MX5",
  method: "patch",
  path: PATH,
  operationId: "updateChannelProfile",
  summary: "Update Channel Profile",
  permission: "can_write_sales_channels",
  description:
    "Changes the fields given; null clears one (a name or the logo then falls back to the store's own). " +
    "`supported_city_ids` replaces the list; an id that is no city is a 400. Emits `sales_channel.profile_updated`.",
  request: { body: jsonBody(UpdateChannelProfileSchema) },
  responses: { 200: jsonContent(ChannelProfileSchema, "The profile after the change.") },
});

/** MX5: the store's channel profile. */
export const channelProfileRouter = createRouter()
  .openapi(getChannelProfileRoute, async (c) => c.json(await getChannelProfile(serviceContext(c)), 200))
  .openapi(updateChannelProfileRoute, async (c) =>
    c.json(await updateChannelProfile(serviceContext(c), c.req.valid("json")), 200),
  );
