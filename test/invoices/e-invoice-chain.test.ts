import { describe, expect, it } from "vitest";
import { readStoreSettings } from "../../src/modules/account";
import { signStores } from "../../src/modules/orders/einvoices/signer";
import { FIRST_PIH } from "../../src/modules/orders/invoices/e-invoice/hash";
import { verifyEInvoice } from "../../src/modules/orders/invoices/e-invoice/verify";
import { db } from "../helpers/factories";
import { activeUnit, issue, pendingOrders, rowOf, rowsOf, SECRET, sellerStore } from "./e-invoice-chain-fixtures";

/*
 * The chain of docs/zatca.md: 1,000 invoices issued at once through the batch that pays an order,
 * each taking the unit's next counter in its own batch; then two signers at once over the unit.
 * Every link is checked: counters 1..1000 without a gap, each PIH the previous document's hash
 * (the first FIRST_PIH), every document verifying (hash, stamp, QR) as ZATCA's validator would.
 */
const A = 8761;
const COUNT = 1000;
/**
 * About 12 s on a quiet machine, past two minutes on a loaded one: the limit only catches a hang,
 * so it is far above both (the suite's 60 s would fail a busy machine's run).
 */
const HANG = 600_000;

describe("ZATCA chain: counters taken in the invoices' batches, signed in order", () => {
  it(`${COUNT} invoices issued concurrently, signed by two signers at once, verify link by link`, {
    timeout: HANG,
  }, async () => {
    await sellerStore(A);
    const unitId = await activeUnit(A);
    const ids = await pendingOrders(A, COUNT);
    const settings = await readStoreSettings(db(A), A);
    await Promise.all(ids.map((id) => issue(A, id, settings)));

    const issued = await rowsOf(A, "SELECT icv, invoice_id FROM einvoices WHERE unit_id = ? ORDER BY icv", unitId);
    expect(issued.map((r) => r.icv)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
    expect(new Set(issued.map((r) => r.invoice_id)).size).toBe(COUNT);
    expect(await rowOf(A, "SELECT last_icv, signed_icv FROM einvoice_units WHERE id = ?", unitId)).toEqual({
      last_icv: COUNT,
      signed_icv: 0,
    });
    // Each invoice waits for its signature; each batch left the wake-up for the signer in the outbox.
    expect(
      await rowOf(A, "SELECT count(*) AS n FROM invoices WHERE app_id = ? AND zatca_status = 'pending'", A),
    ).toEqual({ n: COUNT });
    expect(
      await rowOf(A, "SELECT count(*) AS n FROM outbox_events WHERE app_id = ? AND type = 'einvoice.sign'", A),
    ).toEqual({ n: COUNT });

    const [first, second] = await Promise.all([signStores(db(A), [A], SECRET), signStores(db(A), [A], SECRET)]);
    expect(first + second).toBe(COUNT);

    const docs = await rowsOf(
      A,
      `SELECT e.icv, e.uuid, e.pih, e.invoice_hash, e.xml, e.qr, i.serial FROM einvoices e
       JOIN invoices i ON i.id = e.invoice_id WHERE e.unit_id = ? ORDER BY e.icv`,
      unitId,
    );
    expect(docs).toHaveLength(COUNT);
    let previous = FIRST_PIH;
    for (const [n, doc] of docs.entries()) {
      expect(doc.icv).toBe(n + 1);
      expect(doc.pih, `PIH of ICV ${doc.icv}`).toBe(previous);
      const verified = verifyEInvoice(doc.xml);
      expect(verified.problems, `ICV ${doc.icv}`).toEqual([]);
      expect(verified).toMatchObject({ icv: doc.icv, pih: previous, uuid: doc.uuid, invoiceHash: doc.invoice_hash });
      expect(doc.xml).toContain(`<cbc:ID>${doc.serial}</cbc:ID>`);
      previous = doc.invoice_hash;
    }
    // The head is the last document's hash: the next document's PIH.
    expect(await rowOf(A, "SELECT signed_icv, last_hash FROM einvoice_units WHERE id = ?", unitId)).toEqual({
      signed_icv: COUNT,
      last_hash: previous,
    });
  });
});
