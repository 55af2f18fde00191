import { z } from "@hono/zod-openapi";
import { nonEmpty } from "../../../core/fields";
import { locationFields } from "../locations/schemas";

/** A partial change of one of the customer's locations; the image has its own operation. */
export const UpdateMyLocationSchema = nonEmpty(
  z.object(locationFields).omit({ image: true }).partial().strict(),
).openapi("UpdateCustomerLocation");

export type UpdateMyLocation = z.infer<typeof UpdateMyLocationSchema>;

export const UpdateLocationImageSchema = z
  .object({
    image: locationFields.image.openapi({
      description: "The https URL of the picture, uploaded by the app to its own storage; null removes it.",
      example: "https://cdn.example.com/locations/12.jpg",
    }),
  })
  .strict()
  .openapi("UpdateCustomerLocationImage");
