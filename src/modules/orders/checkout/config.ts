import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { emit, newEvent } from "../../../core/events/outbox";
import { humanText, nonEmpty } from "../../../core/fields";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { amountMinor } from "../shared";
import { checkoutConfig } from "../tables";

/** The providers a store may offer at checkout (`free` is not chosen: it is what a zero total is). */
export const CHECKOUT_PROVIDERS = ["card", "wallet", "cash_on_delivery", "bank_transfer"] as const;
export type CheckoutProvider = (typeof CHECKOUT_PROVIDERS)[number];

export type CheckoutConfigRow = typeof checkoutConfig.$inferSelect;

/** The store's checkout configuration, with the defaults until it writes one. */
export async function readCheckoutConfig(db: Db, appId: number): Promise<CheckoutConfigRow> {
  const row = await db.select().from(checkoutConfig).where(eq(checkoutConfig.appId, appId)).get();
  return (
    row ?? {
      appId,
      enabledProviders: [...CHECKOUT_PROVIDERS],
      isDeliveryEnabled: true,
      isPickupEnabled: true,
      isWalletRedeemEnabled: true,
      minOrderMinor: 0,
      paymentTtlMinutes: 30,
      bankTransferTtlHours: 72,
      bankTransferInstructionsEn: null,
      bankTransferInstructionsAr: null,
      modifiedAt: "1970-01-01T00:00:00.000Z",
    }
  );
}

export const CheckoutConfigSchema = z
  .object({
    enabled_providers: z.array(z.enum(CHECKOUT_PROVIDERS)),
    is_delivery_enabled: z.boolean(),
    is_pickup_enabled: z.boolean(),
    is_wallet_redeem_enabled: z.boolean(),
    min_order_amount: z.number(),
    payment_ttl_minutes: z.number().int().openapi({ description: "How long an unpaid card order holds its stock." }),
    bank_transfer_ttl_hours: z.number().int(),
    bank_transfer_instructions_en: z.string().nullable(),
    bank_transfer_instructions_ar: z.string().nullable(),
    modified_at: z.string(),
  })
  .openapi("CheckoutConfig");

export type CheckoutConfig = z.infer<typeof CheckoutConfigSchema>;

export const checkoutConfigView = (r: CheckoutConfigRow): CheckoutConfig => ({
  enabled_providers: r.enabledProviders.filter((p): p is CheckoutProvider =>
    (CHECKOUT_PROVIDERS as readonly string[]).includes(p),
  ),
  is_delivery_enabled: r.isDeliveryEnabled,
  is_pickup_enabled: r.isPickupEnabled,
  is_wallet_redeem_enabled: r.isWalletRedeemEnabled,
  min_order_amount: toMajor(r.minOrderMinor),
  payment_ttl_minutes: r.paymentTtlMinutes,
  bank_transfer_ttl_hours: r.bankTransferTtlHours,
  bank_transfer_instructions_en: r.bankTransferInstructionsEn,
  bank_transfer_instructions_ar: r.bankTransferInstructionsAr,
  modified_at: r.modifiedAt,
});

export const UpdateCheckoutConfigSchema = nonEmpty(
  z
    .object({
      enabled_providers: z
        .array(z.enum(CHECKOUT_PROVIDERS))
        .min(1, "Enable at least one provider.")
        .max(CHECKOUT_PROVIDERS.length)
        .refine((v) => new Set(v).size === v.length, "Providers must not repeat."),
      is_delivery_enabled: z.boolean(),
      is_pickup_enabled: z.boolean(),
      is_wallet_redeem_enabled: z.boolean(),
      min_order_amount: amountMinor(1_000_000),
      payment_ttl_minutes: z.number().int().min(5).max(1440),
      bank_transfer_ttl_hours: z.number().int().min(1).max(720),
      bank_transfer_instructions_en: humanText(2000, "lines").nullable(),
      bank_transfer_instructions_ar: humanText(2000, "lines").nullable(),
    })
    .partial()
    .strict(),
).openapi("UpdateCheckoutConfig");

export type UpdateCheckoutConfig = z.infer<typeof UpdateCheckoutConfigSchema>;

/** MO3 update: one upsert over the current values; `checkout.config_updated` is not an event clients asked for. */
export async function updateCheckoutConfig(ctx: ServiceContext, input: UpdateCheckoutConfig): Promise<CheckoutConfig> {
  const current = await readCheckoutConfig(ctx.db, ctx.appId);
  const next: CheckoutConfigRow = {
    ...current,
    ...(input.enabled_providers && { enabledProviders: input.enabled_providers }),
    ...(input.is_delivery_enabled !== undefined && { isDeliveryEnabled: input.is_delivery_enabled }),
    ...(input.is_pickup_enabled !== undefined && { isPickupEnabled: input.is_pickup_enabled }),
    ...(input.is_wallet_redeem_enabled !== undefined && { isWalletRedeemEnabled: input.is_wallet_redeem_enabled }),
    ...(input.min_order_amount !== undefined && { minOrderMinor: input.min_order_amount }),
    ...(input.payment_ttl_minutes !== undefined && { paymentTtlMinutes: input.payment_ttl_minutes }),
    ...(input.bank_transfer_ttl_hours !== undefined && { bankTransferTtlHours: input.bank_transfer_ttl_hours }),
    ...(input.bank_transfer_instructions_en !== undefined && {
      bankTransferInstructionsEn: input.bank_transfer_instructions_en,
    }),
    ...(input.bank_transfer_instructions_ar !== undefined && {
      bankTransferInstructionsAr: input.bank_transfer_instructions_ar,
    }),
    modifiedAt: nowIso(),
  };
  const { appId: _, ...values } = next;
  await emit(
    ctx.db,
    ctx.events,
    [ctx.db.insert(checkoutConfig).values(next).onConflictDoUpdate({ target: checkoutConfig.appId, set: values })],
    [newEvent(ctx.appId, "merchant.settings.updated", { fields: Object.keys(input).map((k) => `checkout.${k}`) })],
  );
  return checkoutConfigView(next);
}
