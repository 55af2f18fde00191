import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";

/** The events of vouchers. */
export const voucherEvents = defineEvents({
  "voucher.created": { description: "A voucher was created.", data: ById },
  "voucher.updated": { description: "A voucher changed.", data: ById },
  "voucher.deleted": { description: "A voucher was deleted.", data: ById },
  "voucher.used": {
    description: "A voucher was used by an order (or a use was released: `action` says which).",
    data: ById.extend({
      code: z.string(),
      order_id: z.number().int(),
      customer_id: z.number().int().nullable(),
      action: z.enum(["use", "release"]),
      usage_count: z.number().int(),
    }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof voucherEvents> {}
}
