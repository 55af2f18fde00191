import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import {
  ProfileSchema,
  UpdateAvatarSchema,
  UpdateLanguageSchema,
  UpdatePlatformVersionSchema,
  UpdateProfileSchema,
} from "./schemas";
import {
  deleteAccount,
  getProfile,
  updateAvatar,
  updateLanguage,
  updatePlatformVersion,
  updateProfile,
} from "./service";

const tags = ["Customer app: profile"];
const PROFILE = "/profile/";
const common = { tags, specId: "CA6", errors: { 404: ["customer_not_found"] } } as const;
const profileResponse = { 200: jsonContent(ProfileSchema, "The customer's profile.") };

export const getProfileRoute = customerRoute({
  ...common,
  method: "get",
  path: PROFILE,
  operationId: "getProfile",
  summary: "Profile Details",
  description: "The customer of the access token. A deleted account's token gets 404 `customer_not_found`.",
  responses: profileResponse,
});

export const updateProfileRoute = customerRoute({
  ...common,
  method: "patch",
  path: PROFILE,
  operationId: "updateProfile",
  summary: "Update Profile",
  description:
    "Changes the given fields. A new `email` is unverified until proven; `secondary_mobile_number` is " +
    "read in the country of the customer's number; `current_city_id` must be a city of the geography " +
    "lists. The mobile number is the login and is not changed here.",
  request: { body: jsonBody(UpdateProfileSchema) },
  responses: profileResponse,
});

export const updateLanguageRoute = customerRoute({
  ...common,
  method: "patch",
  path: `${PROFILE}language/`,
  operationId: "updateLanguage",
  summary: "Update Language",
  description: "The language of the customer's messages and pushes.",
  request: { body: jsonBody(UpdateLanguageSchema) },
  responses: profileResponse,
});

export const updateAvatarRoute = customerRoute({
  ...common,
  method: "post",
  path: `${PROFILE}avatar/`,
  operationId: "updateAvatar",
  summary: "Update Avatar",
  description:
    "Records the https URL of the picture, which the app uploaded to its own storage (the API takes no " +
    "files); `null` removes it.",
  request: { body: jsonBody(UpdateAvatarSchema) },
  responses: profileResponse,
});

export const updatePlatformVersionRoute = customerRoute({
  ...common,
  method: "patch",
  path: `${PROFILE}platform-version/`,
  operationId: "updatePlatformVersion",
  summary: "Update Platform Version",
  description: "Records the version of the app the customer runs (shown as `platform_version`).",
  request: { body: jsonBody(UpdatePlatformVersionSchema) },
  responses: profileResponse,
});

export const deleteAccountRoute = customerRoute({
  ...common,
  method: "delete",
  path: PROFILE,
  operationId: "deleteAccount",
  summary: "Delete Customer Account",
  description:
    "Closes the account at once: the customer is deleted and their personal data erased (name, email, " +
    "national id, date of birth, avatar, numbers, custom fields), every session revoked, every device " +
    "unregistered from pushes, every location deleted. Orders and wallet history are kept, anonymised. " +
    "The number may register again as a new customer.",
  responses: { 204: { description: "Deleted." } },
});

export const profileCustomerRouter = createRouter()
  .openapi(getProfileRoute, async (c) => c.json(await getProfile(serviceContext(c), customerOf(c).customerId), 200))
  .openapi(updateProfileRoute, async (c) =>
    c.json(await updateProfile(serviceContext(c), customerOf(c).customerId, c.req.valid("json")), 200),
  )
  .openapi(updateLanguageRoute, async (c) =>
    c.json(await updateLanguage(serviceContext(c), customerOf(c).customerId, c.req.valid("json").lang), 200),
  )
  .openapi(updateAvatarRoute, async (c) =>
    c.json(await updateAvatar(serviceContext(c), customerOf(c).customerId, c.req.valid("json").avatar), 200),
  )
  .openapi(updatePlatformVersionRoute, async (c) =>
    c.json(
      await updatePlatformVersion(serviceContext(c), customerOf(c).customerId, c.req.valid("json").platform_version),
      200,
    ),
  )
  .openapi(deleteAccountRoute, async (c) => {
    await deleteAccount(serviceContext(c), customerOf(c).customerId);
    return c.body(null, 204);
  });
