import { cartOf, checkedOut, depositCashback, rowOf, type Store, shopperOf, stocked } from "./helpers";

/** What the transaction tests (transactions*.test.ts) share: pending orders and the MO10/MO11 calls. */

export const TX = "/order/v1/merchant/transactions/";
export const txRow = (id: number) => rowOf("SELECT * FROM transactions WHERE id = ?", id);
export const invoiceOf = (orderId: number) =>
  rowOf("SELECT * FROM invoices WHERE order_id = ? AND type = 'invoice'", orderId);

/** The transactions of `store()` (a store of the test file's own, made by its beforeAll). */
export function transactionsIn(store: () => Store) {
  const capture = (id: number, headers: Record<string, string> = {}, as = store()) =>
    as.as(`${TX}${id}/capture/`, { method: "POST", headers });
  const decline = (id: number, body: Record<string, unknown> = { reason: "No transfer arrived." }, as = store()) =>
    as.as(`${TX}${id}/decline/`, { method: "POST", body });
  /** The store's last invoice serial number (0 before its first). */
  const counter = async () =>
    (
      await rowOf<{ n: number | null }>(
        "SELECT (SELECT last_number FROM invoice_counters WHERE app_id = ?) AS n",
        store().appId,
      )
    ).n ?? 0;

  /** A pending order of a new customer by `provider` and its manual payment transaction (if any). */
  async function pendingOrder(
    provider: "bank_transfer" | "cash_on_delivery" | "card",
    qty = 2,
    priceMinor = 1500,
    cart: Record<string, unknown> = {},
    cashback = 0,
  ) {
    const { appId } = store();
    const s = await shopperOf(appId);
    if (cashback) await depositCashback(store(), s.id, cashback);
    const item = await stocked(appId, priceMinor, 10);
    const c = await cartOf(s, { items: [{ item_id: item.id, qty }], ...cart });
    const r = await checkedOut(s, c.id, { payment_provider: provider, lang: "en" });
    const tx = await rowOf(
      "SELECT * FROM transactions WHERE order_id = ? AND type = 'payment' AND payment_provider <> 'wallet'",
      r.order.id,
    );
    return { orderId: r.order.id as number, tx, item, shopper: s, result: r };
  }

  return { capture, decline, counter, pendingOrder };
}
