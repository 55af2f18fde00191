import { z } from "@hono/zod-openapi";

export const ItemConfigSchema = z
  .object({
    reservation_minutes: z
      .number()
      .int()
      .min(1)
      .max(60)
      .openapi({ description: "How long Reserve an Item holds units when the request does not say." }),
    max_reservation_qty: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .openapi({ description: "The most units one reservation may hold." }),
  })
  .openapi("ItemConfig");

export type ItemConfig = z.infer<typeof ItemConfigSchema>;

export const UpdateItemConfigSchema = ItemConfigSchema.partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one setting to change.", path: ["body"] })
  .openapi("UpdateItemConfig");

export type UpdateItemConfig = z.infer<typeof UpdateItemConfigSchema>;
