import { cachedJson } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, jsonContent } from "../../../core/openapi";
import { publicRoute } from "../../../core/routes";
import { AllergenListSchema } from "./schemas";
import { ALLERGEN_LIST, listAllergens } from "./service";

/** Allergen Dislikes List, mounted under /api/v1 with the restaurants' reads. */

const allergensRoute = publicRoute({
  method: "get",
  path: "/restaurants/allergens-dislikes/",
  operationId: "listAllergensDislikes",
  summary: "Allergen Dislikes List",
  tags: ["Meals catalogue: restaurants"],
  specId: "R10",
  cached: true,
  description:
    "Allergens and dislikes a customer can declare; products name theirs in `allergies` and `allergens_dislikes`.",
  request: { query: listQuerySchema(ALLERGEN_LIST) },
  responses: { 200: jsonContent(AllergenListSchema, "A page of allergens and dislikes.") },
});

export const allergensPublicRouter = createRouter().openapi(allergensRoute, (c) =>
  cachedJson(c, async () => ({
    body: envelopeOf(c, await listAllergens(serviceContext(c), listQueryOf(c, ALLERGEN_LIST))),
  })),
);
