import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { emit, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { invoiceConfig } from "../tables";
import type { InvoiceConfig, UpdateInvoiceConfig } from "./schemas";

/** What a store without its own invoice settings has (the table's defaults). */
export const INVOICE_CONFIG_DEFAULTS: InvoiceConfig = {
  serial_prefix: "INV-",
  due_days: 0,
  footer_en: null,
  footer_ar: null,
  is_zatca_qr_enabled: true,
};

const view = (r: typeof invoiceConfig.$inferSelect): InvoiceConfig => ({
  serial_prefix: r.serialPrefix,
  due_days: r.dueDays,
  footer_en: r.footerEn,
  footer_ar: r.footerAr,
  is_zatca_qr_enabled: r.isZatcaQrEnabled,
});

/** The store's invoice settings row (one per store, keyed by `app_id`), as a query to batch. */
export const invoiceConfigQuery = (db: Db, appId: number) =>
  db.select().from(invoiceConfig).where(eq(invoiceConfig.appId, appId));

/** The settings of a row `invoiceConfigQuery` read; the defaults until changed. */
export const invoiceConfigOf = (row: typeof invoiceConfig.$inferSelect | undefined): InvoiceConfig =>
  row ? view(row) : { ...INVOICE_CONFIG_DEFAULTS };

/** The store's invoice settings; the defaults until changed. */
export async function readInvoiceConfig(db: Db, appId: number): Promise<InvoiceConfig> {
  return invoiceConfigOf(await invoiceConfigQuery(db, appId).get());
}

/** Changes some settings (an empty footer clears it); the others keep their values. Emits `invoice_config.updated`. */
export async function updateInvoiceConfig(ctx: ServiceContext, input: UpdateInvoiceConfig): Promise<InvoiceConfig> {
  const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v || null);
  const next: InvoiceConfig = {
    ...(await readInvoiceConfig(ctx.db, ctx.appId)),
    ...input,
    ...(input.footer_en !== undefined && { footer_en: blankToNull(input.footer_en) ?? null }),
    ...(input.footer_ar !== undefined && { footer_ar: blankToNull(input.footer_ar) ?? null }),
  };
  const values = {
    serialPrefix: next.serial_prefix,
    dueDays: next.due_days,
    footerEn: next.footer_en,
    footerAr: next.footer_ar,
    isZatcaQrEnabled: next.is_zatca_qr_enabled,
    modifiedAt: nowIso(),
  };
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(invoiceConfig)
        .values({ appId: ctx.appId, ...values })
        .onConflictDoUpdate({ target: invoiceConfig.appId, set: values }),
    ],
    [newEvent(ctx.appId, "invoice_config.updated", { app_id: ctx.appId })],
  );
  return next;
}
