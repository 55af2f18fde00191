import { z } from "@hono/zod-openapi";
import { humanText, hundredths, MONEY_MAX } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { geoId, ids, PackageInputSchema, PackageSchema } from "../fields";
import { RETURN_STATUSES, SHIPMENT_DIRECTIONS, SHIPMENT_STATUSES, STATUS_SOURCES } from "../tables";

const Place = z
  .object({
    pickup_location_id: z.number().int().nullable().optional(),
    location_id: z.number().int().nullable().optional(),
    name: z.string().nullable(),
    address1: z.string().nullable(),
    city_id: z.number().int().nullable(),
    district_id: z.number().int().nullable(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    phone: z.string().nullable(),
  })
  .openapi("ShipmentPlace");

export const ShipmentSchema = z
  .object({
    id: z.number().int(),
    order_id: z.number().int(),
    fulfillment_ids: z.array(z.number().int()),
    courier_id: z.number().int(),
    service: z.string(),
    direction: z.enum(SHIPMENT_DIRECTIONS),
    return_of_id: z.number().int().nullable().openapi({ description: "A return shipment's forward shipment." }),
    return_status: z.enum(RETURN_STATUSES).nullable().openapi({
      description: "A return's request: requested, received (delivered back: the lines may be refunded) or canceled.",
    }),
    origin: Place,
    destination: Place,
    packages: z.array(PackageSchema),
    weight: z.number().openapi({ description: "Kilograms, all packages." }),
    cod_amount: z.number(),
    cost: z.number(),
    currency: z.string(),
    label_url: z.string().nullable(),
    carrier_reference: z.string().nullable().openapi({
      description:
        "An integrated carrier's own id of the shipment (Aramex: its waybill number); null for a custom courier.",
    }),
    tracking_number: z.string().nullable(),
    tracking_url: z.string().nullable(),
    status: z.enum(SHIPMENT_STATUSES),
    allowed_actions: z.array(z.string()).openapi({ description: "What the status allows next (the state machine's)." }),
    status_history: z.array(
      z.object({
        status: z.enum(SHIPMENT_STATUSES),
        at: z.string(),
        note: z.string().nullable(),
        source: z.enum(STATUS_SOURCES),
        carrier_status: z.string().nullable(),
      }),
    ),
    notes: z.string().nullable(),
    delivered_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("Shipment");
export type Shipment = z.infer<typeof ShipmentSchema>;
export const ShipmentListSchema = envelopeSchema(ShipmentSchema, "ShipmentList");

const notes = humanText(1000, "lines").nullable();

export const CreateShipmentSchema = z
  .object({
    fulfillment_ids: ids(100, 1),
    courier_id: geoId,
    service: z
      .string()
      .max(40)
      .optional()
      .openapi({ description: "One of the courier's services; absent: its first." }),
    origin_pickup_location_id: geoId
      .optional()
      .openapi({ description: "Absent: the config's default origin, else the default pickup location." }),
    packages: z.array(PackageInputSchema).min(1).max(50).optional(),
    cod_amount: hundredths({
      min: 0,
      max: MONEY_MAX,
      description: "Cash to collect. Absent: the order's total when it is cash on delivery and unpaid, else 0.",
    }).optional(),
    notes: notes.optional(),
  })
  .strict()
  .openapi("CreateShipment");
export type CreateShipment = z.infer<typeof CreateShipmentSchema>;

export const CreateReturnShipmentSchema = z
  .object({
    fulfillment_ids: ids(100, 1).optional().openapi({ description: "Absent: every fulfillment of the shipment." }),
    courier_id: geoId.optional().openapi({ description: "Absent: the forward shipment's courier." }),
    service: z.string().max(40).optional(),
    packages: z.array(PackageInputSchema).min(1).max(50).optional(),
    notes: notes.optional(),
  })
  .strict()
  .openapi("CreateReturnShipment");
export type CreateReturnShipment = z.infer<typeof CreateReturnShipmentSchema>;

/** The statuses a merchant reports for a custom courier's shipment (cancel has its own route). */
export const REPORTABLE = SHIPMENT_STATUSES.filter(
  (s) => s !== "created" && s !== "cancelled" && s !== "label_purchased",
);

export const UpdateShipmentStatusSchema = z
  .object({ status: z.enum(REPORTABLE as [string, ...string[]]), note: humanText(500, "lines").optional() })
  .strict()
  .openapi("UpdateShipmentStatus");
export type UpdateShipmentStatus = z.infer<typeof UpdateShipmentStatusSchema>;

export const CarrierWebhookAnswerSchema = z
  .object({
    received: z.literal(true),
    applied: z.number().int().openapi({ description: "Updates that changed a shipment's status." }),
    ignored: z
      .array(z.object({ reference: z.string(), status: z.string(), reason: z.string() }))
      .openapi({ description: "Updates that changed nothing, each with why (unknown shipment, illegal move)." }),
  })
  .openapi("CarrierWebhookAnswer");
