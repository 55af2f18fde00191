import { z } from "@hono/zod-openapi";
import { voucherCode } from "../records/schemas";

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const VoucherCodeParam = z.object({
  code: voucherCode.openapi({ param: { name: "code", in: "path" } }),
});

export const UpdateVoucherUsageSchema = z
  .object({
    customer_id: id.optional().openapi({
      description: "Whose use it is; the order's customer when left out (and it must be that customer when given).",
    }),
    order_id: id.openapi({
      description: "The store's order the voucher was (or is no longer) used by.",
      example: 1042,
    }),
    action: z.enum(["use", "release"]).openapi({
      description:
        "`use` records one use by the order (once per order: a repeat changes nothing); `release` gives it back " +
        "(the order was cancelled), a no-op when the order holds no use of the voucher.",
    }),
  })
  .strict()
  .openapi("UpdateVoucherUsage");

export type UpdateVoucherUsage = z.infer<typeof UpdateVoucherUsageSchema>;

export const VoucherUsageSchema = z
  .object({
    code: z.string().openapi({ example: "RAMADAN25" }),
    usage_count: z.number().int().openapi({ description: "Uses not released, in all." }),
    usage_limit: z.number().int().nullable(),
    per_customer_limit: z.number().int().nullable(),
    customer_id: z.number().int().nullable(),
    customer_usage_count: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The customer's uses not released; null without a customer." }),
  })
  .openapi("VoucherUsage");

export type VoucherUsage = z.infer<typeof VoucherUsageSchema>;
