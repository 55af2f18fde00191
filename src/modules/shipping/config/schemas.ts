import { z } from "@hono/zod-openapi";
import { geoId, ids, PackageInputSchema, PackageSchema } from "../fields";

export const ShippingConfigSchema = z
  .object({
    default_pickup_location_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The default origin of shipments; null: the default pickup location." }),
    // A named schema made nullable loses its null in the document: a union keeps it.
    package_defaults: z.union([PackageSchema, z.null()]).openapi({
      description: "The package a shipment gets when it names none.",
    }),
    enabled_courier_ids: z
      .array(z.number().int())
      .nullable()
      .openapi({ description: "The couriers offered at checkout; null: every active courier." }),
    modified_at: z.string().nullable(),
  })
  .openapi("ShippingConfig");
export type ShippingConfig = z.infer<typeof ShippingConfigSchema>;

export const UpdateShippingConfigSchema = z
  .object({
    default_pickup_location_id: geoId.nullable(),
    package_defaults: z.union([PackageInputSchema, z.null()]),
    enabled_courier_ids: ids(100).nullable(),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .openapi("UpdateShippingConfig");
export type UpdateShippingConfig = z.infer<typeof UpdateShippingConfigSchema>;
