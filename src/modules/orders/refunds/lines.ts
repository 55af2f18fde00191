import { eq, sql } from "drizzle-orm";
import { ApiError } from "../../../core/errors";
import type { Db } from "../../../db/client";
import { invoiceItems, invoices } from "../tables";
import type { RefundInvoice } from "./schemas";

export type LineRow = typeof invoiceItems.$inferSelect;
export type RefundLine = { parent: LineRow; qty: number; totalMinor: number };

/**
 * The refunded invoice's lines' `refunded_qty` moved by the parts' quantities (`sign` 1 for a
 * refund, -1 for one given back), and that invoice's `modified_at`: Invoice Details shows them.
 */
export function refundedQtyStatements(db: Db, parts: RefundLine[], sign: 1 | -1, at: string) {
  const moved = parts.filter((p) => p.qty > 0);
  return [
    ...moved.map((p) =>
      db
        .update(invoiceItems)
        .set({ refundedQty: sql`${invoiceItems.refundedQty} + ${sign * p.qty}` })
        .where(eq(invoiceItems.id, p.parent.id)),
    ),
    ...moved
      .slice(0, 1)
      .map((p) => db.update(invoices).set({ modifiedAt: at }).where(eq(invoices.id, p.parent.invoiceId))),
  ];
}

/** Splits `amount` over `weights` in proportion, by largest remainder: the parts sum to `amount` exactly. */
function allocate(amount: number, weights: number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / sum);
  const parts = exact.map(Math.floor);
  let left = amount - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

/**
 * The lines a refund gives back and how much of each: by amount (spread over what each line has
 * left), by lines and quantities (the last units take what is left of the line), or everything left.
 */
export function refundLines(
  input: RefundInvoice,
  lines: LineRow[],
  refunded: Map<number | null, number>,
): RefundLine[] {
  const left = (l: LineRow) => l.totalMinor - (refunded.get(l.id) ?? 0);
  if (input.amount !== undefined) {
    const open = lines.filter((l) => left(l) > 0);
    const parts = allocate(input.amount, open.map(left));
    return open.map((l, i) => ({ parent: l, qty: 0, totalMinor: Math.min(parts[i]!, left(l)) }));
  }
  const wanted = input.items ?? lines.map((l) => ({ invoice_item_id: l.id, qty: l.qty - l.refundedQty }));
  const errors: Record<string, string[]> = {};
  const out: RefundLine[] = [];
  wanted.forEach((w, i) => {
    const line = lines.find((l) => l.id === w.invoice_item_id);
    if (!line) {
      errors[`items.${i}.invoice_item_id`] = [`Line ${w.invoice_item_id} is not a line of this invoice.`];
      return;
    }
    const remaining = line.qty - line.refundedQty;
    if (w.qty > remaining) {
      errors[`items.${i}.qty`] = [`Line ${line.id} has ${remaining} unit(s) left to refund.`];
      return;
    }
    if (w.qty === 0) return;
    // The last units take what is left of the line, so that a line is never refunded past its total.
    const total = w.qty === remaining ? left(line) : Math.round((line.totalMinor * w.qty) / line.qty);
    out.push({ parent: line, qty: w.qty, totalMinor: Math.min(total, left(line)) });
  });
  if (Object.keys(errors).length) throw ApiError.validation(errors);
  return out;
}
